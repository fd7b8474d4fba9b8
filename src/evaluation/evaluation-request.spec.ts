import {
  parseBatchEvaluationRequest, parseEvaluationRequest, parseLegacyBatchEvaluationRequest, parseLegacyEvaluationRequest,
} from './evaluation-request';
import type { EvaluationRequest, LegacyBatchEvaluationRequest } from './evaluation.schemas';

const BAD = 'invalid values for key(s) in json body';

describe('evaluation request parsing', () => {
  it('reads both protobuf spellings, camelCase first, null as absent, absent as the zero value', () => {
    expect(parseEvaluationRequest({ flag_key: 'f', flagKey: 'g', entity_id: 'e', namespaceKey: null, context: { a: null, b: 'x' } })).toEqual({
      requestId: '', namespaceKey: '', flagKey: 'g', entityId: 'e', context: { a: '', b: 'x' },
    });
    expect(parseEvaluationRequest(undefined)).toEqual({ requestId: '', namespaceKey: '', flagKey: '', entityId: '', context: {} });
  });

  it('returns the types derived from the schemas: every read field present, documented-only ones absent', () => {
    const request: Required<EvaluationRequest> = parseEvaluationRequest({ reference: 'main' });
    // @ts-expect-error `reference` is documented, not read
    expect(request.reference).toBeUndefined();
    const batch: LegacyBatchEvaluationRequest = parseLegacyBatchEvaluationRequest({}, 1);
    expect(typeof batch.excludeNotFound).toBe('boolean');
  });

  it('ignores unknown and documented-only fields', () => {
    expect(parseEvaluationRequest({ flagKey: 'f', reference: 5, other: {} })).not.toHaveProperty('reference');
  });

  it.each([
    [[], `${BAD}: the request must be a JSON object`],
    [{ flagKey: 1 }, `${BAD}: flagKey must be a string`],
    [{ request_id: true }, `${BAD}: requestId must be a string`],
    [{ context: [] }, `${BAD}: context must be an object with string values`],
    [{ context: { a: 1 } }, `${BAD}: context.a must be a string`],
    [{ flagKey: 'x'.repeat(256) }, 'invalid field flagKey: must be at most 255 characters'],
    [{ namespaceKey: 'a\u0000b' }, 'invalid field namespaceKey: must not contain NUL or unpaired surrogate characters'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => parseEvaluationRequest(body)).toThrow(message);
  });

  it('parses batches: scalars first, the list length before any item', () => {
    expect(parseBatchEvaluationRequest({ request_id: 'r', requests: [{ flagKey: 'f' }] }, 5)).toEqual({
      requestId: 'r', requests: [{ requestId: '', namespaceKey: '', flagKey: 'f', entityId: '', context: {} }],
    });
    expect(() => parseBatchEvaluationRequest({ requests: {} }, 5)).toThrow(`${BAD}: requests must be a list`);
    expect(() => parseBatchEvaluationRequest({ requests: [1, 2] }, 1)).toThrow('a batch may hold at most 1 evaluations (limits.max_batch_requests)');
    expect(() => parseBatchEvaluationRequest({ requests: [1] }, 1)).toThrow(`${BAD}: the requests item must be a JSON object`);
    expect(() => parseLegacyBatchEvaluationRequest({ requests: [1], exclude_not_found: 'yes' }, 5)).toThrow(`${BAD}: excludeNotFound must be a boolean`);
  });

  it('parses the legacy messages', () => {
    expect(parseLegacyEvaluationRequest({ flagKey: 'f', entityId: 'e', namespace_key: 'n' })).toEqual({
      requestId: '', namespaceKey: 'n', flagKey: 'f', entityId: 'e', context: {},
    });
    expect(parseLegacyBatchEvaluationRequest({ excludeNotFound: true }, 5)).toEqual({
      requestId: '', namespaceKey: '', excludeNotFound: true, requests: [],
    });
  });
});
