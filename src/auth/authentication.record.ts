/** An authentication as services and the guard see it, and its Flipt JSON form (`flipt.auth.Authentication`). */
import { formatTimestamp } from '../common/timestamps';
import { Method } from './auth-method';

export interface AuthenticationRecord {
  /** '' for JWT authentications, which exist only for the request that carried the JWT. */
  id: string;
  method: Method;
  expiresAt: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  metadata: Record<string, string>;
  /** A JWT's verified claims, for authorization's bindings; never stored or shown. */
  claims?: Readonly<Record<string, unknown>>;
}

export interface AuthenticationJson {
  id: string;
  method: string;
  expiresAt?: string;
  createdAt?: string;
  updatedAt?: string;
  metadata: Record<string, string>;
}

/** Unset timestamps are left out, as protobuf JSON leaves out unset messages. */
export function toAuthenticationJson(a: AuthenticationRecord): AuthenticationJson {
  return {
    id: a.id,
    method: Method[a.method] ?? 'METHOD_NONE',
    ...(a.expiresAt ? { expiresAt: formatTimestamp(a.expiresAt) } : {}),
    ...(a.createdAt ? { createdAt: formatTimestamp(a.createdAt) } : {}),
    ...(a.updatedAt ? { updatedAt: formatTimestamp(a.updatedAt) } : {}),
    metadata: a.metadata,
  };
}

/** An authentication is expired from its `expiresAt` on; one without expiry never is. */
export function isExpired(a: Pick<AuthenticationRecord, 'expiresAt'>, at = Date.now()): boolean {
  return a.expiresAt !== null && a.expiresAt.getTime() <= at;
}
