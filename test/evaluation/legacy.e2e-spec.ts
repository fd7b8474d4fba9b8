/**
 * The deprecated v1 evaluation routes (facts §2.1, §6.1, §6.7, §4.2): POST /api/v1/evaluate,
 * /api/v1/namespaces/{ns}/evaluate, /api/v1/batch-evaluate and /api/v1/namespaces/{ns}/batch-evaluate.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, ok, RFC3339_UTC, sorted, UUID_V4, variant } from './fixtures';

const NS = 'legacy';
const str = (property: string, value: string) => ({ type: 'STRING_COMPARISON_TYPE' as const, property, operator: 'eq', value });

describe('legacy evaluation', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    const spec = (key: string) => ({
      key,
      segments: [{ key: 'plan-pro', constraints: [str('plan', 'pro')] }, { key: 'region-eu', constraints: [str('region', 'eu')] }, { key: 'everyone' }],
      flags: [
        {
          key: 'checkout',
          variants: [{ key: 'new', attachment: '{"v": 2}' }, { key: 'old' }],
          rules: [
            { segments: ['plan-pro', 'region-eu'], operator: 'AND_SEGMENT_OPERATOR' as const, distributions: [['new', 100]] as Array<[string, number]> },
            { segments: ['plan-pro'], distributions: [['old', 100]] as Array<[string, number]> },
          ],
        },
        {
          key: 'split',
          variants: [{ key: 'a' }, { key: 'b' }],
          rules: [{ segments: ['everyone'], distributions: [['a', 50], ['b', 50]] as Array<[string, number]> }],
        },
        { key: 'off', enabled: false, variants: [{ key: 'x' }], defaultVariant: 'x' },
        { key: 'defaulted', variants: [{ key: 'x', attachment: '"s"' }], defaultVariant: 'x' },
        { key: 'bool', type: 'BOOLEAN_FLAG_TYPE' as const, enabled: true },
      ],
    });
    await buildNamespace(api, spec(NS));
    await buildNamespace(api, spec('default'));
  });
  afterAll(() => fp?.close());

  describe('POST /api/v1/evaluate', () => {
    it('answers a full legacy EvaluationResponse, in proto order', async () => {
      const res = await api.post('/api/v1/evaluate', {
        requestId: 'r-1', namespaceKey: NS, flagKey: 'checkout', entityId: 'user-1', context: { plan: 'pro', region: 'eu' },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'requestId', 'entityId', 'requestContext', 'match', 'flagKey', 'segmentKey', 'timestamp', 'value',
        'requestDurationMillis', 'attachment', 'reason', 'namespaceKey', 'segmentKeys',
      ]);
      const r = res.body;
      expect(r).toMatchObject({
        requestId: 'r-1',
        entityId: 'user-1',
        requestContext: { plan: 'pro', region: 'eu' },
        match: true,
        flagKey: 'checkout',
        value: 'new',
        attachment: '{"v":2}',
        reason: 'MATCH_EVALUATION_REASON',
        namespaceKey: NS,
      });
      expect(sorted(r.segmentKeys)).toEqual(['plan-pro', 'region-eu']);
      expect(r.segmentKeys).toContain(r.segmentKey);
      expect(r.timestamp).toMatch(RFC3339_UTC);
      expect(typeof r.requestDurationMillis).toBe('number');
    });

    it('segmentKey is the matched segment of a one-segment rule', async () => {
      const r = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }));
      expect(r).toMatchObject({ match: true, value: 'old', segmentKey: 'plan-pro', segmentKeys: ['plan-pro'] });
    });

    it('no match → UNKNOWN, empty value and segment', async () => {
      const r = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'checkout', entityId: 'u', context: {} }));
      expect(r).toMatchObject({ match: false, value: '', segmentKey: '', segmentKeys: [], reason: 'UNKNOWN_EVALUATION_REASON', requestContext: {} });
    });

    it('disabled flag → FLAG_DISABLED keeping the default variant; default variant → DEFAULT', async () => {
      const off = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'off', entityId: 'u' }));
      expect(off).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', value: 'x' });
      const def = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'defaulted', entityId: 'u' }));
      expect(def).toMatchObject({ match: false, reason: 'DEFAULT_EVALUATION_REASON', value: 'x', attachment: '"s"' });
    });

    it('gives the same variant as /evaluate/v1/variant for the same entity', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 150; i++) {
        const entityId = `user-${i}`;
        const legacy = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'split', entityId }));
        const v2 = ok(await variant(api, { namespaceKey: NS, flagKey: 'split', entityId }));
        expect({ entityId, value: legacy.value, match: legacy.match }).toEqual({ entityId, value: v2.variantKey, match: v2.match });
        seen.add(legacy.value);
      }
      expect(seen.size).toBe(2);
    });

    it('the namespaced route takes the namespace from the path', async () => {
      const r = ok(
        await api.post(`/api/v1/namespaces/${NS}/evaluate`, { namespaceKey: 'ignored', flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }),
      );
      expect(r).toMatchObject({ namespaceKey: NS, value: 'old' });
      const missing = await api.post(`/api/v1/namespaces/${NS}/evaluate`, { flagKey: 'nope', entityId: 'u' });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(`flag "${NS}/nope" not found`);
    });

    it('without namespaceKey the default namespace is used (and namespaceKey echoes the request: "")', async () => {
      const r = ok(await api.post('/api/v1/evaluate', { flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }));
      expect(r).toMatchObject({ match: true, value: 'old', namespaceKey: '' });
      const missing = await api.post('/api/v1/evaluate', { flagKey: 'nope', entityId: 'u' });
      expect(missing.body.message).toBe('flag "default/nope" not found');
    });

    it('generates a UUID v4 requestId when absent', async () => {
      const r = ok(await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'checkout', entityId: 'u' }));
      expect(r.requestId).toMatch(UUID_V4);
    });

    it.each([
      [{ entityId: 'u' }, 'invalid field flagKey: must not be empty'],
      [{ flagKey: '', entityId: '' }, 'invalid field flagKey: must not be empty'],
      [{ flagKey: 'checkout' }, 'invalid field entityId: must not be empty'],
      [{ flagKey: 'checkout', entityId: '' }, 'invalid field entityId: must not be empty'],
    ])('validates %j → 400 %s', async (body, message) => {
      for (const path of ['/api/v1/evaluate', `/api/v1/namespaces/${NS}/evaluate`]) {
        const res = await api.post(path, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 3, message, details: [] });
      }
    });

    it('missing flag → 404; boolean flag → 400', async () => {
      const missing = await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'nope', entityId: 'u' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 5, message: `flag "${NS}/nope" not found`, details: [] });
      const bool = await api.post('/api/v1/evaluate', { namespaceKey: NS, flagKey: 'bool', entityId: 'u' });
      expect(bool.status).toBe(400);
      expect(bool.body.message).toBe('flag type BOOLEAN_FLAG_TYPE invalid');
    });
  });

  describe('POST /api/v1/batch-evaluate', () => {
    it('evaluates every request in the batch namespace; inner requestId "" and duration 0, batch id and duration set', async () => {
      const before = Date.now();
      const res = await api.post('/api/v1/batch-evaluate', {
        namespaceKey: NS,
        requests: [
          { requestId: 'dropped', flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } },
          { namespaceKey: NS, flagKey: 'split', entityId: 'user-1' },
          { flagKey: 'checkout', entityId: '' },
        ],
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['requestId', 'responses', 'requestDurationMillis']);
      expect(res.body.requestId).toMatch(UUID_V4);
      expect(typeof res.body.requestDurationMillis).toBe('number');
      const [a, b, c] = res.body.responses;
      expect(a).toMatchObject({ requestId: '', flagKey: 'checkout', value: 'old', match: true, namespaceKey: NS, requestDurationMillis: 0 });
      const single = ok(await variant(api, { namespaceKey: NS, flagKey: 'split', entityId: 'user-1' }));
      expect(b).toMatchObject({ requestId: '', value: single.variantKey, namespaceKey: NS });
      // inner requests are not validated: an empty entity id is evaluated
      expect(c).toMatchObject({ entityId: '', match: false, reason: 'UNKNOWN_EVALUATION_REASON' });
      for (const r of [a, b, c]) {
        expect(r.timestamp).toMatch(RFC3339_UTC);
        expect(Date.parse(r.timestamp)).toBeGreaterThanOrEqual(before - 1000);
      }
    });

    it('echoes the batch requestId (camelCase or snake_case)', async () => {
      const camel = ok(await api.post('/api/v1/batch-evaluate', { requestId: 'b-1', namespaceKey: NS, requests: [] }));
      expect(camel).toMatchObject({ requestId: 'b-1', responses: [] });
      const snake = ok(await api.post('/api/v1/batch-evaluate', { request_id: 'b-2', namespaceKey: NS, requests: [] }));
      expect(snake.requestId).toBe('b-2');
    });

    it('an inner namespaceKey different from the batch’s → 400', async () => {
      const res = await api.post('/api/v1/batch-evaluate', {
        namespaceKey: NS,
        requests: [{ flagKey: 'checkout', entityId: 'u' }, { namespaceKey: 'default', flagKey: 'checkout', entityId: 'u' }],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 3, message: 'invalid field namespace_key: must be the same for all requests if specified', details: [] });
      // no batch namespace means `default`, so an inner `legacy` mismatches too
      const implicit = await api.post('/api/v1/batch-evaluate', { requests: [{ namespaceKey: NS, flagKey: 'checkout', entityId: 'u' }] });
      expect(implicit.status).toBe(400);
      expect(implicit.body.message).toBe('invalid field namespace_key: must be the same for all requests if specified');
    });

    it('without namespaceKey the batch runs in default and inner responses say so', async () => {
      const body = ok(await api.post('/api/v1/batch-evaluate', { requests: [{ flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }] }));
      expect(body.responses[0]).toMatchObject({ value: 'old', namespaceKey: 'default' });
    });

    it('the namespaced route takes the namespace from the path', async () => {
      const body = ok(
        await api.post(`/api/v1/namespaces/${NS}/batch-evaluate`, { requests: [{ flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }] }),
      );
      expect(body.responses[0]).toMatchObject({ value: 'old', namespaceKey: NS });
      const mismatch = await api.post(`/api/v1/namespaces/${NS}/batch-evaluate`, { requests: [{ namespaceKey: 'default', flagKey: 'checkout', entityId: 'u' }] });
      expect(mismatch.status).toBe(400);
    });

    it('a missing flag fails the batch with 404 unless excludeNotFound, which skips it', async () => {
      const requests = [{ flagKey: 'nope', entityId: 'u' }, { flagKey: 'checkout', entityId: 'u', context: { plan: 'pro' } }];
      const failed = await api.post('/api/v1/batch-evaluate', { namespaceKey: NS, requests });
      expect(failed.status).toBe(404);
      expect(failed.body).toEqual({ code: 5, message: `flag "${NS}/nope" not found`, details: [] });
      const explicit = await api.post('/api/v1/batch-evaluate', { namespaceKey: NS, excludeNotFound: false, requests });
      expect(explicit.status).toBe(404);
      const skipped = ok(await api.post('/api/v1/batch-evaluate', { namespaceKey: NS, excludeNotFound: true, requests }));
      expect(skipped.responses).toHaveLength(1);
      expect(skipped.responses[0]).toMatchObject({ flagKey: 'checkout', value: 'old' });
      const snake = ok(await api.post('/api/v1/batch-evaluate', { namespaceKey: NS, exclude_not_found: true, requests }));
      expect(snake.responses).toHaveLength(1);
    });

    it('a boolean flag fails the batch with 400', async () => {
      const res = await api.post('/api/v1/batch-evaluate', { namespaceKey: NS, requests: [{ flagKey: 'bool', entityId: 'u' }] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('flag type BOOLEAN_FLAG_TYPE invalid');
    });
  });
});
