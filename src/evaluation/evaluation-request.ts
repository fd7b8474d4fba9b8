/**
 * Hand-written parsing of evaluation bodies: the checks class-validator would make, without its per-request
 * reflection. Fields are read with protobuf JSON's spellings (wire/json-fields.ts); a null map value is "".
 * Keys longer than storage holds are refused here: they can name nothing, and they would otherwise travel on into
 * lookups, caches and error messages.
 */
import { InvalidError } from '../common/errors';
import { requireStorableText } from '../common/storable-text';
import { maxLength } from '../common/validation';
import { jsonField } from '../wire';

export interface ParsedEvaluation {
  requestId: string;
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

const BAD = 'invalid values for key(s) in json body';

export function asObject(body: unknown, where = 'request'): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidError(`${BAD}: the ${where} must be a JSON object`);
  return body as Record<string, unknown>;
}

export function stringField(o: Record<string, unknown>, camel: string, snake = camel): string {
  const v = jsonField(o, camel, snake);
  if (v === undefined) return '';
  if (typeof v !== 'string') throw new InvalidError(`${BAD}: ${camel} must be a string`);
  return v;
}

/**
 * A namespace or flag key: a string no longer than the stored keys (MAX_KEY_LENGTH) and storable by every database
 * (no NUL: PostgreSQL refuses it in a query), else 400 naming the field, the same on every dialect.
 */
export function keyField(o: Record<string, unknown>, camel: string, snake = camel): string {
  const key = maxLength(camel, stringField(o, camel, snake));
  requireStorableText(camel, key);
  return key;
}

export function boolField(o: Record<string, unknown>, camel: string, snake = camel): boolean {
  const v = jsonField(o, camel, snake);
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new InvalidError(`${BAD}: ${camel} must be a boolean`);
  return v;
}

export function listField(o: Record<string, unknown>, camel: string, snake = camel): unknown[] {
  const v = jsonField(o, camel, snake);
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new InvalidError(`${BAD}: ${camel} must be a list`);
  return v;
}

function contextField(o: Record<string, unknown>): Record<string, string> {
  const v = o.context;
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new InvalidError(`${BAD}: context must be an object with string values`);
  const ctx = v as Record<string, unknown>;
  for (const k in ctx) {
    const value = ctx[k];
    if (typeof value === 'string') continue;
    if (value === null) ctx[k] = '';
    else throw new InvalidError(`${BAD}: context.${k} must be a string`);
  }
  return ctx as Record<string, string>;
}

export function parseEvaluation(body: unknown, where?: string): ParsedEvaluation {
  const o = asObject(body, where);
  return {
    requestId: stringField(o, 'requestId', 'request_id'),
    namespaceKey: keyField(o, 'namespaceKey', 'namespace_key'),
    flagKey: keyField(o, 'flagKey', 'flag_key'),
    entityId: stringField(o, 'entityId', 'entity_id'),
    context: contextField(o),
  };
}
