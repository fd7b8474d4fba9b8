/**
 * Who made a schedule, kept with it: the audit actor its applied changes are recorded under, and the facts its right
 * is checked from again when a step applies (the authentication's id, method and metadata; a JWT's claims, which
 * exist nowhere else). Never a secret: an authentication's metadata holds none, and the client token is not in it.
 */
import type { AuthenticationRecord } from '../auth/authentication.record';
import { actorOf, type AuditActor } from '../audit/audit-event';
import { Method } from '../wire';

export interface ScheduleAuthor {
  actor: AuditActor;
  /** '' without an authentication (authentication not required) and for JWTs, which are not stored. */
  authenticationId: string;
  method: Method;
  metadata: Record<string, string>;
  claims?: Record<string, unknown>;
}

/** The creator's address is left out: it is in the create's own audit event, and a change applied later comes from none. */
export function authorOf(authentication: AuthenticationRecord | undefined): ScheduleAuthor {
  const actor = actorOf(authentication, undefined);
  if (!authentication) return { actor, authenticationId: '', method: Method.METHOD_NONE, metadata: {} };
  return {
    actor,
    authenticationId: authentication.id,
    method: authentication.method,
    metadata: { ...authentication.metadata },
    ...(authentication.claims ? { claims: { ...authentication.claims } } : {}),
  };
}

export function parseAuthor(text: string): ScheduleAuthor {
  return JSON.parse(text) as ScheduleAuthor;
}
