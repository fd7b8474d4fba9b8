/**
 * A flag's lifecycle state, worked out from what is known of it (docs/api.md, Flag lifecycle). Pure: no Nest, no
 * storage; the check (lifecycle-check.ts) and the per-flag route feed it.
 *
 * - archived (`metadata.flagpole.archived`) → `archived`;
 * - a permanent kind (kill switch, permission) is never stale;
 * - reasons, each with the time it became true: `lifetime` (older than its kind's lifetime), `unused` (not evaluated
 *   for `unused_after`, counted from its creation when it never was), `rolled_out` (evaluated, every evaluation in
 *   the last `rolled_out_after` returned one value, and the flag has not changed in that time);
 * - any reason → `potentially_stale`; else `live` once evaluated (or when evaluations are not counted), `new` before.
 */
import { formatTimestamp } from '../common/timestamps';
import type { FlagKind } from '../wire';
import type { LifecyclePolicy } from './lifecycle-policy';

export const LIFECYCLE_STATES = ['new', 'live', 'potentially_stale', 'archived'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];
export const STALE_REASONS = ['lifetime', 'unused', 'rolled_out'] as const;
export type StaleReason = (typeof STALE_REASONS)[number];

export interface Reason {
  reason: StaleReason;
  /** RFC 3339: when the reason became true (`rolled_out`: when a check first saw it). */
  since: string;
  detail: string;
}

export interface FlagFacts {
  kind: FlagKind;
  archived: boolean;
  createdAt: Date;
  /** The newest change of the flag, its variants, rules, distributions and rollouts. */
  changedAt: Date;
  /** null: not evaluated (within what analytics keeps and what earlier checks saw). */
  lastEvaluatedAt: Date | null;
  /**
   * The values its evaluations returned in the last `rolled_out_after` (variant key, `true`/`false`), with counts;
   * undefined when not asked (the reason is off).
   */
  recentValues?: ReadonlyMap<string, number>;
}

export interface Judgement {
  state: LifecycleState;
  reasons: Reason[];
}

const DAY_MS = 86_400_000;

/** `previous`: the reasons last stored for the flag, whose `since` a reason still true keeps. */
export function judge(facts: FlagFacts, policy: LifecyclePolicy, now: number, previous: readonly Reason[] = []): Judgement {
  if (facts.archived) return { state: 'archived', reasons: [] };
  const reasons: Reason[] = [];
  const unstale: Judgement = { state: facts.lastEvaluatedAt || !policy.counted ? 'live' : 'new', reasons: [] };
  if (facts.kind === 'kill_switch' || facts.kind === 'permission') return unstale;
  const lifetime = policy.lifetimes[facts.kind] ?? 0;
  const created = facts.createdAt.getTime();
  if (lifetime > 0 && now > created + lifetime) {
    reasons.push({ reason: 'lifetime', since: formatTimestamp(new Date(created + lifetime)), detail: `${article(facts.kind)} ${label(facts.kind)} flag is expected to live ${days(lifetime)}; this one was created ${days(now - created)} ago` });
  }
  if (policy.unusedAfter > 0) {
    const seen = facts.lastEvaluatedAt?.getTime();
    const from = Math.max(seen ?? created, created);
    if (now > from + policy.unusedAfter) {
      const detail = seen === undefined
        ? `not evaluated in the ${days(now - created)} since it was created`
        : `not evaluated for ${days(now - seen)} (last at ${formatTimestamp(new Date(seen))})`;
      reasons.push({ reason: 'unused', since: formatTimestamp(new Date(from + policy.unusedAfter)), detail });
    }
  }
  if (policy.rolledOutAfter > 0 && facts.recentValues && facts.recentValues.size === 1 && facts.changedAt.getTime() <= now - policy.rolledOutAfter) {
    const [[value, count]] = [...facts.recentValues];
    if (count > 0) {
      const earlier = previous.find((r) => r.reason === 'rolled_out');
      const shown = value === '' ? 'no variant' : JSON.stringify(value);
      reasons.push({
        reason: 'rolled_out',
        since: earlier?.since ?? formatTimestamp(new Date(now)),
        detail: `all ${count} evaluation(s) in the last ${days(policy.rolledOutAfter)} returned ${shown}, and the flag has not changed since ${formatTimestamp(facts.changedAt)}`,
      });
    }
  }
  return reasons.length > 0 ? { state: 'potentially_stale', reasons } : unstale;
}

const label = (kind: FlagKind): string => kind.replace('_', ' ');
const article = (kind: FlagKind): string => (/^[aeiou]/.test(kind) ? 'An' : 'A');

/** A duration in days to the nearest (hours under two days), as people read a flag's age. */
function days(ms: number): string {
  if (ms < 2 * DAY_MS) {
    const hours = Math.round(ms / 3_600_000);
    return `${hours} hour${hours === 1 ? '' : 's'}`;
  }
  return `${Math.round(ms / DAY_MS)} days`;
}
