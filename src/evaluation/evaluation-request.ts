/**
 * Evaluation bodies parsed by walking their schemas (evaluation.schemas.ts) into typed requests, at the route edge:
 * the checks class-validator would make, without its per-request reflection. Each schema is compiled once, at module
 * load (compile(), below); a request then costs the calls the hand-written parser made. Fields are read with
 * protobuf JSON's spellings (wire/json-fields.ts): camelCase or snake_case, `null` is absent, an absent field is its
 * zero value; a null map value is "". Keys longer than storage holds are refused here: they can name nothing, and
 * they would otherwise travel on into lookups, caches and error messages. Lists are read after the other fields, and
 * their length is checked before any item is parsed, so an oversized batch costs no item's work.
 */
import { InvalidError, ValidationError } from '../common/errors';
import { requireStorableText } from '../common/storable-text';
import { maxLength } from '../common/validation';
import { camelToSnake, jsonField } from '../wire';
import {
  BATCH_EVALUATION_REQUEST, EVALUATION_REQUEST, LEGACY_BATCH_EVALUATION_REQUEST, LEGACY_EVALUATION_REQUEST,
  type BatchEvaluationRequest, type EvaluationRequest, type LegacyBatchEvaluationRequest, type LegacyEvaluationRequest,
} from './evaluation.schemas';
import { type FieldSchema, isMessage, type MessageSchema, UNREAD } from './message-schema';

const BAD = 'invalid values for key(s) in json body';

type Parser = (body: unknown, where: string, maxItems: number) => Record<string, unknown>;

/** How each kind of field is read; the compiled parsers call these with the field's names as constants. */
const read = {
  text(o: Record<string, unknown>, camel: string, snake: string): string {
    const v = jsonField(o, camel, snake);
    if (v === undefined) return '';
    if (typeof v !== 'string') throw new InvalidError(`${BAD}: ${camel} must be a string`);
    return v;
  },
  key(o: Record<string, unknown>, camel: string, snake: string, max: number): string {
    const key = maxLength(camel, read.text(o, camel, snake), max);
    requireStorableText(camel, key);
    return key;
  },
  flag(o: Record<string, unknown>, camel: string, snake: string): boolean {
    const v = jsonField(o, camel, snake);
    if (v === undefined) return false;
    if (typeof v !== 'boolean') throw new InvalidError(`${BAD}: ${camel} must be a boolean`);
    return v;
  },
  /** A string map (an evaluation's context), its null values turned to "" in place. */
  map(o: Record<string, unknown>, camel: string, snake: string): Record<string, string> {
    const v = jsonField(o, camel, snake);
    if (v === undefined) return {};
    if (typeof v !== 'object' || Array.isArray(v)) throw new InvalidError(`${BAD}: ${camel} must be an object with string values`);
    const map = v as Record<string, unknown>;
    for (const k in map) {
      const value = map[k];
      if (typeof value === 'string') continue;
      if (value === null) map[k] = '';
      else throw new InvalidError(`${BAD}: ${camel}.${k} must be a string`);
    }
    return map as Record<string, string>;
  },
  list(o: Record<string, unknown>, camel: string, snake: string, item: Parser, maxItems: number): unknown[] {
    const v = jsonField(o, camel, snake);
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new InvalidError(`${BAD}: ${camel} must be a list`);
    if (v.length > maxItems) {
      throw new ValidationError(camel, `a batch may hold at most ${maxItems} evaluations (limits.max_batch_requests)`);
    }
    const items: unknown[] = [];
    for (const body of v) items.push(item(body, `${camel} item`, maxItems));
    return items;
  },
  asObject(body: unknown, where: string): Record<string, unknown> {
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidError(`${BAD}: the ${where} must be a JSON object`);
    return body as Record<string, unknown>;
  },
};

/** The call that reads one field, as source text, or null for a field that is only documented. */
function readCall(name: string, schema: FieldSchema, items: Parser[]): string | null {
  const args = `o, ${JSON.stringify(name)}, ${JSON.stringify(camelToSnake(name))}`;
  if (schema.type === 'string') {
    if (UNREAD in schema) return null;
    return schema.maxLength === undefined ? `read.text(${args})` : `read.key(${args}, ${schema.maxLength})`;
  }
  if (schema.type === 'boolean') return `read.flag(${args})`;
  if (schema.type === 'object' && !isMessage(schema)) return `read.map(${args})`;
  if (schema.type === 'array' && isMessage(schema.items)) return `read.list(${args}, items[${items.push(compile(schema.items)) - 1}], maxItems)`;
  throw new Error(`evaluation requests have no ${schema.type} field like ${name}`);
}

/**
 * A message's parser, compiled once like Fastify's serialisers: straight-line code that builds the typed request as
 * one object literal, each field read by a call with constant names, so every property access stays monomorphic (a
 * loop over field descriptors made each access megamorphic: 60% slower per body). Lists come last.
 */
function compile(schema: MessageSchema): Parser {
  const items: Parser[] = [];
  const fields: string[] = [];
  const lists: string[] = [];
  for (const [name, field] of Object.entries(schema.properties)) {
    const call = readCall(name, field, items);
    if (call) (field.type === 'array' ? lists : fields).push(`${JSON.stringify(name)}: ${call}`);
  }
  const body = `const o = read.asObject(body, where);\nreturn { ${[...fields, ...lists].join(', ')} };`;
  return new Function('read', 'items', `return function parse(body, where, maxItems) {\n${body}\n};`)(read, items) as Parser;
}

const EVALUATION = compile(EVALUATION_REQUEST);
const BATCH = compile(BATCH_EVALUATION_REQUEST);
const LEGACY = compile(LEGACY_EVALUATION_REQUEST);
const LEGACY_BATCH = compile(LEGACY_BATCH_EVALUATION_REQUEST);

export function parseEvaluationRequest(body: unknown): EvaluationRequest {
  return EVALUATION(body, 'request', 0) as EvaluationRequest;
}

/** `maxRequests`: limits.max_batch_requests. */
export function parseBatchEvaluationRequest(body: unknown, maxRequests: number): BatchEvaluationRequest {
  return BATCH(body, 'request', maxRequests) as BatchEvaluationRequest;
}

export function parseLegacyEvaluationRequest(body: unknown): LegacyEvaluationRequest {
  return LEGACY(body, 'request', 0) as LegacyEvaluationRequest;
}

export function parseLegacyBatchEvaluationRequest(body: unknown, maxRequests: number): LegacyBatchEvaluationRequest {
  return LEGACY_BATCH(body, 'request', maxRequests) as LegacyBatchEvaluationRequest;
}
