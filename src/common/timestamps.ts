import { ValidationError } from './errors';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp of a request field, or 400 naming the field. */
export function parseTimestamp(value: string, field: string): Date {
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new ValidationError(field, `must be an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  return new Date(ms);
}

/**
 * Flipt prints timestamps like protobuf JSON does: RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits as needed.
 * Flagpole stores milliseconds, so it prints either none or three.
 */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * Evaluation timestamps carry sub-millisecond precision from a monotonic clock offset, printed with nine digits.
 * The `YYYY-MM-DDTHH:MM:SS` part is formatted once per second: this runs for every evaluation.
 */
export function formatPreciseTimestamp(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
    cachedSecond = second;
  }
  // Rounding may reach the next second's first nanosecond; stay inside this one.
  const nanos = Math.min(999_999_999, Math.round((epochMs - second * 1000) * 1e6));
  return `${cachedPrefix}.${String(nanos).padStart(9, '0')}Z`;
}
