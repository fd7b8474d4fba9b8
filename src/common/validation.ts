/** Checks shared by the services' request validation; each throws Flipt's message for the field it names. */
import { EmptyFieldError, ValidationError } from './errors';

const KEY_PATTERN = /^[-_,A-Za-z0-9]+$/;
/** Keys and names: the VARCHAR(255) columns holding them (storage/columns.ts). */
export const MAX_KEY_LENGTH = 255;
/** TEXT columns: bounded so one request cannot store an unbounded blob (MySQL TEXT holds 64 KiB). */
export const MAX_TEXT_LENGTH = 65535;
/** Protobuf's int32, the range of Flipt's integer fields (rule ranks among them) and of the INTEGER columns holding them. */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/** Flipt's bound on a variant attachment (its JSON text, in UTF-8 bytes): the API and imports refuse a larger one. */
export const MAX_ATTACHMENT_BYTES = 1000 * 1024;

export function requireField(field: string, value: string | undefined | null): string {
  if (value === undefined || value === null || value === '') throw new EmptyFieldError(field);
  return value;
}

/** Whether `value` could be a stored key (Flipt's key pattern): anything else names nothing. */
export function isValidKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function requireKey(field: string, value: string | undefined): string {
  const key = requireField(field, value);
  if (!KEY_PATTERN.test(key)) throw new ValidationError(field, 'contains invalid characters');
  return maxLength(field, key);
}

export function maxLength(field: string, value: string, max = MAX_KEY_LENGTH): string {
  // Character count as the databases count it (code points), not UTF-16 units.
  if (value.length > max && [...value].length > max) {
    throw new ValidationError(field, `must be at most ${max} characters`);
  }
  return value;
}

export function maxText(field: string, value: string | undefined): string {
  return maxLength(field, value ?? '', MAX_TEXT_LENGTH);
}
