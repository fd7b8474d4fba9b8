/**
 * The evaluation expectations of Flipt's own integration "api" suite (facts §13.1), with its data built by the
 * same sequence of management calls (creates, updates, re-ordering), for the namespaces the suite iterates:
 * "" (meaning default), "default" and "production".
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, boolean, createNamespace, nsPath, ok, sorted, thresholdBucket, variant } from './fixtures';

async function buildApiSuiteData(api: Api, ns: string): Promise<void> {
  const p = nsPath(ns);
  await createNamespace(api, ns);
  ok(await api.post(`${p}/flags`, { key: 'test', name: 'Test', enabled: true }), 'flag test');
  ok(await api.post(`${p}/flags`, { key: 'disabled', name: 'Disabled', enabled: false }), 'flag disabled');
  ok(await api.post(`${p}/flags`, { key: 'boolean_enabled', name: 'Boolean', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'boolean_enabled');
  ok(await api.post(`${p}/flags`, { key: 'boolean_disabled', name: 'Boolean', enabled: false, type: 'BOOLEAN_FLAG_TYPE' }), 'boolean_disabled');
  ok(await api.put(`${p}/flags/test`, { name: 'Test 2', enabled: true }), 'update flag');

  const one = ok(await api.post(`${p}/flags/test/variants`, { key: 'one', name: 'One' })).id;
  const two = ok(await api.post(`${p}/flags/test/variants`, { key: 'two', name: 'Two' })).id;
  // default variant set, then reset (the suite ends with none)
  ok(await api.put(`${p}/flags/test`, { name: 'Test 2', enabled: true, defaultVariantId: one }));
  ok(await api.put(`${p}/flags/test`, { name: 'Test 2', enabled: true, defaultVariantId: '' }));

  ok(await api.post(`${p}/segments`, { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' }), 'segment everyone');
  ok(await api.put(`${p}/segments/everyone`, { name: 'All the peeps' }));
  const foo = ok(await api.post(`${p}/segments/everyone/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'foo', operator: 'eq', value: 'bar' })).id;
  ok(await api.post(`${p}/segments/everyone/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'fizz', operator: 'neq', value: 'buzz' }));
  ok(await api.put(`${p}/segments/everyone/constraints/${foo}`, {
    type: 'STRING_COMPARISON_TYPE', property: 'foo', operator: 'eq', value: 'baz', description: 'newdesc',
  }));
  ok(await api.post(`${p}/segments`, { key: 'segment', name: 'Segment' }));
  ok(await api.post(`${p}/segments/segment/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'first', operator: 'eq', value: 'segment' }));
  ok(await api.post(`${p}/segments`, { key: 'another-segment', name: 'Another Segment' }));
  ok(await api.post(`${p}/segments/another-segment/constraints`, {
    type: 'STRING_COMPARISON_TYPE', property: 'second', operator: 'eq', value: 'another-segment',
  }));

  const r1 = ok(await api.post(`${p}/flags/test/rules`, { segmentKey: 'everyone', rank: 1 })).id;
  const r2 = ok(await api.post(`${p}/flags/test/rules`, { segmentKey: 'everyone', rank: 2 })).id;
  const r3 = ok(await api.post(`${p}/flags/test/rules`, { segmentKey: 'another-segment', rank: 3 })).id;
  ok(await api.put(`${p}/flags/test/rules/${r3}`, { segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR' }));
  ok(await api.put(`${p}/flags/test/rules/order`, { ruleIds: [r2, r1, r3] }));

  ok(await api.post(`${p}/flags/test/rules/${r2}/distributions`, { variantId: one, rollout: 100 }));
  const d3 = ok(await api.post(`${p}/flags/test/rules/${r3}/distributions`, { variantId: one, rollout: 100 })).id;
  ok(await api.put(`${p}/flags/test/rules/${r3}/distributions/${d3}`, { variantId: two, rollout: 100 }));

  const rb = `${p}/flags/boolean_disabled/rollouts`;
  ok(await api.post(rb, { rank: 1, segment: { segmentKey: 'everyone', value: true } }));
  const ro2 = ok(await api.post(rb, { rank: 2, segment: { segmentKey: 'another-segment', value: false } })).id;
  ok(await api.put(`${rb}/${ro2}`, { segment: { segmentKeys: ['another-segment', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false } }));
  const ro3 = ok(await api.post(rb, { rank: 3, threshold: { percentage: 50, value: true } })).id;
  ok(await api.put(`${rb}/${ro3}`, { description: '50% enabled', threshold: { percentage: 50, value: false } }));
}

describe('Flipt api suite — evaluation (facts §13.1)', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildApiSuiteData(api, 'default');
    await buildApiSuiteData(api, 'production');
  });
  afterAll(() => fp?.close());

  it('the hashing facts the expectations rest on', () => {
    expect(thresholdBucket('fixed', 'boolean_disabled')).toBe(38);
    expect(thresholdBucket('beover50', 'boolean_disabled')).toBe(99);
  });

  describe.each([
    ['', 'default'],
    ['default', 'default'],
    ['production', 'production'],
  ])('namespace %j', (namespaceKey, expected) => {
    // Flipt's suite uses a random UUID; every variant here is 100%, so any id answers the same.
    const entityId = 'a3c8b7e2-5f4d-4b1a-9e6c-0d2f7a1b9c30';

    it('legacy Evaluate: {foo: baz, fizz: bozz} → match everyone/one; {fizz: buzz} → no match', async () => {
      const path = namespaceKey ? `/api/v1/namespaces/${namespaceKey}/evaluate` : '/api/v1/evaluate';
      const r = ok(await api.post(path, { namespaceKey, flagKey: 'test', entityId, context: { foo: 'baz', fizz: 'bozz' } }));
      expect(r).toMatchObject({ match: true, segmentKey: 'everyone', value: 'one', reason: 'MATCH_EVALUATION_REASON' });
      const miss = ok(await api.post(path, { namespaceKey, flagKey: 'test', entityId, context: { fizz: 'buzz' } }));
      expect(miss.match).toBe(false);
    });

    it('legacy BatchEvaluate: same answers', async () => {
      const body = ok(
        await api.post('/api/v1/batch-evaluate', {
          namespaceKey,
          requests: [
            { flagKey: 'test', entityId, context: { foo: 'baz', fizz: 'bozz' } },
            { flagKey: 'test', entityId, context: { fizz: 'buzz' } },
          ],
        }),
      );
      expect(body.responses[0]).toMatchObject({ match: true, segmentKey: 'everyone', value: 'one', reason: 'MATCH_EVALUATION_REASON', namespaceKey: expected });
      expect(body.responses[1].match).toBe(false);
    });

    it('v2 Variant: rank-1 rule, rank-3 AND rule, no match, disabled, unknown flag', async () => {
      const hit = ok(await variant(api, { namespaceKey, flagKey: 'test', entityId, context: { foo: 'baz', fizz: 'bozz' } }));
      expect(hit).toMatchObject({ match: true, flagKey: 'test', variantKey: 'one', reason: 'MATCH_EVALUATION_REASON' });
      expect(hit.segmentKeys).toContain('everyone');

      const and = ok(await variant(api, { namespaceKey, flagKey: 'test', entityId, context: { first: 'segment', second: 'another-segment' } }));
      expect(and).toMatchObject({ match: true, variantKey: 'two', reason: 'MATCH_EVALUATION_REASON' });
      expect(sorted(and.segmentKeys)).toEqual(['another-segment', 'segment']);

      const miss = ok(await variant(api, { namespaceKey, flagKey: 'test', entityId, context: { fizz: 'buzz' } }));
      expect(miss).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });

      const disabled = ok(await variant(api, { namespaceKey, flagKey: 'disabled', entityId, context: {} }));
      expect(disabled).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' });

      const unknown = await variant(api, { namespaceKey, flagKey: 'unknown_flag', entityId, context: {} });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 5, message: `flag "${expected}/unknown_flag" not found`, details: [] });
    });

    it('new and legacy APIs give the same variant for the same entity', async () => {
      const context = { foo: 'baz', fizz: 'bozz' };
      const v2 = ok(await variant(api, { namespaceKey, flagKey: 'test', entityId, context }));
      const legacy = ok(await api.post('/api/v1/evaluate', { namespaceKey, flagKey: 'test', entityId, context }));
      expect(legacy.value).toBe(v2.variantKey);
    });

    it('v2 Boolean on the disabled flag boolean_disabled', async () => {
      expect(ok(await boolean(api, { namespaceKey, flagKey: 'boolean_disabled', entityId: 'beover50', context: { no: 'match' } }))).toMatchObject({
        enabled: false, reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'boolean_disabled',
      });
      expect(ok(await boolean(api, { namespaceKey, flagKey: 'boolean_disabled', entityId: 'fixed', context: { no: 'match' } }))).toMatchObject({
        enabled: false, reason: 'MATCH_EVALUATION_REASON',
      });
      expect(ok(await boolean(api, { namespaceKey, flagKey: 'boolean_disabled', entityId: 'fixed', context: { foo: 'baz', fizz: 'nothing' } }))).toMatchObject({
        enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['everyone'],
      });
      const and = ok(await boolean(api, { namespaceKey, flagKey: 'boolean_disabled', entityId: 'fixed', context: { first: 'segment', second: 'another-segment' } }));
      expect(and).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON' });
      expect(sorted(and.segmentKeys)).toEqual(['another-segment', 'segment']);
    });

    it('v2 Batch: boolean, variant, not found', async () => {
      const body = ok(
        await api.post('/evaluate/v1/batch', {
          requests: [
            { namespaceKey, flagKey: 'boolean_disabled', entityId: 'fixed', context: { no: 'match' } },
            { namespaceKey, flagKey: 'test', entityId, context: { foo: 'baz', fizz: 'bozz' } },
            { namespaceKey, flagKey: 'flagnotfound', entityId, context: {} },
          ],
        }),
      );
      expect(body.responses).toHaveLength(3);
      const [b, v, e] = body.responses;
      expect(b.type).toBe('BOOLEAN_EVALUATION_RESPONSE_TYPE');
      expect(b.booleanResponse).toMatchObject({ enabled: false, reason: 'MATCH_EVALUATION_REASON' });
      expect(v.type).toBe('VARIANT_EVALUATION_RESPONSE_TYPE');
      expect(v.variantResponse).toMatchObject({ match: true, variantKey: 'one', reason: 'MATCH_EVALUATION_REASON' });
      expect(v.variantResponse.segmentKeys).toContain('everyone');
      expect(e.type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
      expect(e.errorResponse).toEqual({ flagKey: 'flagnotfound', namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
    });
  });
});
