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

/** `2026-11-27 16:40 UTC` or `2026-11-27 17:40 (local, UTC+1)`. */
export function formatDateTime(d: Date, zone: TimeZone): string {
  if (zone === 'utc') {
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  }
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())} (${zoneLabel(zone, d)})`;
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

/** A key proposed from a name: "New checkout page" → "new-checkout-page" (keys allow letters, digits, - _ ,). */
export function keyFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
