/**
 * Flipt prints timestamps like protobuf JSON does: RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits as needed.
 * Flagpole stores milliseconds, so it prints either none or three.
 */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** Evaluation timestamps carry sub-millisecond precision from a monotonic clock offset. */
export function formatPreciseTimestamp(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const base = new Date(whole).toISOString().slice(0, -5);
  const nanos = Math.round((epochMs - whole) * 1e6) + (whole % 1000) * 1e6;
  return `${base}.${String(nanos).padStart(9, '0')}Z`;
}
