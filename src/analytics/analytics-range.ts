/**
 * The time range of an analytics request, read as Flipt reads it: `from` and `to` in RFC 3339 or
 * `2006-01-02 15:04:05` (UTC), and a step that grows with the range (1 minute under 4 h, 5 from 4 h, 15 from 12 h,
 * 30 from 24 h). Buckets start on multiples of the step since the epoch, from the one holding `from` to the one
 * holding `to`, as Flipt's ClickHouse query cuts them (toStartOfInterval … WITH FILL). Pure.
 */
import { ValidationError } from '../common/errors';
import { MINUTE_MS } from './evaluation-counter';

const HOUR_MS = 3_600_000;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export interface Buckets {
  /** Minutes per bucket. */
  step: number;
  /** The first bucket's first minute, and the last bucket's (minutes since the epoch). */
  firstMinute: number;
  lastMinute: number;
  count: number;
}

/** A time in either of Flipt's forms, as epoch milliseconds; anything else is a 400 naming the field. */
export function parseAnalyticsTime(field: string, text: string | undefined): number {
  const value = text ?? '';
  const m = RFC3339.exec(value) ?? DATE_TIME.exec(value);
  const ms = m ? timeOf(m) : null;
  if (ms === null) {
    throw new ValidationError(field, `${JSON.stringify(value)} is neither an RFC 3339 time (2006-01-02T15:04:05Z) nor 2006-01-02 15:04:05 (UTC)`);
  }
  return ms;
}

function timeOf(m: RegExpExecArray): number | null {
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(Number(`0${m[7] ?? ''}`) * 1000);
  // Date.UTC rolls 2026-02-30 over into March: a date that does not exist does not read back the same.
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second) return null;
  const zone = m[8];
  if (zone === undefined || zone === 'Z') return ms;
  const [zh, zm] = zone.slice(1).split(':').map(Number);
  if (zh > 23 || zm > 59) return null;
  return ms - (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * MINUTE_MS;
}

/** Flipt's step for a range of `ms`, in minutes. */
export function stepMinutes(ms: number): number {
  if (ms >= 24 * HOUR_MS) return 30;
  if (ms >= 12 * HOUR_MS) return 15;
  if (ms >= 4 * HOUR_MS) return 5;
  return 1;
}

/** The buckets of [from, to]; a range that ends before it starts, or one of more than `maxBuckets`, is a 400. */
export function bucketsOf(from: number, to: number, maxBuckets: number): Buckets {
  if (to < from) throw new ValidationError('to', 'must not be before from');
  const step = stepMinutes(to - from);
  const firstMinute = Math.floor(Math.floor(from / MINUTE_MS) / step) * step;
  const lastMinute = Math.floor(Math.floor(to / MINUTE_MS) / step) * step;
  const count = (lastMinute - firstMinute) / step + 1;
  if (count > maxBuckets) throw new ValidationError('to', `the range from..to spans ${count} steps of ${step} minutes; at most ${maxBuckets} are answered at once`);
  return { step, firstMinute, lastMinute, count };
}

/** A minute since the epoch as Flipt writes its timestamps: RFC 3339, UTC, whole seconds. */
export function minuteTimestamp(minute: number): string {
  return new Date(minute * MINUTE_MS).toISOString().replace('.000Z', 'Z');
}
