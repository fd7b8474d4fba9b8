/**
 * Text every database stores as sent. PostgreSQL cannot hold NUL in text at all (the driver's error was a 500), and
 * an unpaired UTF-16 surrogate (`"\ud800"` in JSON) has no UTF-8 form, so each driver silently stores U+FFFD
 * instead. Both are refused up front, on every dialect alike, naming the field.
 */
import { ValidationError } from './errors';

/** A loop over char codes, not a regular expression: evaluation keys are checked on the hot path. */
export function isStorableText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) return false;
    if (c < 0xd800 || c > 0xdfff) continue;
    // A high surrogate must be followed by a low one (and is skipped with it); a low one alone is unpaired.
    if (c > 0xdbff) return false;
    const next = value.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** Why such text is refused, after the field's name (the import's reader says it too). */
export const UNSTORABLE_TEXT = 'must not contain NUL or unpaired surrogate characters';

export function requireStorableText(field: string, value: string): void {
  if (!isStorableText(value)) throw new ValidationError(field, UNSTORABLE_TEXT);
}

/**
 * Checks the strings of a validated request message: its fields, lists of strings, and nested messages (class
 * instances made by class-transformer). Free-form JSON objects (flag metadata, string maps) are stored as JSON text,
 * where these characters are escapes, so they are left alone.
 */
export function requireStorableFields(message: unknown, prefix = ''): void {
  if (message === null || typeof message !== 'object') return;
  const proto: unknown = Object.getPrototypeOf(message);
  if (proto === null || proto === Object.prototype) return;
  for (const [key, value] of Object.entries(message)) {
    const field = prefix + key;
    if (typeof value === 'string') requireStorableText(field, value);
    else if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'string') requireStorableText(field, item);
        else requireStorableFields(item, `${field}.`);
      }
    } else requireStorableFields(value, `${field}.`);
  }
}
