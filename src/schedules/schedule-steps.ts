/**
 * A schedule's steps, pure: what a request's steps mean once validated, how each is stored, and what a schedule's
 * status and next time are after its steps changed. No framework, no database: the service and the runner both use it.
 */
import { ValidationError } from '../common/errors';
import { parseTimeBound } from '../audit/audit-time-bound';
import { maxLength } from '../common/validation';

export const SCHEDULE_TYPES = ['FLAG_ENABLED', 'ROLLOUT_THRESHOLD', 'ROLLOUT_SEGMENT', 'RULE_DISTRIBUTIONS'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** ACTIVE while a step is pending; PAUSED holds its pending steps; the others are final. */
export const SCHEDULE_STATUSES = ['ACTIVE', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const STEP_STATUSES = ['PENDING', 'APPLIED', 'SKIPPED', 'FAILED', 'CANCELLED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface DistributionShare {
  variantKey: string;
  rollout: number;
}

/** What one step sets: exactly one of these, by the schedule's type. */
export interface StepValue {
  enabled?: boolean;
  percentage?: number;
  value?: boolean;
  distributions?: DistributionShare[];
}

/** A step as stored (JSON) and answered: times are RFC 3339 in UTC. */
export interface StoredStep extends StepValue {
  at: string;
  deadline?: string;
  status: StepStatus;
  appliedAt?: string;
  message?: string;
}

/** A step as a request sends it (after the DTO's type checks: each field, if there, of its JSON type). */
export interface StepInput {
  at?: string;
  deadline?: string;
  enabled?: boolean;
  percentage?: number;
  value?: boolean;
  distributions?: Array<{ variantKey?: string; rollout?: number }>;
}

const FIELD_OF_TYPE: Record<ScheduleType, keyof StepValue> = {
  FLAG_ENABLED: 'enabled',
  ROLLOUT_THRESHOLD: 'percentage',
  ROLLOUT_SEGMENT: 'value',
  RULE_DISTRIBUTIONS: 'distributions',
};

/** The step field that holds a type's value (`percentage` for ROLLOUT_THRESHOLD, …). */
export const valueField = (type: ScheduleType): keyof StepValue => FIELD_OF_TYPE[type];

/**
 * A request's steps, validated and in stored form (all PENDING): at least one and at most `maxSteps`, each with an
 * RFC 3339 time (with its zone), times strictly increasing, a deadline not before its time, and exactly the value
 * field its type takes, in range. Errors name the field: `steps[1].at`.
 */
export function readSteps(type: ScheduleType, steps: StepInput[] | undefined, maxSteps: number): StoredStep[] {
  if (!Array.isArray(steps) || steps.length === 0) throw new ValidationError('steps', 'must contain at least one step');
  if (steps.length > maxSteps) throw new ValidationError('steps', `must contain at most ${maxSteps} steps (schedules.max_steps)`);
  const wanted = FIELD_OF_TYPE[type];
  let previous = -Infinity;
  return steps.map((step, i) => {
    const field = (name: string) => `steps[${i}].${name}`;
    if (step === null || typeof step !== 'object') throw new ValidationError(`steps[${i}]`, 'must be an object');
    if (step.at === undefined || step.at === '') throw new ValidationError(field('at'), 'must not be empty');
    const at = instant(step.at, field('at'));
    if (at.getTime() <= previous) throw new ValidationError(field('at'), 'must be later than the step before it');
    previous = at.getTime();
    const out: StoredStep = { at: at.toISOString(), status: 'PENDING' };
    if (step.deadline !== undefined && step.deadline !== '') {
      const deadline = instant(step.deadline, field('deadline'));
      if (deadline.getTime() < at.getTime()) throw new ValidationError(field('deadline'), 'must not be before the step\'s time');
      out.deadline = deadline.toISOString();
    }
    for (const other of Object.values(FIELD_OF_TYPE)) {
      if (other !== wanted && step[other] !== undefined) throw new ValidationError(field(other), `is not a value of a ${type} schedule (it takes ${wanted})`);
    }
    Object.assign(out, readValue(type, step, field));
    return out;
  });
}

/**
 * An RFC 3339 time with its zone, of a day that exists: JavaScript's parser rolls `2027-02-30` over to 2 March, which
 * would schedule a change on a day nobody asked for.
 */
function instant(value: string, field: string): Date {
  const at = parseTimeBound(value, field);
  const [y, m, d, hh, mm, ss] = value.slice(0, 19).split(/[-T:tT]/).map(Number);
  const calendar = new Date(Date.UTC(y, m - 1, d, hh, mm, ss));
  if (calendar.getUTCFullYear() !== y || calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== d || calendar.getUTCHours() !== hh
    || calendar.getUTCMinutes() !== mm || calendar.getUTCSeconds() !== ss) {
    throw new ValidationError(field, `is not a time that exists: ${JSON.stringify(value)}`);
  }
  return at;
}

function readValue(type: ScheduleType, step: StepInput, field: (name: string) => string): StepValue {
  switch (type) {
    case 'FLAG_ENABLED':
      if (typeof step.enabled !== 'boolean') throw new ValidationError(field('enabled'), 'must be true or false');
      return { enabled: step.enabled };
    case 'ROLLOUT_SEGMENT':
      if (typeof step.value !== 'boolean') throw new ValidationError(field('value'), 'must be true or false');
      return { value: step.value };
    case 'ROLLOUT_THRESHOLD':
      return { percentage: percentage(step.percentage, field('percentage')) };
    case 'RULE_DISTRIBUTIONS': {
      const shares = step.distributions;
      if (!Array.isArray(shares) || shares.length === 0) throw new ValidationError(field('distributions'), 'must contain at least one distribution');
      const seen = new Set<string>();
      let sum = 0;
      const out = shares.map((share, j) => {
        const at = `${field('distributions')}[${j}]`;
        const variantKey = share?.variantKey;
        if (typeof variantKey !== 'string' || variantKey === '') throw new ValidationError(`${at}.variantKey`, 'must not be empty');
        maxLength(`${at}.variantKey`, variantKey);
        if (seen.has(variantKey)) throw new ValidationError(`${at}.variantKey`, `names ${JSON.stringify(variantKey)} twice`);
        seen.add(variantKey);
        const rollout = percentage(share.rollout, `${at}.rollout`);
        sum += rollout;
        return { variantKey, rollout };
      });
      // Within a float's rounding of 100, as the split editor adds decimal percentages.
      if (sum > 100.0001) throw new ValidationError(field('distributions'), `rollouts add up to ${Number(sum.toFixed(4))}, more than 100`);
      return { distributions: out };
    }
  }
}

function percentage(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(field, 'must be a number');
  if (value < 0 || value > 100) throw new ValidationError(field, 'must be within range [0, 100]');
  return value;
}

/** The first step not yet applied, skipped, failed or cancelled; -1 when none is. */
export function pendingIndex(steps: readonly StoredStep[]): number {
  return steps.findIndex((s) => s.status === 'PENDING');
}

/**
 * A schedule's status and next time from its steps: a failed step fails it, a pending step keeps it active (or
 * paused), none left completes it. Cancelled stays cancelled.
 */
export function settle(status: ScheduleStatus, steps: readonly StoredStep[]): { status: ScheduleStatus; nextAt: Date | null } {
  if (status === 'CANCELLED') return { status, nextAt: null };
  if (steps.some((s) => s.status === 'FAILED')) return { status: 'FAILED', nextAt: null };
  const next = pendingIndex(steps);
  if (next < 0) return { status: 'COMPLETED', nextAt: null };
  if (status === 'PAUSED') return { status, nextAt: null };
  return { status: 'ACTIVE', nextAt: new Date(steps[next].at) };
}

/** Every pending step marked with `status` (a failure's or a cancellation's later steps). */
export function closePending(steps: readonly StoredStep[], status: 'CANCELLED', message: string): StoredStep[] {
  return steps.map((s) => (s.status === 'PENDING' ? { ...s, status, message } : s));
}

/** Whether the step's value is already what the target has (nothing to write). */
export function sameValue(type: ScheduleType, step: StepValue, current: StepValue): boolean {
  if (type !== 'RULE_DISTRIBUTIONS') {
    const field = FIELD_OF_TYPE[type];
    return step[field] === current[field];
  }
  const now = new Map((current.distributions ?? []).map((d) => [d.variantKey, d.rollout]));
  return (step.distributions ?? []).every((d) => now.get(d.variantKey) === d.rollout);
}
