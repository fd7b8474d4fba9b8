/**
 * A scheduled change in words: what it changes ("Rollout 2 “beta ramp”", "Rule 1: beta-users") and what each step
 * sets ("Enable the flag", "Rollout 1: 50 %", "Rule 2: blue 50 % / green 50 %"). Rollouts and rules are named by
 * their position in the flag as it is now, as the flag page lists them; one since deleted says so.
 */
import type { Schedule, ScheduleStatus, StepInput, StepStatus } from '../api/schedules';
import { segmentKeysOf, type Rollout, type Rule } from '../api/types';

export interface Targets {
  rollouts: Rollout[];
  rules: Rule[];
}

/** 50 → "50 %", 33.33 → "33.33 %". */
export const percent = (n: number | undefined) => `${n ?? '?'} %`;

export function rolloutLabel(rollouts: Rollout[], id: string | undefined): string {
  const i = rollouts.findIndex((r) => r.id === id);
  if (i < 0) return 'A deleted rollout';
  const r = rollouts[i];
  return r.description ? `Rollout ${i + 1} “${r.description}”` : `Rollout ${i + 1}`;
}

export function ruleLabel(rules: Rule[], id: string | undefined): string {
  const i = rules.findIndex((r) => r.id === id);
  return i < 0 ? 'A deleted rule' : `Rule ${i + 1}`;
}

/** The rule's segments, after its position: "Rule 1 (beta-users or staff)". */
export function ruleWithSegments(rules: Rule[], rule: Rule): string {
  const keys = segmentKeysOf(rule);
  return `${ruleLabel(rules, rule.id)} (${keys.join(rule.segmentOperator === 'AND_SEGMENT_OPERATOR' ? ' and ' : ' or ')})`;
}

/** What the schedule changes, as its heading when it has no description. */
export function targetOf(s: Pick<Schedule, 'type' | 'rolloutId' | 'ruleId'>, t: Targets): string {
  switch (s.type) {
    case 'FLAG_ENABLED':
      return 'The flag’s on/off switch';
    case 'ROLLOUT_THRESHOLD':
      return `${rolloutLabel(t.rollouts, s.rolloutId)}: percentage`;
    case 'ROLLOUT_SEGMENT':
      return `${rolloutLabel(t.rollouts, s.rolloutId)}: value`;
    case 'RULE_DISTRIBUTIONS':
      return `${ruleLabel(t.rules, s.ruleId)}: split`;
  }
}

/** "blue 50 % / green 50 %". */
export function splitWords(distributions: Array<{ variantKey?: string; rollout?: number }> | undefined): string {
  return (distributions ?? []).map((d) => `${d.variantKey} ${percent(d.rollout)}`).join(' / ');
}

/** What one step sets, in words. */
export function stepWords(s: Pick<Schedule, 'type' | 'rolloutId' | 'ruleId'>, step: StepInput, t: Targets): string {
  switch (s.type) {
    case 'FLAG_ENABLED':
      return step.enabled ? 'Enable the flag' : 'Disable the flag';
    case 'ROLLOUT_THRESHOLD':
      return `${rolloutLabel(t.rollouts, s.rolloutId)}: ${percent(step.percentage)}`;
    case 'ROLLOUT_SEGMENT':
      return `${rolloutLabel(t.rollouts, s.rolloutId)}: serve ${String(step.value)}`;
    case 'RULE_DISTRIBUTIONS':
      return `${ruleLabel(t.rules, s.ruleId)}: ${splitWords(step.distributions)}`;
  }
}

export const SCHEDULE_STATUS: Record<ScheduleStatus, string> = {
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

export const STEP_STATUS: Record<StepStatus, string> = {
  PENDING: 'Pending',
  APPLIED: 'Applied',
  SKIPPED: 'Skipped',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** Still to do something (and so counted against `schedules.max_active_per_flag`). */
export const isOpen = (s: Schedule) => s.status === 'ACTIVE' || s.status === 'PAUSED';
