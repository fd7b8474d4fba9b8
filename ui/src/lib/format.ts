/**
 * Text for values: date-times in the zone the user chose (session/time-zone.ts), always naming it; keys proposed
 * from names.
 */
import { chosenTimeZone, type TimeZone } from '../session/time-zone';

const pad = (n: number) => String(n).padStart(2, '0');

/** `UTC+1`, `UTC-3`, `UTC+5:30`: the browser's offset from UTC at `at` (summer time included). */
export function utcOffset(at: Date): string {
  const minutes = -at.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${abs % 60 ? `:${pad(abs % 60)}` : ''}`;
}

/** The zone as a label: `UTC`, or `local, UTC+1` (the offset at `at`). */
export function zoneLabel(zone: TimeZone, at: Date): string {
  return zone === 'utc' ? 'UTC' : `local, ${utcOffset(at)}`;
}

/**
 * The zone for a whole column of date-times, said once in its header: `UTC`, or `local, Europe/Berlin` (the zone's
 * name rather than an offset, which summer time changes from one date to the next).
 */
export function zoneHeading(zone: TimeZone): string {
  return zone === 'utc' ? 'UTC' : `local, ${localZoneName()}`;
}

/** The browser's zone by name (`Europe/Berlin`), or its offset now when it has none. */
export function localZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || utcOffset(new Date());
}

/** `2026-11-27 16:40` in the zone, unnamed: for a column whose header names the zone (zoneHeading). */
export function formatDateBare(iso: string | undefined, zone = chosenTimeZone()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return zone === 'utc'
    ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `2026-11-27 16:40 UTC` or `2026-11-27 17:40 (local, UTC+1)`. */
export function formatDateTime(d: Date, zone: TimeZone): string {
  const bare = formatDateBare(d.toISOString(), zone);
  return zone === 'utc' ? `${bare} UTC` : `${bare} (${zoneLabel(zone, d)})`;
}

/** A date-time from the API in the chosen zone, named; `absent` (such as "never") when there is none. */
export function formatDate(iso: string | undefined, absent = '—', zone = chosenTimeZone()): string {
  if (!iso) return absent;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : formatDateTime(d, zone);
}

/**
 * The instant an `<input type="datetime-local">` value (`2026-11-27T16:40`) names in `zone`, or undefined for an
 * empty or unfinished value.
 */
export function instantOfInput(value: string, zone: TimeZone): Date | undefined {
  if (!/^\d{4,}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value)) return undefined;
  const d = new Date(zone === 'utc' ? `${value}Z` : value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** An instant as an `<input type="datetime-local">` value in `zone` (`2026-11-27T16:40`): instantOfInput's inverse. */
export function inputOfInstant(d: Date, zone: TimeZone): string {
  return formatDateBare(d.toISOString(), zone).replace(' ', 'T');
}

/**
 * A key proposed from a name: "New checkout page" → "new-checkout-page" (keys allow letters, digits, - _ ,). Accented
 * letters lose their accents rather than the letter ("Crème brûlée" → "creme-brulee"): NFKD splits "é" into "e" and
 * a combining mark, which is dropped.
 */
export function keyFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
