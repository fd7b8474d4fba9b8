/**
 * What OFREP answers, made from Flagpole's evaluation outcomes and errors: pure functions, tested beside.
 *
 * Flags map as Flipt v1 maps them (facts §12.2): a boolean flag's value is the boolean, its variant "true"/"false",
 * its metadata empty; a variant flag's value and variant are the variant key ("" when none applies), its metadata
 * `segments` (the matched segment keys, comma-joined) and `attachment` (the variant's attachment, JSON text), each only
 * when not empty. Every answer carries a value, as Flipt's: the OFREP server provider on npm reads an answer without
 * one as malformed.
 *
 * Errors carry OFREP's body `{key, errorCode, errorDetails}` (the key only where the route has one), with the status
 * Flagpole gives the error anywhere else; 401 and 403 have no body.
 */
import { MalformedBodyError, type DomainError } from '../common/errors';
import type { ErrorReport } from '../common/error.filter';
import { httpStatusOf } from '../common/grpc-status';
import type { CacheConfig } from '../config/config.types';
import type { FlagOutcome } from '../evaluation/evaluation.service';
import { digest, namespaceTag } from '../evaluation/namespace-tag';
import type { Reason } from '../wire';
import { STREAM_TICKET_PARAM } from '../auth/stream-ticket.route';

/** OFREP's reasons, for the core's. DEFAULT is not in OFREP's list; Flipt answers it, and so does Flagpole. */
export const OFREP_REASONS = Object.freeze({
  UNKNOWN: 'UNKNOWN',
  FLAG_DISABLED: 'DISABLED',
  MATCH: 'TARGETING_MATCH',
  DEFAULT: 'DEFAULT',
} as const satisfies Record<Reason, string>);

export type OfrepReason = (typeof OFREP_REASONS)[Reason];

export const OFREP_ERROR_CODES = ['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'GENERAL', 'FLAG_NOT_FOUND'] as const;
export type OfrepErrorCode = (typeof OFREP_ERROR_CODES)[number];

export interface OfrepFlag {
  key: string;
  reason: OfrepReason;
  variant: string;
  metadata: Record<string, string>;
  value: boolean | string;
}

export interface OfrepFailure {
  key: string;
  errorCode: OfrepErrorCode;
  errorDetails: string;
}

export interface OfrepBulk {
  flags: Array<OfrepFlag | OfrepFailure>;
  eventStreams?: OfrepEventStream[];
}

/** Where a bulk answer's client hears of changes (OFREP ADR-0008): an SSE stream on the origin it called. */
export interface OfrepEventStream {
  type: 'sse';
  endpoint: { requestUri: string };
  inactivityDelaySec: number;
}

/**
 * The event stream of a namespace; `prefix` is the path a proxy serves Flagpole under ('' when none); `ticket` the
 * stream ticket the URL carries for a caller whose EventSource cannot send its credential (docs/api.md "Stream
 * tickets").
 */
export function eventStreamOf(namespace: string, prefix: string, inactivityDelaySec: number, ticket?: string): OfrepEventStream {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const query = ticket === undefined ? '' : `?${STREAM_TICKET_PARAM}=${encodeURIComponent(ticket)}`;
  return { type: 'sse', endpoint: { requestUri: `${base}${ofrepStreamPath(namespace)}${query}` }, inactivityDelaySec };
}

export function ofrepStreamPath(namespace: string): string {
  return `/ofrep/v1/_stream/${encodeURIComponent(namespace)}/events`;
}

/** An error answer: no body for 401 and 403. */
export interface OfrepErrorAnswer {
  status: number;
  body?: { key?: string; errorCode: OfrepErrorCode; errorDetails: string };
}

export function flagAnswer(result: FlagOutcome): OfrepFlag {
  if (result.type === 'BOOLEAN') {
    const o = result.outcome;
    return { key: o.flagKey, reason: OFREP_REASONS[o.reason], variant: String(o.enabled), metadata: {}, value: o.enabled };
  }
  const o = result.outcome;
  const metadata: Record<string, string> = {};
  if (o.segmentKeys.length > 0) metadata.segments = o.segmentKeys.join(',');
  if (o.variantAttachment !== '') metadata.attachment = o.variantAttachment;
  return { key: o.flagKey, reason: OFREP_REASONS[o.reason], variant: o.variantKey, metadata, value: o.variantKey };
}

/** A flag of a bulk answer that could not be evaluated: in the list, as OFREP v0.3.0 has it (Flipt fails the request). */
export function failureItem(key: string, error: DomainError): OfrepFailure {
  const status = httpStatusOf(error.code);
  return { key, errorCode: errorCodeOf(status, error), errorDetails: errorDetails(status, error.message, key) };
}

/** The answer for an error on an OFREP route; `key` is the flag of the single evaluation route. */
export function errorAnswer(error: ErrorReport, key?: string): OfrepErrorAnswer {
  const { status } = error;
  if (status === 401 || status === 403) return { status };
  const errorCode = errorCodeOf(status, error.exception);
  const details = errorDetails(status, error.message, key);
  return { status, body: key === undefined ? { errorCode, errorDetails: details } : { key, errorCode, errorDetails: details } };
}

/** By status, as Flipt maps gRPC codes: 400 INVALID_CONTEXT (PARSE_ERROR for a body that is not JSON), 404 FLAG_NOT_FOUND. */
function errorCodeOf(status: number, exception: unknown): OfrepErrorCode {
  if (status === 400) return exception instanceof MalformedBodyError ? 'PARSE_ERROR' : 'INVALID_CONTEXT';
  if (status === 404) return 'FLAG_NOT_FOUND';
  return 'GENERAL';
}

/** Flipt's text for a flag not found; other errors keep Flagpole's message. */
function errorDetails(status: number, message: string, key: string | undefined): string {
  return status === 404 && key !== undefined ? `flag was not found ${key}` : message;
}

/**
 * The bulk answer's ETag: the namespace's tag, then the tag of the context the flags were evaluated for (the same
 * context in any key order gives the same tag; `context.flags`, the selection, is part of it). Either changing makes
 * a new ETag. Without `targetingKey` the entity is random per request, so such answers can differ under one ETag:
 * the ETag then says "nothing the answer depends on has changed".
 */
export function bulkEtag(namespace: string, version: string, context: Record<string, string>, ticket?: string): string {
  const entries = Object.keys(context).sort().map((key) => [key, context[key]]);
  const tag = `${namespaceTag(namespace, version)}.${digest(JSON.stringify(entries))}`;
  // An answer carrying a stream ticket changes with it: a client revalidating after its ticket's period gets the
  // fresh one (a 304 would leave it reconnecting with the old, soon refused, URL).
  return ticket === undefined ? `"${tag}"` : `"${tag}.${digest(ticket)}"`;
}

/** RFC 9110 If-None-Match: a list of tags, weak ones compared weakly, `*` matching any. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/** Flipt's `uint32` field. */
const MAX_POLLING_INTERVAL_MS = 0xffffffff;

/**
 * `GET /ofrep/v1/configuration`, as Flipt serves it (gone from OFREP since 2025): polling advertised with the cache,
 * at most as often as its TTL; string and boolean flags. Flagpole names itself.
 */
export function configurationAnswer(cache: Pick<CacheConfig, 'enabled' | 'ttl'>) {
  return {
    name: 'flagpole',
    capabilities: {
      cacheInvalidation: {
        polling: { enabled: cache.enabled, minPollingIntervalMs: cache.enabled ? Math.min(cache.ttl, MAX_POLLING_INTERVAL_MS) : 0 },
      },
      flagEvaluation: { supportedTypes: ['string', 'boolean'] },
    },
  };
}
