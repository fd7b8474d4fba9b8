import { InvalidError, MalformedBodyError, NotFoundError, UnavailableError } from '../common/errors';
import { GrpcCode } from '../common/grpc-status';
import { namespaceTag } from '../evaluation/namespace-tag';
import { bulkEtag, configurationAnswer, errorAnswer, etagMatches, eventStreamOf, failureItem, flagAnswer } from './ofrep-answer';

const variant = (o: Partial<{ match: boolean; reason: 'MATCH' | 'DEFAULT' | 'UNKNOWN' | 'FLAG_DISABLED'; variantKey: string; variantAttachment: string; segmentKeys: string[] }>) =>
  flagAnswer({
    type: 'VARIANT',
    outcome: { match: false, reason: 'UNKNOWN', variantKey: '', variantAttachment: '', segmentKeys: [], flagKey: 'colour', ...o },
  });

describe('flagAnswer', () => {
  it('boolean flags: the boolean as value, "true"/"false" as variant, no metadata', () => {
    expect(flagAnswer({ type: 'BOOLEAN', outcome: { enabled: true, reason: 'MATCH', segmentKeys: ['s'], flagKey: 'b' } })).toEqual({
      key: 'b', reason: 'TARGETING_MATCH', variant: 'true', metadata: {}, value: true,
    });
    expect(flagAnswer({ type: 'BOOLEAN', outcome: { enabled: false, reason: 'DEFAULT', segmentKeys: [], flagKey: 'b' } })).toEqual({
      key: 'b', reason: 'DEFAULT', variant: 'false', metadata: {}, value: false,
    });
  });

  it('variant flags: the variant key as value and variant; segments and attachment in metadata when not empty', () => {
    expect(variant({ match: true, reason: 'MATCH', variantKey: 'blue', variantAttachment: '{"hex":"#00f"}', segmentKeys: ['a', 'b'] })).toEqual({
      key: 'colour', reason: 'TARGETING_MATCH', variant: 'blue', metadata: { segments: 'a,b', attachment: '{"hex":"#00f"}' }, value: 'blue',
    });
    expect(variant({ match: true, reason: 'MATCH', variantKey: 'blue' })).toEqual({
      key: 'colour', reason: 'TARGETING_MATCH', variant: 'blue', metadata: {}, value: 'blue',
    });
  });

  it.each([
    ['UNKNOWN', 'UNKNOWN'],
    ['FLAG_DISABLED', 'DISABLED'],
    ['DEFAULT', 'DEFAULT'],
    ['MATCH', 'TARGETING_MATCH'],
  ] as const)('reason %s → %s, with a value even when no variant applies', (reason, ofrep) => {
    expect(variant({ reason })).toMatchObject({ reason: ofrep, variant: '', value: '' });
  });
});

