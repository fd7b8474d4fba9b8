/**
 * Go duration syntax (`time.ParseDuration`), which Flipt's configuration uses: an optional sign, then one or more
 * decimal numbers each followed by a unit — `ns`, `us` (`µs`), `ms`, `s`, `m`, `h` — e.g. `30s`, `1h30m`, `1.5h`,
 * `2h45m10s`. A lone `0` needs no unit. Values are returned in milliseconds (fractions keep µs/ns parts).
 */

const MS_PER_UNIT: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds for a Go duration string, or undefined when the text is not one (a bare `30` included). */
export function parseDuration(text: string): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;

  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < rest.length) {
    const start = PART.lastIndex;
    const match = PART.exec(rest);
    if (!match || match.index !== start) return undefined;
    total += Number(match[1]) * MS_PER_UNIT[match[2]];
  }
  // Round to whole nanoseconds so that 0.1s + 0.2s style sums do not leak float noise.
  return (sign * Math.round(total * 1e6)) / 1e6 || 0;
}

/** The shortest exact Go form of a duration in milliseconds: 90000 → `1m30s`, 1500 → `1s500ms`, 0 → `0s`. */
export function formatDuration(ms: number): string {
  let ns = Math.round(Math.abs(ms) * 1e6);
  if (ns === 0) return '0s';
  const units: Array<[string, number]> = [
    ['h', 3_600_000_000_000],
    ['m', 60_000_000_000],
    ['s', 1_000_000_000],
    ['ms', 1_000_000],
    ['us', 1_000],
    ['ns', 1],
  ];
  let out = ms < 0 ? '-' : '';
  for (const [unit, size] of units) {
    const count = Math.floor(ns / size);
    if (count > 0) {
      out += `${count}${unit}`;
      ns -= count * size;
    }
  }
  return out;
}

/** Go's time.Duration is an integer count of nanoseconds; `/meta/config` shows durations that way. */
export function toNanoseconds(ms: number): number {
  return Math.round(ms * 1e6);
}
