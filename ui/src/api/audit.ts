/**
 * The audit trail (`GET /api/v1/audit/events`): who changed what and when, newest first, with each change's payload
 * and the resource as it was before. Payloads keep Flipt's audit shapes (snake_case), so the UI reads them as plain
 * JSON objects rather than typing every resource.
 */
import { api, ApiError } from './client';
import type { PageFetcher } from './paging';

export const AUDIT_TYPES = ['flag', 'variant', 'segment', 'constraint', 'rule', 'distribution', 'namespace', 'rollout', 'token', 'schedule'] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

/** `stale` and `unstale`: the lifecycle check found a flag potentially stale, or no longer (issue 40). */
export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'stale', 'unstale'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditActor {
  /** none, token, oidc, github, kubernetes, jwt */
  authentication: string;
  ip?: string;
  email?: string;
  name?: string;
  picture?: string;
}

export type AuditPayload = Record<string, unknown>;

export interface AuditEvent {
  id: string;
  version: string;
  type: AuditType;
  action: AuditAction;
  status: string;
  timestamp: string;
  metadata: { actor?: AuditActor };
  payload: AuditPayload;
  /** The resource as the previous stored event left it; null for a create, or when history older than the trail. */
  before: AuditPayload | null;
  /** The flag the resource belongs to (a flag, its variant, rule, distribution or rollout); a distribution's payload does not name it. */
  flagKey?: string;
}

/** The route's filters; absent (or '') means "any". `flagKey` needs `namespaceKey`. */
export interface AuditFilter {
  namespaceKey?: string;
  type?: AuditType | '';
  action?: AuditAction | '';
  /** Events of the flag and of its variants, rules, distributions and rollouts. */
  flagKey?: string;
  /** Events of the segment and of its constraints. */
  segmentKey?: string;
  /** The actor's email, name or authentication method, matched exactly. */
  actor?: string;
  /** Part of the actor's email, name or authentication method, in any case. */
  actorContains?: string;
  since?: string;
  until?: string;
}

interface AuditPage {
  events: AuditEvent[];
  nextPageToken: string;
  totalCount: number;
}

/**
 * What the UI says when the server keeps no trail: with storage off the route answers a 404 that says so, a server
 * older than the route the router's bare "Not Found", and Unimplemented (501, gRPC 12) is taken to mean the same.
 * Any other 404 names a resource and is shown as it is.
 */
export const AUDIT_NOT_STORED = 'The audit trail is not stored on this server (audit.storage.enabled is false).';
const UNIMPLEMENTED = 12;

function notStored(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  if (e.status === 501 || e.code === UNIMPLEMENTED) return true;
  return e.status === 404 && (e.message === 'Not Found' || /audit/i.test(e.message));
}

export const auditPages = (filter: AuditFilter): PageFetcher<AuditEvent> => async (limit, pageToken, signal) => {
  try {
    const r = await api.get<AuditPage>('api/v1/audit/events', { query: { ...filter, limit, pageToken }, signal });
    return { items: r.events, nextPageToken: r.nextPageToken, totalCount: r.totalCount };
  } catch (e) {
    if (notStored(e)) throw new ApiError(AUDIT_NOT_STORED, (e as ApiError).status, (e as ApiError).code);
    throw e;
  }
};
