/**
 * Text every database stores as sent. PostgreSQL cannot hold NUL in text at all (the driver's error was a 500), and
 * an unpaired UTF-16 surrogate (`"\ud800"` in JSON) has no UTF-8 form, so each driver silently stores U+FFFD
 * instead. Both are refused up front, on every dialect alike, naming the field.
 */
import { ValidationError } from './errors';

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export function requireStorableText(field: string, value: string): void {
  if (!isStorableText(value)) throw new ValidationError(field, 'must not contain NUL or unpaired surrogate characters');
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
