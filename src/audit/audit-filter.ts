/**
 * `audit.events`: which events the sinks receive, as Flipt writes them, `noun:verb` with `*` for any (`flag:created`,
 * `*:deleted`, `*:*`). Checked when the configuration loads (patternProblem), matched per event.
 */
import { AUDIT_ACTIONS, AUDIT_TYPES, type AuditAction, type AuditType } from './audit-event';

export type EventMatcher = (type: AuditType, action: AuditAction) => boolean;

/** Why a pattern can never match, or null when it is well formed. */
export function patternProblem(pattern: string): string | null {
  const [noun, verb, extra] = pattern.split(':');
  if (verb === undefined || extra !== undefined) return `"${pattern}" is not of the form noun:verb`;
  if (noun !== '*' && !(AUDIT_TYPES as readonly string[]).includes(noun)) {
    return `"${pattern}": unknown noun "${noun}" (one of ${AUDIT_TYPES.join(', ')} or *)`;
  }
  if (verb !== '*' && !(AUDIT_ACTIONS as readonly string[]).includes(verb)) {
    return `"${pattern}": unknown verb "${verb}" (one of ${AUDIT_ACTIONS.join(', ')} or *)`;
  }
  return null;
}

export function eventMatcher(patterns: readonly string[]): EventMatcher {
  const accepted = new Set(patterns);
  if (accepted.has('*:*')) return () => true;
  return (type, action) => accepted.has(`${type}:${action}`) || accepted.has(`${type}:*`) || accepted.has(`*:${action}`);
}
