/**
 * Flipt's gateway reads every request body as JSON whatever its Content-Type (its own SDK sends `text/plain`).
 * An empty body is `{}`; malformed JSON is a 400 naming the problem. Bodies are bounded in size (413: the evaluation
 * routes by `limits.max_evaluation_body_bytes`, text-body routes by `limits.max_import_bytes`, the others by
 * `limits.max_body_bytes`), in nesting (`limits.max_json_depth`, 400: every later step that walks a parsed body —
 * validation, class-transformer, JSON.stringify — recurses, and thousands of levels overflow the stack), and while
 * they arrive, in memory across all requests and in rate (body-reader.ts).
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { BodyReader, type BodyLimit, type BodyReaderLimits } from './body-reader';
import { MalformedBodyError } from './errors';
import { addRouteConfig, type RouteConfig } from './route-config';

export interface JsonBodyLimits extends BodyReaderLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** The body limit of routes that take their body as text (`@TextBody()`). */
  maxImportBytes: number;
  /** The body limit of the evaluation routes (`@EvaluationBody()`). */
  maxEvaluationBodyBytes: number;
}

const TEXT_BODY = 'flagpole:text-body';
const EVALUATION_BODY = 'flagpole:evaluation-body';
/** The route's `BodyRoute`, settled as the route is registered. */
const BODY_ROUTE = Symbol('flagpole:body-route');

interface BodyRoute extends BodyLimit {
  /** The body is handed over as text, unparsed. */
  text: boolean;
}

/**
 * A route that reads its body as text itself (a YAML or JSON document to import): it gets the body unparsed, as a
 * string, bounded by `limits.max_import_bytes` instead of `limits.max_body_bytes`.
 */
export function TextBody(): MethodDecorator {
  return (_target, _key, descriptor) => addRouteConfig(descriptor.value as Function, { [TEXT_BODY]: true });
}

/**
 * A route that takes an evaluation request: small, and sent by every client of every service, so its body is bounded
 * by the smaller `limits.max_evaluation_body_bytes`.
 */
export function EvaluationBody(): MethodDecorator {
  return (_target, _key, descriptor) => addRouteConfig(descriptor.value as Function, { [EVALUATION_BODY]: true });
}

/** For Fastify's `onRoute` hook: the route's body limit and form, read by the parser from the route's config. */
export function bodyOnRoute(route: RouteOptions, limits: JsonBodyLimits): void {
  const config = (route.config ?? {}) as RouteConfig;
  const body: BodyRoute = config[TEXT_BODY]
    ? { limit: limits.maxImportBytes, key: 'limits.max_import_bytes', text: true }
    : config[EVALUATION_BODY]
      ? { limit: limits.maxEvaluationBodyBytes, key: 'limits.max_evaluation_body_bytes', text: false }
      : { limit: limits.maxBodyBytes, key: 'limits.max_body_bytes', text: false };
  route.config = { ...config, [BODY_ROUTE]: body };
}

export function registerJsonBodyParser(fastify: FastifyInstance, limits: JsonBodyLimits): void {
  fastify.removeAllContentTypeParsers();
  const reader = new BodyReader<BodyRoute>(limits, (route, text, done) => (route.text ? done(null, text) : parseJsonBody(text, limits.maxJsonDepth, done)));
  fastify.addHook('onClose', (_instance, done) => {
    reader.close();
    done();
  });
  // Requests that match no route still have their bodies read (and refused like any other's).
  const unrouted: BodyRoute = { limit: limits.maxBodyBytes, key: 'limits.max_body_bytes', text: false };
  fastify.addContentTypeParser('*', (req: FastifyRequest, payload: IncomingMessage, done) => {
    const route = ((req.routeOptions.config as unknown as RouteConfig | undefined)?.[BODY_ROUTE] as BodyRoute | undefined) ?? unrouted;
    reader.read(req, payload, route, done);
  });
}

function parseJsonBody(text: string, maxDepth: number, done: (err: Error | null, body?: unknown) => void): void {
  if (text.trim() === '') return done(null, {});
  if (jsonDepthExceeds(text, maxDepth)) {
    return done(new MalformedBodyError(`invalid JSON in request body: nested deeper than ${maxDepth} levels (limits.max_json_depth)`));
  }
  try {
    done(null, JSON.parse(text));
  } catch (e) {
    done(new MalformedBodyError(`invalid JSON in request body: ${(e as Error).message}`));
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when arrays and objects in `text` nest deeper than `max`. One pass, no recursion, no allocation; it counts
 * brackets outside string literals and does not validate (JSON.parse does that next), so malformed text only has
 * to be measured the same way valid text would be. Most bodies (an evaluation request has two or three brackets)
 * hold too few opening brackets to nest deeper than `max` at all, which `indexOf` (native, far quicker than the
 * character loop) finds out first: measured, the loop was 4% of an evaluation's CPU.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  if (!opensMoreThan(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** True when `text` holds more than `max` opening brackets (`[` or `{`, inside strings or not): an upper bound on depth. */
function opensMoreThan(text: string, max: number): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > max) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > max) return true;
  return false;
}
