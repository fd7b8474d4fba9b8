/**
 * Flipt decodes bodies with protobuf JSON rules (wire/json-fields.ts: both `flagKey` and `flag_key` name the same
 * field, the camelCase one wins, `null` means "absent"), and a `null` inside a string map becomes "". This brings a
 * parsed body or query into the camelCase shape the DTOs declare, before validation.
 */
import { jsonFieldName, snakeToCamel } from '../wire';
import { InvalidError } from './errors';

/** Fields holding messages of their own, whose keys are field names too. */
const NESTED_MESSAGES = new Set(['segment', 'threshold']);
const NESTED_MESSAGE_LISTS = new Set(['requests', 'steps', 'distributions']);
/** Fields holding free-form maps: keys are user data and stay untouched. */
const STRING_MAPS = new Set(['context']);

export function normalizeMessage(input: unknown, where = 'json body'): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new InvalidError(`invalid values for key(s) in ${where}: the request must be a JSON object`);
  }
  const source = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(source)) {
    // No message has such a field; assigning it would replace the new object's prototype instead.
    if (rawKey === '__proto__') continue;
    const key = snakeToCamel(rawKey);
    // Only the spelling the decoder reads the field from counts: not a null one, not one the camelCase name beats.
    if (jsonFieldName(source, key, rawKey) !== rawKey) continue;
    out[key] = normalizeValue(key, value, where);
  }
  return out;
}

function normalizeValue(key: string, value: unknown, where: string): unknown {
  if (NESTED_MESSAGES.has(key) && isPlainObject(value)) return normalizeMessage(value, where);
  if (NESTED_MESSAGE_LISTS.has(key) && Array.isArray(value)) {
    return value.map((item) => (isPlainObject(item) ? normalizeMessage(item, where) : item));
  }
  if (STRING_MAPS.has(key) && isPlainObject(value)) {
    const map: Record<string, unknown> = {};
    // defineProperty: a `__proto__` key is user data here and stays an ordinary key.
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(map, k, { value: v === null ? '' : v, enumerable: true, writable: true, configurable: true });
    }
    return map;
  }
  return value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
