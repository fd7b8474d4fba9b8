/**
 * POST /evaluate/v1/batch (facts §6.6): dispatch by flag type, per-item namespaces, error items for missing flags
 * (namespaceKey echoed as sent), batch and inner request ids, shared timestamp and duration.
 */
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, batch, buildNamespace, ok, RFC3339_UTC, UUID_V4 } from './fixtures';

describe('batch evaluation', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, {
      key: 'default',
      segments: [{ key: 'everyone' }],
      flags: [
        { key: 'colour', variants: [{ key: 'red', attachment: '{"hex":"#f00"}' }], rules: [{ segments: ['everyone'], distributions: [['red', 100]] }] },
        { key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
        { key: 'off', enabled: false, variants: [{ key: 'x' }] },
      ],
    });
    for (const [ns, v] of [['b-one', 'first'], ['b-two', 'second']]) {
      await buildNamespace(api, {
        key: ns,
        segments: [{ key: 'everyone' }],
        flags: [{ key: 'same-key', variants: [{ key: v }], rules: [{ segments: ['everyone'], distributions: [[v, 100]] }] }],
      });
    }
  });
  afterAll(() => fp?.close());

  it('dispatches each item by its flag type and answers in request order', async () => {
    const res = await batch(api, [
      { flagKey: 'switch', entityId: 'e' },
      { flagKey: 'colour', entityId: 'e' },
      { flagKey: 'off', entityId: 'e' },
    ]);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'responses', 'requestDurationMillis']);
    const [b, v, d] = res.body.responses;
    expect(Object.keys(b)).toEqual(['type', 'booleanResponse']);
    expect(b.type).toBe('BOOLEAN_EVALUATION_RESPONSE_TYPE');
    // Every field, in Flipt's order (the route's compiled serialiser writes what its response schema lists).
    expect(Object.keys(b.booleanResponse)).toEqual(['enabled', 'reason', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey', 'segmentKeys']);
    expect(b.booleanResponse).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'switch', segmentKeys: [] });
    expect(Object.keys(v)).toEqual(['type', 'variantResponse']);
    expect(v.type).toBe('VARIANT_EVALUATION_RESPONSE_TYPE');
    expect(Object.keys(v.variantResponse)).toEqual([
      'match', 'segmentKeys', 'reason', 'variantKey', 'variantAttachment', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey',
    ]);
    expect(v.variantResponse).toMatchObject({
      match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'red', variantAttachment: '{"hex":"#f00"}', segmentKeys: ['everyone'], flagKey: 'colour',
    });
    expect(d.variantResponse).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' });
  });

  it('a missing flag becomes an error item and the batch goes on; namespaceKey is echoed as sent', async () => {
    const res = await batch(api, [
      { flagKey: 'missing', entityId: 'e' },
      { namespaceKey: '', flagKey: 'missing-2', entityId: 'e' },
      { namespaceKey: 'b-one', flagKey: 'missing-3', entityId: 'e' },
      { namespaceKey: 'nowhere', flagKey: 'colour', entityId: 'e' },
      { namespaceKey: 'default', flagKey: 'missing-4' },
      { flagKey: 'colour', entityId: 'e' },
    ]);
    expect(res.status).toBe(200);
    const items = res.body.responses;
    expect(items).toHaveLength(6);
    const errors = items.slice(0, 5);
    for (const e of errors) {
      expect(Object.keys(e)).toEqual(['type', 'errorResponse']);
      expect(e.type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
      expect(Object.keys(e.errorResponse)).toEqual(['flagKey', 'namespaceKey', 'reason']);
    }
    expect(errors.map((e: any) => e.errorResponse)).toEqual([
      { flagKey: 'missing', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      { flagKey: 'missing-2', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      { flagKey: 'missing-3', namespaceKey: 'b-one', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      { flagKey: 'colour', namespaceKey: 'nowhere', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      { flagKey: 'missing-4', namespaceKey: 'default', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
    ]);
    expect(items[5].variantResponse.variantKey).toBe('red');
  });

  it('each item evaluates in its own namespace', async () => {
    const body = ok(
      await batch(api, [
        { namespaceKey: 'b-one', flagKey: 'same-key', entityId: 'e' },
        { namespaceKey: 'b-two', flagKey: 'same-key', entityId: 'e' },
        { flagKey: 'same-key', entityId: 'e' },
      ]),
    );
    expect(body.responses[0].variantResponse.variantKey).toBe('first');
    expect(body.responses[1].variantResponse.variantKey).toBe('second');
    expect(body.responses[2].errorResponse).toEqual({ flagKey: 'same-key', namespaceKey: '', reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
  });

  describe('request ids', () => {
    it('echoes the batch requestId; inner responses carry their own requestId or ""', async () => {
      const body = ok(
        await batch(api, [{ flagKey: 'colour', entityId: 'e', requestId: 'inner-1' }, { flagKey: 'switch', entityId: 'e' }], { requestId: 'outer' }),
      );
      expect(body.requestId).toBe('outer');
      expect(body.responses[0].variantResponse.requestId).toBe('inner-1');
      expect(body.responses[1].booleanResponse.requestId).toBe('');
    });

    it('accepts the snake_case `request_id` that @flipt-io/flipt sends', async () => {
      const body = ok(await batch(api, [{ flagKey: 'colour', entityId: 'e' }], { request_id: 'snake-batch' }));
      expect(body.requestId).toBe('snake-batch');
    });

    it('generates a UUID v4 batch requestId when absent, without touching the inner ones', async () => {
      const body = ok(await batch(api, [{ flagKey: 'colour', entityId: 'e' }]));
      expect(body.requestId).toMatch(UUID_V4);
      expect(body.responses[0].variantResponse.requestId).toBe('');
    });
  });

  it('inner responses share the batch end timestamp and the batch duration; error items have neither', async () => {
    const before = Date.now();
    const body = ok(
      await batch(api, [
        { flagKey: 'colour', entityId: 'e' },
        { flagKey: 'missing', entityId: 'e' },
        { flagKey: 'switch', entityId: 'e' },
      ]),
    );
    const after = Date.now();
    expect(typeof body.requestDurationMillis).toBe('number');
    expect(body.requestDurationMillis).toBeGreaterThanOrEqual(0);
    const v = body.responses[0].variantResponse;
    const b = body.responses[2].booleanResponse;
    expect(v.timestamp).toMatch(RFC3339_UTC);
    expect(b.timestamp).toBe(v.timestamp);
    expect(Date.parse(v.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(v.timestamp)).toBeLessThanOrEqual(after + 1000);
    expect(v.requestDurationMillis).toBe(b.requestDurationMillis);
    expect(v.requestDurationMillis).toBe(body.requestDurationMillis);
    expect(body.responses[1].errorResponse).not.toHaveProperty('timestamp');
    expect(body.responses[1].errorResponse).not.toHaveProperty('requestDurationMillis');
  });

  it('an empty or absent request list → no responses', async () => {
    expect(ok(await batch(api, [])).responses).toEqual([]);
    const body = ok(await api.post('/evaluate/v1/batch', {}));
    expect(body.responses).toEqual([]);
    expect(body.requestId).toMatch(UUID_V4);
  });

  it('reads a text/plain body (as @flipt-io/flipt sends it)', async () => {
    const text = JSON.stringify({ request_id: 'tp', requests: [{ namespaceKey: 'default', flagKey: 'colour', entityId: 'e', context: {} }] });
    const res = await http(fp.url, 'POST', '/evaluate/v1/batch', text, { 'content-type': 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(200);
    expect(res.body.requestId).toBe('tp');
    expect(res.body.responses[0].variantResponse.variantKey).toBe('red');
  });

  it('a malformed item fails the whole batch with 400', async () => {
    const res = await batch(api, [{ flagKey: 'colour', entityId: 'e' }, { flagKey: 'switch', entityId: 'e', context: { n: 5 } as any }]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(3);
    const notList = await api.post('/evaluate/v1/batch', { requests: { flagKey: 'colour' } });
    expect(notList.status).toBe(400);
  });
});
