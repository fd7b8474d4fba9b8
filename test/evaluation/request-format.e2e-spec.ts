/**
 * How the v2 evaluation routes read requests and stamp responses: requestId echo / generation, timestamp,
 * requestDurationMillis (facts §6.9), protobuf-JSON leniency (facts §1.3: snake_case names, null = absent, null map
 * value = "", unknown fields ignored, any Content-Type), empty namespaceKey = default, and bad input → 400, never 5xx.
 */
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, ok, RFC3339_UTC, UUID_V4 } from './fixtures';

describe('evaluation request handling', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, {
      key: 'default',
      segments: [
        { key: 'plan-pro', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] },
        { key: 'no-nickname', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'nickname', operator: 'empty' }] },
      ],
      flags: [
        { key: 'req-variant', variants: [{ key: 'one' }], rules: [{ segments: ['plan-pro'], distributions: [['one', 100]] }] },
        { key: 'nullable', variants: [{ key: 'anonymous' }], rules: [{ segments: ['no-nickname'], distributions: [['anonymous', 100]] }] },
        { key: 'req-boolean', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      ],
    });
  });
  afterAll(() => fp?.close());

  describe('requestId', () => {
    it.each(['variant', 'boolean'])('%s echoes the requestId it was given', async (kind) => {
      const flagKey = kind === 'variant' ? 'req-variant' : 'req-boolean';
      const r = ok(await api.post(`/evaluate/v1/${kind}`, { requestId: 'my-request-42', flagKey, entityId: 'e' }));
      expect(r.requestId).toBe('my-request-42');
    });

    it.each(['variant', 'boolean'])('%s generates a fresh UUID v4 when requestId is absent or empty', async (kind) => {
      const flagKey = kind === 'variant' ? 'req-variant' : 'req-boolean';
      const a = ok(await api.post(`/evaluate/v1/${kind}`, { flagKey, entityId: 'e' }));
      const b = ok(await api.post(`/evaluate/v1/${kind}`, { flagKey, entityId: 'e', requestId: '' }));
      expect(a.requestId).toMatch(UUID_V4);
      expect(b.requestId).toMatch(UUID_V4);
      expect(a.requestId).not.toBe(b.requestId);
    });
  });

  describe('timestamp and requestDurationMillis', () => {
    it.each(['variant', 'boolean'])('%s: timestamp is RFC 3339 UTC at the time of the call; duration is a small number', async (kind) => {
      const flagKey = kind === 'variant' ? 'req-variant' : 'req-boolean';
      const before = Date.now();
      const r = ok(await api.post(`/evaluate/v1/${kind}`, { flagKey, entityId: 'e', context: { plan: 'pro' } }));
      const after = Date.now();
      expect(r.timestamp).toMatch(RFC3339_UTC);
      const at = Date.parse(r.timestamp);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(after + 1000);
      expect(typeof r.requestDurationMillis).toBe('number');
      expect(Number.isFinite(r.requestDurationMillis)).toBe(true);
      expect(r.requestDurationMillis).toBeGreaterThanOrEqual(0);
      expect(r.requestDurationMillis).toBeLessThan(after - before + 1);
    });
  });

  describe('field spellings and null', () => {
    it('accepts the proto (snake_case) field names', async () => {
      const r = ok(
        await api.post('/evaluate/v1/variant', {
          request_id: 'snake', namespace_key: 'default', flag_key: 'req-variant', entity_id: 'e', context: { plan: 'pro' },
        }),
      );
      expect(r).toMatchObject({ requestId: 'snake', flagKey: 'req-variant', match: true, variantKey: 'one' });
    });

    it('the JSON name wins when both spellings are given', async () => {
      const r = ok(await api.post('/evaluate/v1/variant', { flagKey: 'req-variant', flag_key: 'nope', entityId: 'e' }));
      expect(r.flagKey).toBe('req-variant');
    });

    it('a null context value counts as ""', async () => {
      const r = ok(await api.post('/evaluate/v1/variant', { flagKey: 'nullable', entityId: 'e', context: { nickname: null } }));
      expect(r).toMatchObject({ match: true, variantKey: 'anonymous' });
      const named = ok(await api.post('/evaluate/v1/variant', { flagKey: 'nullable', entityId: 'e', context: { nickname: 'bob' } }));
      expect(named.match).toBe(false);
      const legacy = ok(await api.post('/api/v1/evaluate', { flagKey: 'nullable', entityId: 'e', context: { nickname: null, plan: 'x' } }));
      expect(legacy.requestContext).toEqual({ nickname: '', plan: 'x' });
    });

    it('null fields count as absent', async () => {
      const r = ok(
        await api.post('/evaluate/v1/variant', { requestId: null, namespaceKey: null, flagKey: 'req-variant', entityId: null, context: null }),
      );
      expect(r).toMatchObject({ flagKey: 'req-variant', match: false, reason: 'UNKNOWN_EVALUATION_REASON' });
      expect(r.requestId).toMatch(UUID_V4);
    });

    it('unknown fields are ignored, `reference` included', async () => {
      const r = ok(await api.post('/evaluate/v1/variant', { flagKey: 'req-variant', entityId: 'e', reference: 'main', whatever: { a: 1 } }));
      expect(r.flagKey).toBe('req-variant');
    });
  });

  describe('namespaceKey', () => {
    it.each([[''], [undefined], ['default']])('namespaceKey %j evaluates in `default`', async (namespaceKey) => {
      const r = ok(await api.post('/evaluate/v1/variant', { namespaceKey, flagKey: 'req-variant', entityId: 'e', context: { plan: 'pro' } }));
      expect(r).toMatchObject({ match: true, variantKey: 'one' });
      const b = ok(await api.post('/evaluate/v1/boolean', { namespaceKey, flagKey: 'req-boolean', entityId: 'e' }));
      expect(b.enabled).toBe(true);
    });

    it('the not-found text names `default` for an empty namespaceKey', async () => {
      const res = await api.post('/evaluate/v1/variant', { namespaceKey: '', flagKey: 'nope', entityId: 'e' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('flag "default/nope" not found');
    });
  });

  describe('content types', () => {
    it.each(['text/plain;charset=UTF-8', 'application/json; charset=utf-8', 'application/octet-stream'])(
      'reads a JSON body sent as %s',
      async (contentType) => {
        const body = JSON.stringify({ flagKey: 'req-variant', entityId: 'e', context: { plan: 'pro' } });
        const r = await http(fp.url, 'POST', '/evaluate/v1/variant', body, { 'content-type': contentType });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ match: true, variantKey: 'one' });
        const b = await http(fp.url, 'POST', '/evaluate/v1/boolean', JSON.stringify({ flagKey: 'req-boolean', entityId: 'e' }), {
          'content-type': contentType,
        });
        expect(b.status).toBe(200);
      },
    );

    it('an empty body is {}: empty flagKey → 404 `flag "default/" not found`', async () => {
      const r = await http(fp.url, 'POST', '/evaluate/v1/variant', '', { 'content-type': 'application/json' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 5, message: 'flag "default/" not found', details: [] });
    });
  });

  describe('bad input → 400 (code 3), never 5xx', () => {
    const invalidValues = /^invalid values for key\(s\) in json body/;

    it.each([
      [{ n: 5 }],
      [{ flag: true }],
      [{ obj: { a: 'b' } }],
      [{ list: ['a'] }],
    ])('a context value that is not a string: %j', async (context) => {
      for (const kind of ['variant', 'boolean']) {
        const res = await api.post(`/evaluate/v1/${kind}`, { flagKey: kind === 'variant' ? 'req-variant' : 'req-boolean', entityId: 'e', context });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(3);
        expect(res.body.message).toMatch(invalidValues);
      }
    });

    it('a context that is not an object', async () => {
      for (const context of [['a'], 'plan=pro', 7]) {
        const res = await api.post('/evaluate/v1/variant', { flagKey: 'req-variant', entityId: 'e', context });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(invalidValues);
      }
    });

    it('a flagKey or entityId that is not a string', async () => {
      for (const body of [{ flagKey: 5, entityId: 'e' }, { flagKey: 'req-variant', entityId: 42 }, { flagKey: ['x'] }]) {
        const res = await api.post('/evaluate/v1/variant', body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 3, details: [] });
        expect(res.body.message).toMatch(invalidValues);
      }
    });

    it('a body that is not an object', async () => {
      for (const body of ['[1,2]', '"text"', '12']) {
        const res = await http(fp.url, 'POST', '/evaluate/v1/variant', body, { 'content-type': 'application/json' });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(3);
      }
    });

    it('malformed JSON', async () => {
      const res = await http(fp.url, 'POST', '/evaluate/v1/variant', '{"flagKey": "req-variant",', { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 3, details: [] });
      expect(typeof res.body.message).toBe('string');
    });
  });
});
