/**
 * Datetime constraint values, read the way Flipt reads them: Go's time.Parse with the RFC 3339 layout, else the
 * date-only layout. Instants keep nanoseconds because Go compares them at that precision; a JS Date would make
 * `…:00.0001Z` equal `…:00Z`. Years are computed by hand because Date.UTC maps years 0–99 to 1900–1999.
 */

/** A point in time: whole seconds since the Unix epoch (UTC) plus nanoseconds in [0, 1e9). */
export interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

interface ParsedDateTime extends Instant {
  /** True when the text was a bare `YYYY-MM-DD`, which normalisation keeps in that form. */
  readonly dateOnly: boolean;
}

const SECONDS_PER_DAY = 86400;

function digitAt(s: string, i: number): number {
  const d = s.charCodeAt(i) - 0x30;
  return d >= 0 && d <= 9 ? d : -1; // NaN past the end fails both comparisons
}

function twoDigitsAt(s: string, i: number): number {
  const a = digitAt(s, i);
  const b = digitAt(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function fourDigitsAt(s: string, i: number): number {
  const hi = twoDigitsAt(s, i);
  const lo = twoDigitsAt(s, i + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Inverse of daysFromCivil. */
function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** `YYYY-MM-DD` at index 0, validated like Go: month 1–12, day within that month of that year. */
function parseDatePart(s: string): { year: number; month: number; day: number } | null {
  const year = fourDigitsAt(s, 0);
  const month = twoDigitsAt(s, 5);
  const day = twoDigitsAt(s, 8);
  if (year < 0 || month < 1 || month > 12 || day < 1) return null;
  if (s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d) return null;
  if (day > daysInMonth(month, year)) return null;
  return { year, month, day };
}

/**
 * Go's time.Parse(time.RFC3339, s), which (unlike strict RFC 3339) accepts a one-digit hour, a fraction after the
 * seconds introduced by `.` or `,` with any number of digits (nanoseconds beyond the ninth digit are dropped), and
 * zone offsets up to ±24:60.
 */
function parseRfc3339(s: string): ParsedDateTime | null {
  if (s.length < 19 || s.charCodeAt(10) !== 0x54 /* T */) return null;
  const date = parseDatePart(s);
  if (!date) return null;

  let p = 11;
  const h1 = digitAt(s, p);
  if (h1 < 0) return null;
  const h2 = digitAt(s, p + 1);
  const hour = h2 < 0 ? h1 : h1 * 10 + h2;
  p += h2 < 0 ? 1 : 2;
  if (hour > 23 || s.charCodeAt(p) !== 0x3a) return null;
  const minute = twoDigitsAt(s, p + 1);
  if (minute < 0 || minute > 59 || s.charCodeAt(p + 3) !== 0x3a) return null;
  const second = twoDigitsAt(s, p + 4);
  if (second < 0 || second > 59) return null;
  p += 6;

  let nanos = 0;
  const sep = s.charCodeAt(p);
  if ((sep === 0x2e || sep === 0x2c) && digitAt(s, p + 1) >= 0) {
    let q = p + 1;
    let scale = 100_000_000;
    while (digitAt(s, q) >= 0) {
      nanos += digitAt(s, q) * scale;
      scale = Math.floor(scale / 10);
      q++;
    }
    p = q;
  }

  let offsetSeconds = 0;
  const zone = s.charCodeAt(p);
  if (zone === 0x5a /* Z */) {
    p += 1;
  } else {
    if (zone !== 0x2b && zone !== 0x2d) return null;
    const oh = twoDigitsAt(s, p + 1);
    const om = twoDigitsAt(s, p + 4);
    if (oh < 0 || om < 0 || s.charCodeAt(p + 3) !== 0x3a || oh > 24 || om > 60) return null;
    offsetSeconds = (zone === 0x2d ? -1 : 1) * (oh * 3600 + om * 60);
    p += 6;
  }
  if (p !== s.length) return null;

  const seconds =
    daysFromCivil(date.year, date.month, date.day) * SECONDS_PER_DAY +
    hour * 3600 +
    minute * 60 +
    second -
    offsetSeconds;
  return { seconds, nanos, dateOnly: false };
}

/** Go's time.Parse(time.DateOnly, s): midnight UTC. */
function parseDateOnly(s: string): ParsedDateTime | null {
  if (s.length !== 10) return null;
  const date = parseDatePart(s);
  if (!date) return null;
  return { seconds: daysFromCivil(date.year, date.month, date.day) * SECONDS_PER_DAY, nanos: 0, dateOnly: true };
}

function parseDateTime(s: string): ParsedDateTime | null {
  return parseRfc3339(s) ?? parseDateOnly(s);
}

/** The instant a datetime constraint value or context value denotes, or null when Flipt could not parse it. */
export function parseInstant(s: string): Instant | null {
  return parseDateTime(s);
}

/** Negative when a is earlier than b, zero when equal, positive when later. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}

/** RFC 3339 (optionally with a fraction) or `YYYY-MM-DD` (midnight UTC), as Flipt accepts; null otherwise. */
export function parseFliptDateTime(s: string): Date | null {
  const parsed = parseDateTime(s);
  return parsed ? new Date(parsed.seconds * 1000 + Math.floor(parsed.nanos / 1e6)) : null;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatYear(year: number): string {
  return year < 0 ? '-' + pad(-year, 4) : pad(year, 4);
}

/**
 * The form Flipt stores a datetime constraint value in: UTC RFC 3339 without fractional seconds (the fraction is
 * truncated, not rounded), or `YYYY-MM-DD` kept as such. Null when the value is not a datetime Flipt accepts.
 */
export function normalizeDateTimeValue(s: string): string | null {
  const parsed = parseDateTime(s);
  if (!parsed) return null;
  const days = Math.floor(parsed.seconds / SECONDS_PER_DAY);
  const [year, month, day] = civilFromDays(days);
  const date = `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}`;
  if (parsed.dateOnly) return date;
  const secondOfDay = parsed.seconds - days * SECONDS_PER_DAY;
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay % 3600) / 60);
  return `${date}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(secondOfDay % 60, 2)}Z`;
}
