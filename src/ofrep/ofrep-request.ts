/**
 * OFREP request bodies read into what an evaluation takes, at the route edge; pure functions, tested beside.
 *
 * OFREP's context is an OpenFeature evaluation context: any JSON object. Flipt's OFREP gateway reads it as a string
 * map and refuses anything else (400 INVALID_CONTEXT); Flagpole reads typed contexts as OpenFeature SDKs send them:
 * strings as they are, numbers and booleans as their JSON text (`42`, `true`), `null` as "" (as Flipt), nested objects
 * and arrays as their JSON text. Constraints compare the same strings Flipt's clients would have sent.
 *
 * The entity is `context.targetingKey` when present (even ""), else a random UUID per request, as Flipt: Flagpole
 * never answers TARGETING_KEY_MISSING (docs/api.md says why). The context, `targetingKey` and `flags` included, is
 * what constraints see, as in Flipt.
 */
import { randomUUID } from 'node:crypto';
import { InvalidError, ValidationError } from '../common/errors';
import { maxLength } from '../common/validation';

const BAD = 'invalid values for key(s) in json body';
const TARGETING_KEY = 'targetingKey';
const FLAGS = 'flags';

export interface OfrepRequest {
  /** The context as constraints read it: every value a string. */
  context: Record<string, string>;
  entityId: string;
}

export interface OfrepBulkRequest extends OfrepRequest {
  /** The keys `context.flags` selects, trimmed, without empties or repeats; null when it selects nothing (every flag). */
  flags: string[] | null;
}

export function parseOfrepRequest(body: unknown): OfrepRequest {
  const context = textContext(contextObject(body));
  return { context, entityId: entityOf(context) };
}

/**
 * `maxFlags`: limits.max_batch_requests. `context.flags` is Flipt's selection, a comma-separated list of keys; it
 * bounds the work and the answer a request can ask for, as a batch is bounded.
 */
export function parseOfrepBulkRequest(body: unknown, maxFlags: number): OfrepBulkRequest {
  const raw = contextObject(body);
  const selection = raw !== null && Object.hasOwn(raw, FLAGS) ? raw[FLAGS] : undefined;
  if (selection !== undefined && selection !== null && typeof selection !== 'string') {
    throw new InvalidError(`${BAD}: context.flags must be a string of comma-separated flag keys`);
  }
  const flags = typeof selection === 'string' ? selectedKeys(selection) : null;
  if (flags !== null && flags.length > maxFlags) {
    throw new ValidationError('context.flags', `may name at most ${maxFlags} flags (limits.max_batch_requests)`);
  }
  const context = textContext(raw);
  return { context, entityId: entityOf(context), flags };
}

/** The request's namespace as the route read it (`@RequestNamespace()`, from the headers); null: two headers disagree. */
export function requireNamespace(namespace: string | null): string {
  if (namespace === null) throw new InvalidError('X-Flipt-Namespace and X-Flagpole-Namespace name different namespaces');
  // A longer key names nothing, and would travel on into the cache of unknown namespaces and error messages.
  return maxLength('X-Flipt-Namespace', namespace);
}

function contextObject(body: unknown): Record<string, unknown> | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidError(`${BAD}: the request must be a JSON object`);
  const context = (body as Record<string, unknown>).context;
  if (context === undefined || context === null) return null;
  if (typeof context !== 'object' || Array.isArray(context)) throw new InvalidError(`${BAD}: context must be an object`);
  return context as Record<string, unknown>;
}

/** The context with every value a string, changed in place (the parsed body is the request's own). */
function textContext(context: Record<string, unknown> | null): Record<string, string> {
  if (context === null) return {};
  for (const key of Object.keys(context)) context[key] = contextText(context[key]);
  return context as Record<string, string>;
}

function contextText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return JSON.stringify(value);
}

function entityOf(context: Record<string, string>): string {
  return Object.hasOwn(context, TARGETING_KEY) ? context[TARGETING_KEY] : randomUUID();
}

function selectedKeys(list: string): string[] {
  const keys = new Set<string>();
  for (const part of list.split(',')) {
    const key = part.trim();
    if (key !== '') keys.add(key);
  }
  return [...keys];
}
