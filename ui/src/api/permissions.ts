import { api } from './client';

/** The policy's resources (docs/authorization.md); `authentication` is static tokens. */
export type Resource = 'namespace' | 'flag' | 'segment' | 'authentication' | 'audit';
export type Action = 'create' | 'read' | 'update' | 'delete';
export type Allowed = Partial<Record<Resource, Action[]>>;

/** `GET /auth/v1/self/permissions`: what the signed-in caller may do, outside namespaces and in each existing one. */
export interface Permissions {
  /** false: every authenticated caller may do everything. */
  authorizationRequired: boolean;
  roles: string[];
  /** Outside any namespace: tokens (authentication), and what a role grants without naming namespaces. */
  global: Allowed;
  /** By namespace key; a namespace where the caller may do nothing is not listed. */
  namespaces: Record<string, Allowed>;
}

export const getPermissions = () => api.get<Permissions>('auth/v1/self/permissions', { probe: true });
