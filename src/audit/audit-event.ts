/**
 * Flipt v1's audit event (`internal/server/audit`, version 0.2): what changed (type, action, payload in Flipt's audit
 * shapes), who changed it (the actor) and when. Sinks send it as is; the stored trail keeps it with the resource it
 * is about. Framework-free, so the sinks and tests build events without Nest.
 */
import { Method } from '../wire';

export const AUDIT_VERSION = '0.2';

/** Flipt's nouns, in its order, then Flagpole's: `schedule` (scheduled changes). */
export const AUDIT_TYPES = ['flag', 'variant', 'segment', 'constraint', 'rule', 'distribution', 'namespace', 'rollout', 'token', 'schedule'] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

/** Flipt's verbs, then Flagpole's: `stale` and `unstale`, a flag the lifecycle check found potentially stale, or no longer. */
export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'stale', 'unstale'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** `success`: a committed change; `denied`: a write authorization refused (its payload: what the request named). */
export type AuditStatus = 'success' | 'denied';

/** Flipt's actor: string values only; `authentication` is the method (`none` without one). */
export interface AuditActor {
  authentication: string;
  ip?: string;
  email?: string;
  name?: string;
  picture?: string;
}

/** Flagpole addition: why a change happened when no request made it (a scheduled change's step). */
export interface AuditCause {
  scheduledChange: string;
  step: number;
}

export interface AuditEvent {
  version: typeof AUDIT_VERSION;
  type: AuditType;
  action: AuditAction;
  metadata: { actor: AuditActor; cause?: AuditCause };
  payload: Record<string, unknown>;
  /** RFC 3339 with milliseconds. */
  timestamp: string;
  status: AuditStatus;
}

/**
 * What the event is about, for the stored trail's filters and history: its namespace (null for tokens), the flag or
 * segment it belongs to, and `resource`, which names one thing across its life (so the previous state of an update
 * can be found).
 */
export interface AuditSubject {
  namespace: string | null;
  flag: string | null;
  segment: string | null;
  resource: string;
}

/** The credential's facts an actor is made of (an AuthenticationRecord fits). */
export interface ActorSource {
  method: Method;
  metadata: Record<string, string>;
}

const PREFIX = 'io.flagpole.auth';
const TOKEN_NAME = `${PREFIX}.token.name`;

/**
 * The method as Flipt names it in the actor (`token`, `oidc`, …); email, name and picture from the method's metadata
 * (OIDC, GitHub, JWT), and for static tokens the token's name as `name`, so that "who" has an answer for machines too.
 */
export function actorOf(authentication: ActorSource | undefined, ip: string | undefined): AuditActor {
  const actor: AuditActor = { authentication: authentication ? methodName(authentication.method) : 'none' };
  if (ip) actor.ip = ip;
  if (!authentication) return actor;
  const m = authentication.metadata;
  const method = actor.authentication;
  for (const field of ['email', 'name', 'picture'] as const) {
    const value = m[`${PREFIX}.${method}.${field}`] ?? m[`${PREFIX}.${field}`];
    if (value) actor[field] = value;
  }
  if (!actor.name && m[TOKEN_NAME]) actor.name = m[TOKEN_NAME];
  return actor;
}

function methodName(method: Method): string {
  return (Method[method] ?? 'METHOD_NONE').replace(/^METHOD_/, '').toLowerCase();
}

export function auditEvent(
  type: AuditType, action: AuditAction, payload: Record<string, unknown>, actor: AuditActor, at = new Date(), status: AuditStatus = 'success',
): AuditEvent {
  return { version: AUDIT_VERSION, type, action, metadata: { actor }, payload, timestamp: at.toISOString(), status };
}

const weights = new WeakMap<AuditEvent, number>();

/**
 * The event's size as its JSON in UTF-8, the measure of the outboxes' byte bounds (`limits.max_audit_backlog_bytes`);
 * worked out once per event, however many destinations weigh it.
 */
export function eventBytes(event: AuditEvent): number {
  let bytes = weights.get(event);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(event));
    weights.set(event, bytes);
  }
  return bytes;
}