describe('errors', () => {
  const report = (e: Error & { code: GrpcCode }, status: number) => ({ code: e.code, message: e.message, status, exception: e });

  it('single route: {key, errorCode, errorDetails} by status, Flipt\'s text for a missing flag', () => {
    expect(errorAnswer(report(new NotFoundError('flag "default/x"'), 404), 'x')).toEqual({
      status: 404, body: { key: 'x', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found x' },
    });
    expect(errorAnswer(report(new InvalidError('context must be an object'), 400), 'x')).toEqual({
      status: 400, body: { key: 'x', errorCode: 'INVALID_CONTEXT', errorDetails: 'context must be an object' },
    });
    expect(errorAnswer(report(new MalformedBodyError('invalid JSON in request body: Unexpected end'), 400), 'x')).toEqual({
      status: 400, body: { key: 'x', errorCode: 'PARSE_ERROR', errorDetails: 'invalid JSON in request body: Unexpected end' },
    });
    expect(errorAnswer(report(new UnavailableError('database is unavailable; try again later'), 503), 'x')).toEqual({
      status: 503, body: { key: 'x', errorCode: 'GENERAL', errorDetails: 'database is unavailable; try again later' },
    });
  });

  it('bulk and configuration routes (no key): {errorCode, errorDetails}', () => {
    expect(errorAnswer({ code: GrpcCode.Internal, message: 'internal error', status: 500 })).toEqual({
      status: 500, body: { errorCode: 'GENERAL', errorDetails: 'internal error' },
    });
    expect(errorAnswer({ code: GrpcCode.InvalidArgument, message: 'request body is too large', status: 413 })).toEqual({
      status: 413, body: { errorCode: 'GENERAL', errorDetails: 'request body is too large' },
    });
  });

  it('401 and 403 have no body', () => {
    expect(errorAnswer({ code: GrpcCode.Unauthenticated, message: 'request was not authenticated', status: 401 }, 'x')).toEqual({ status: 401 });
    expect(errorAnswer({ code: GrpcCode.PermissionDenied, message: 'permission denied', status: 403 })).toEqual({ status: 403 });
  });

  it('bulk failure items', () => {
    expect(failureItem('nope', new NotFoundError('flag "default/nope"'))).toEqual({ key: 'nope', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found nope' });
    expect(failureItem('bad', new InvalidError('unknown constraint type'))).toEqual({ key: 'bad', errorCode: 'INVALID_CONTEXT', errorDetails: 'unknown constraint type' });
  });
});

describe('ETags', () => {
  const tag = bulkEtag('default', '1700000000000', { targetingKey: 'u', plan: 'pro' });

  it('is a strong, quoted tag made of the namespace tag and the context tag', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}"$/);
    expect(tag.startsWith(`"${namespaceTag('default', '1700000000000')}.`)).toBe(true);
  });

  it('changes with the namespace, its version and the context, not with the order of the context keys', () => {
    expect(bulkEtag('default', '1700000000000', { plan: 'pro', targetingKey: 'u' })).toBe(tag);
    expect(new Set([
      tag,
      bulkEtag('prod', '1700000000000', { targetingKey: 'u', plan: 'pro' }),
      bulkEtag('default', '1700000000001', { targetingKey: 'u', plan: 'pro' }),
      bulkEtag('default', '1700000000000', { targetingKey: 'v', plan: 'pro' }),
      bulkEtag('default', '1700000000000', { targetingKey: 'u', plan: 'pro', flags: 'a' }),
      bulkEtag('default', '1700000000000', { targetingKey: 'u', plan: 'free' }),
      bulkEtag('default', '', { targetingKey: 'u', plan: 'pro' }),
    ]).size).toBe(7);
  });

  it('of an answer with a stream ticket, changes with the ticket (a client revalidating gets the fresh one)', () => {
    const withTicket = (ticket: string) => bulkEtag('default', '1700000000000', { targetingKey: 'u', plan: 'pro' }, ticket);
    expect(withTicket('a.b')).toMatch(/^"[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}"$/);
    expect(withTicket('a.b').startsWith(tag.slice(0, -1))).toBe(true);
    expect(withTicket('a.b')).toBe(withTicket('a.b'));
    expect(withTicket('a.c')).not.toBe(withTicket('a.b'));
  });

  it.each([
    [undefined, false],
    ['', false],
    ['"other"', false],
    [tag, true],
    [`W/${tag}`, true],
    [`"a", ${tag}`, true],
    ['*', true],
    [tag.slice(1, -1), false],
  ])('If-None-Match %j → %s', (header, matches) => {
    expect(etagMatches(header, tag)).toBe(matches);
  });
});

describe('eventStreamOf', () => {
  it('names the stream under the proxy prefix, with the ticket in its query when there is one', () => {
    expect(eventStreamOf('a b', '/flags/', 120).endpoint.requestUri).toBe('/flags/ofrep/v1/_stream/a%20b/events');
    expect(eventStreamOf('prod', '', 60, 'x.y_-').endpoint.requestUri).toBe('/ofrep/v1/_stream/prod/events?ticket=x.y_-');
  });
});

describe('configurationAnswer', () => {
  it('as Flipt: polling with the cache, at its TTL; string and boolean flags', () => {
    expect(configurationAnswer({ enabled: true, ttl: 60_000 })).toEqual({
      name: 'flagpole',
      capabilities: { cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 60_000 } }, flagEvaluation: { supportedTypes: ['string', 'boolean'] } },
    });
    expect(configurationAnswer({ enabled: false, ttl: 60_000 }).capabilities.cacheInvalidation.polling).toEqual({ enabled: false, minPollingIntervalMs: 0 });
  });
});
