/**
 * POST /evaluate/v1/variant over real HTTP: every step of Flipt's variant algorithm (facts §6.1, §6.3, §6.4, §6.5).
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, Built, expectedDistribution, findEntity, nsPath, ok, sorted, variant } from './fixtures';

const NS = 'variants';
const str = (property: string, operator: string, value = '') => ({ type: 'STRING_COMPARISON_TYPE' as const, property, operator, value });

describe('variant evaluation', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let built: Built;

  const evaluate = async (flagKey: string, context: Record<string, string> = {}, entityId = 'entity-1') =>
    ok(await variant(api, { namespaceKey: NS, flagKey, entityId, context }), `variant ${flagKey}`);

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    built = await buildNamespace(api, {
      key: NS,
      segments: [
        { key: 'plan-pro', constraints: [str('plan', 'eq', 'pro')] },
        { key: 'region-eu', constraints: [str('region', 'eq', 'eu')] },
        { key: 'all-of', matchType: 'ALL_MATCH_TYPE', constraints: [str('a', 'eq', '1'), str('b', 'eq', '2')] },
        { key: 'any-of', matchType: 'ANY_MATCH_TYPE', constraints: [str('a', 'eq', '1'), str('b', 'eq', '2')] },
        { key: 'everyone' },
        { key: 'any-empty', matchType: 'ANY_MATCH_TYPE' },
        { key: 'vip', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'user@flipt.io' }] },
        { key: 'adult', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
        { key: 'beta', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }] },
        { key: 'recent', constraints: [{ type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'gt', value: '2024-01-01T00:00:00Z' }] },
        { key: 'listed', constraints: [str('country', 'isoneof', '["fr","de"]')] },
        { key: 'not-admin', constraints: [str('role', 'neq', 'admin')] },
        { key: 'empty-prop', constraints: [str('nickname', 'empty')] },
      ],
      flags: [
        {
          key: 'ranked',
          variants: [{ key: 'one' }, { key: 'two' }],
          rules: [
            { segments: ['plan-pro'], distributions: [['one', 100]] },
            { segments: ['region-eu'], distributions: [['two', 100]] },
          ],
        },
        {
          key: 'reordered',
          variants: [{ key: 'one' }, { key: 'two' }],
          rules: [
            { segments: ['plan-pro'], distributions: [['one', 100]] },
            { segments: ['region-eu'], distributions: [['two', 100]] },
          ],
        },
        {
          key: 'match-types',
          variants: [{ key: 'all' }, { key: 'any' }],
          rules: [
            { segments: ['all-of'], distributions: [['all', 100]] },
            { segments: ['any-of'], distributions: [['any', 100]] },
          ],
        },
        {
          key: 'operators',
          variants: [{ key: 'and' }, { key: 'or' }],
          rules: [
            { segments: ['plan-pro', 'region-eu'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['and', 100]] },
            { segments: ['plan-pro', 'region-eu'], operator: 'OR_SEGMENT_OPERATOR', distributions: [['or', 100]] },
          ],
        },
        {
          key: 'fifty',
          variants: [{ key: 'a' }, { key: 'b', attachment: '{"side":"b"}' }],
          rules: [{ segments: ['everyone'], distributions: [['a', 50], ['b', 50]] }],
        },
        {
          key: 'uneven',
          variants: [{ key: 'a' }, { key: 'b' }, { key: 'c' }],
          rules: [{ segments: ['everyone'], distributions: [['a', 20], ['b', 30], ['c', 50]] }],
        },
        {
          key: 'thirds',
          variants: [{ key: 'a' }, { key: 'b' }, { key: 'c' }],
          rules: [{ segments: ['everyone'], distributions: [['a', 33.33], ['b', 33.33], ['c', 33.34]] }],
        },
        {
          key: 'reverse',
          variants: [{ key: 'a' }, { key: 'b' }],
          rules: [{ segments: ['any-empty'], distributions: [['b', 50], ['a', 50]] }],
        },
        {
          key: 'zero-share',
          variants: [{ key: 'never' }, { key: 'always' }],
          rules: [{ segments: ['everyone'], distributions: [['never', 0], ['always', 100]] }],
        },
        {
          key: 'partial',
          variants: [{ key: 'a' }, { key: 'b' }],
          rules: [
            { segments: ['everyone'], distributions: [['a', 10], ['b', 10]] },
            { segments: ['everyone'], distributions: [['b', 100]] },
          ],
        },
        {
          key: 'partial-default',
          variants: [{ key: 'a' }, { key: 'fallback', attachment: '{"f":true}' }],
          defaultVariant: 'fallback',
          rules: [
            { segments: ['everyone'], distributions: [['a', 20]] },
            { segments: ['everyone'], distributions: [['a', 100]] },
          ],
        },
        { key: 'no-dists', variants: [{ key: 'x' }], rules: [{ segments: ['plan-pro'] }] },
        {
          key: 'no-dists-default',
          variants: [{ key: 'x', attachment: '[1,2]' }],
          defaultVariant: 'x',
          rules: [{ segments: ['plan-pro'] }],
        },
        {
          key: 'with-default',
          variants: [{ key: 'on' }, { key: 'off', attachment: '{ "x" : 1,\n "y": [ 2 ] }' }],
          defaultVariant: 'off',
          rules: [{ segments: ['plan-pro'], distributions: [['on', 100]] }],
        },
        {
          key: 'disabled-default',
          enabled: false,
          variants: [{ key: 'on' }, { key: 'off', attachment: '{"d":1}' }],
          defaultVariant: 'off',
          rules: [{ segments: ['everyone'], distributions: [['on', 100]] }],
        },
        {
          key: 'disabled',
          enabled: false,
          variants: [{ key: 'on' }],
          rules: [{ segments: ['everyone'], distributions: [['on', 100]] }],
        },
        { key: 'no-rules', variants: [{ key: 'v' }] },
        { key: 'entity', variants: [{ key: 'vip' }], rules: [{ segments: ['vip'], distributions: [['vip', 100]] }] },
        {
          key: 'typed',
          variants: ['adult', 'beta', 'recent', 'listed', 'not-admin', 'empty-prop'].map((key) => ({ key })),
          rules: ['adult', 'beta', 'recent', 'listed', 'not-admin', 'empty-prop'].map((s) => ({
            segments: [s],
            distributions: [[s, 100]] as Array<[string, number]>,
          })),
        },
        { key: 'a-boolean', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      ],
    });
    // Rank order, not creation order, decides: swap the two rules of `reordered`.
    const [r1, r2] = built.rules.reordered;
    ok(await api.put(`${nsPath(NS)}/flags/reordered/rules/order`, { ruleIds: [r2, r1] }), 'order rules');
  });
  afterAll(() => fp?.close());

  it('answers with every field of VariantEvaluationResponse, in proto order', async () => {
    const res = await variant(api, { namespaceKey: NS, flagKey: 'ranked', entityId: 'e', context: { plan: 'pro' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual([
      'match', 'segmentKeys', 'reason', 'variantKey', 'variantAttachment', 'requestId', 'requestDurationMillis', 'timestamp', 'flagKey',
    ]);
    expect(res.body).toMatchObject({
      match: true,
      segmentKeys: ['plan-pro'],
      reason: 'MATCH_EVALUATION_REASON',
      variantKey: 'one',
      variantAttachment: '',
      flagKey: 'ranked',
    });
  });

  describe('rules by rank', () => {
    it('the lowest-ranked applying rule wins', async () => {
      expect(await evaluate('ranked', { plan: 'pro', region: 'eu' })).toMatchObject({ variantKey: 'one', segmentKeys: ['plan-pro'] });
      expect(await evaluate('ranked', { region: 'eu' })).toMatchObject({ match: true, variantKey: 'two', segmentKeys: ['region-eu'] });
    });

    it('follows the order set by PUT …/rules/order, not creation order', async () => {
      expect(await evaluate('reordered', { plan: 'pro', region: 'eu' })).toMatchObject({ variantKey: 'two', segmentKeys: ['region-eu'] });
      expect(await evaluate('reordered', { plan: 'pro' })).toMatchObject({ variantKey: 'one' });
    });

    it('no applying rule → match false, UNKNOWN, empty variant, no segment keys', async () => {
      expect(await evaluate('ranked', { plan: 'free' })).toMatchObject({
        match: false,
        reason: 'UNKNOWN_EVALUATION_REASON',
        variantKey: '',
        variantAttachment: '',
        segmentKeys: [],
      });
    });

    it('a flag without rules → UNKNOWN', async () => {
      expect(await evaluate('no-rules')).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '' });
    });
  });

  describe('segment match types', () => {
    it('ALL needs every constraint', async () => {
      expect(await evaluate('match-types', { a: '1', b: '2' })).toMatchObject({ variantKey: 'all', segmentKeys: ['all-of'] });
    });

    it('ANY needs one constraint', async () => {
      expect(await evaluate('match-types', { a: '1' })).toMatchObject({ variantKey: 'any', segmentKeys: ['any-of'] });
      expect(await evaluate('match-types', { b: '2', a: 'x' })).toMatchObject({ variantKey: 'any', segmentKeys: ['any-of'] });
    });

    it('neither → no match', async () => {
      expect(await evaluate('match-types', { a: '2', b: '1' })).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON' });
    });

    it('a segment without constraints matches everybody, even with an empty entity id and no context', async () => {
      const res = ok(await variant(api, { namespaceKey: NS, flagKey: 'zero-share' }));
      expect(res).toMatchObject({ match: true, variantKey: 'always', segmentKeys: ['everyone'] });
    });

    it('…with match type ANY too', async () => {
      const res = ok(await variant(api, { namespaceKey: NS, flagKey: 'reverse', entityId: 'x' }));
      expect(res).toMatchObject({ match: true, segmentKeys: ['any-empty'] });
    });
  });

  describe('segment operators', () => {
    it('AND applies only when all of the rule’s segments match, and reports all of them', async () => {
      const r = await evaluate('operators', { plan: 'pro', region: 'eu' });
      expect(r).toMatchObject({ match: true, variantKey: 'and', reason: 'MATCH_EVALUATION_REASON' });
      expect(sorted(r.segmentKeys)).toEqual(['plan-pro', 'region-eu']);
    });

    it('OR applies when one segment matches and reports only the matched ones', async () => {
      expect(await evaluate('operators', { plan: 'pro' })).toMatchObject({ variantKey: 'or', segmentKeys: ['plan-pro'] });
      expect(await evaluate('operators', { region: 'eu' })).toMatchObject({ variantKey: 'or', segmentKeys: ['region-eu'] });
      expect(await evaluate('operators', {})).toMatchObject({ match: false, segmentKeys: [] });
    });
  });

  describe('distributions', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `user-${i}`);

    it('50/50: bucket crc32(flagKey+entityId) % 1000 below 500 → first, else second', async () => {
      const seen = new Set<string>();
      for (const id of ids) {
        const expected = expectedDistribution('fifty', id, [50, 50]) === 0 ? 'a' : 'b';
        const r = await evaluate('fifty', {}, id);
        expect({ id, variantKey: r.variantKey, match: r.match }).toEqual({ id, variantKey: expected, match: true });
        expect(r.variantAttachment).toBe(expected === 'b' ? '{"side":"b"}' : '');
        seen.add(r.variantKey);
      }
      expect(seen).toEqual(new Set(['a', 'b']));
    });

    it('distributions are bucketed in creation order, not variant order', async () => {
      for (const id of ids.slice(0, 100)) {
        const expected = expectedDistribution('reverse', id, [50, 50]) === 0 ? 'b' : 'a';
        expect({ id, variantKey: (await evaluate('reverse', {}, id)).variantKey }).toEqual({ id, variantKey: expected });
      }
    });

    it('20/30/50: bounds 200, 500, 1000', async () => {
      const keys = ['a', 'b', 'c'];
      const seen = new Set<string>();
      for (const id of ids) {
        const r = await evaluate('uneven', {}, id);
        expect({ id, variantKey: r.variantKey }).toEqual({ id, variantKey: keys[expectedDistribution('uneven', id, [20, 30, 50])] });
        seen.add(r.variantKey);
      }
      expect(seen).toEqual(new Set(keys));
    });

    it('33.33/33.33/33.34: each share truncated (333, 666, 999), bucket 999 matches nothing', async () => {
      const last = findEntity('thirds', (b) => b === 999);
      expect(await evaluate('thirds', {}, last)).toMatchObject({
        match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '', segmentKeys: ['everyone'],
      });
      expect(await evaluate('thirds', {}, findEntity('thirds', (b) => b === 998))).toMatchObject({ match: true, variantKey: 'c' });
      expect(await evaluate('thirds', {}, findEntity('thirds', (b) => b === 332))).toMatchObject({ variantKey: 'a' });
      expect(await evaluate('thirds', {}, findEntity('thirds', (b) => b === 333))).toMatchObject({ variantKey: 'b' });
      expect(await evaluate('thirds', {}, findEntity('thirds', (b) => b === 666))).toMatchObject({ variantKey: 'c' });
    });

    it('a 0% distribution never wins', async () => {
      for (const id of ids.slice(0, 50)) expect((await evaluate('zero-share', {}, id)).variantKey).toBe('always');
    });

    it('a rule whose bucket misses (shares sum < 100) ends the evaluation: no match, later rules not tried', async () => {
      const inside = findEntity('partial', (b) => b < 200);
      const outside = findEntity('partial', (b) => b >= 200);
      expect(await evaluate('partial', {}, inside)).toMatchObject({ match: true, reason: 'MATCH_EVALUATION_REASON' });
      expect(await evaluate('partial', {}, outside)).toEqual(expect.objectContaining({
        match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '', variantAttachment: '', segmentKeys: ['everyone'],
      }));
    });

    it('…and with a default variant the miss answers DEFAULT with the default variant', async () => {
      const outside = findEntity('partial-default', (b) => b >= 200);
      expect(await evaluate('partial-default', {}, outside)).toMatchObject({
        match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'fallback', variantAttachment: '{"f":true}', segmentKeys: ['everyone'],
      });
      const inside = findEntity('partial-default', (b) => b < 200);
      expect(await evaluate('partial-default', {}, inside)).toMatchObject({ match: true, variantKey: 'a', reason: 'MATCH_EVALUATION_REASON' });
    });

    it('a matching rule without distributions → match true, MATCH, no variant', async () => {
      expect(await evaluate('no-dists', { plan: 'pro' })).toMatchObject({
        match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: '', variantAttachment: '', segmentKeys: ['plan-pro'],
      });
      expect(await evaluate('no-dists', { plan: 'free' })).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON' });
    });

    it('…with a default variant the match carries the default variant', async () => {
      expect(await evaluate('no-dists-default', { plan: 'pro' })).toMatchObject({
        match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'x', variantAttachment: '[1,2]', segmentKeys: ['plan-pro'],
      });
    });
  });

  describe('default variant and disabled flags', () => {
    it('no rule applies → DEFAULT with the default variant and its compacted attachment', async () => {
      expect(await evaluate('with-default', { plan: 'free' })).toMatchObject({
        match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'off', variantAttachment: '{"x":1,"y":[2]}', segmentKeys: [],
      });
      expect(await evaluate('with-default', { plan: 'pro' })).toMatchObject({ match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'on' });
    });

    it('a disabled flag → FLAG_DISABLED, keeping the default variant', async () => {
      expect(await evaluate('disabled-default')).toMatchObject({
        match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: 'off', variantAttachment: '{"d":1}', segmentKeys: [],
      });
    });

    it('a disabled flag without default variant → FLAG_DISABLED, empty variant', async () => {
      expect(await evaluate('disabled')).toMatchObject({
        match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '', variantAttachment: '', segmentKeys: [], flagKey: 'disabled',
      });
    });
  });

  describe('constraints', () => {
    it('ENTITY_ID constraints test the entity id, not the context', async () => {
      expect(await evaluate('entity', {}, 'user@flipt.io')).toMatchObject({ match: true, variantKey: 'vip', segmentKeys: ['vip'] });
      expect(await evaluate('entity', { entityId: 'user@flipt.io' }, 'someone-else')).toMatchObject({ match: false });
    });

    it.each([
      [{ age: '21' }, 'adult'],
      [{ age: '1e2' }, 'adult'],
      [{ age: '17.5' }, ''],
      [{ age: 'abc' }, ''],
      [{ beta: 'true' }, 'beta'],
      [{ beta: 'T' }, 'beta'],
      [{ beta: 'yes' }, ''],
      [{ signup: '2024-06-01T12:00:00Z' }, 'recent'],
      [{ signup: '2024-06-01' }, 'recent'],
      [{ signup: '2023-12-31T23:59:59Z' }, ''],
      [{ country: 'de' }, 'listed'],
      [{ country: 'es' }, ''],
      [{ role: 'user' }, 'not-admin'],
      [{ role: 'admin' }, ''],
      [{ nickname: '   ' }, 'empty-prop'],
    ])('%j → %j', async (context, expected) => {
      // every context also lacks `nickname` unless given, so add a value to keep `empty-prop` out of the way
      const ctx = { nickname: 'nick', ...context };
      const r = await evaluate('typed', ctx);
      expect(r.variantKey).toBe(expected);
      expect(r.match).toBe(expected !== '');
    });

    it('a missing property fails neq (Flipt: every operator but empty/notempty is false on "")', async () => {
      expect(await evaluate('typed', { nickname: 'nick' })).toMatchObject({ match: false, variantKey: '' });
    });
  });

  describe('errors', () => {
    it('missing flag → 404 `flag "<ns>/<key>" not found`', async () => {
      const res = await variant(api, { namespaceKey: NS, flagKey: 'nope', entityId: 'e' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 5, message: `flag "${NS}/nope" not found`, details: [] });
    });

    it('missing flag in the default namespace', async () => {
      const res = await variant(api, { flagKey: 'ranked', entityId: 'e' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('flag "default/ranked" not found');
    });

    it('a boolean flag → 400 `flag type BOOLEAN_FLAG_TYPE invalid`', async () => {
      const res = await variant(api, { namespaceKey: NS, flagKey: 'a-boolean', entityId: 'e' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 3, message: 'flag type BOOLEAN_FLAG_TYPE invalid', details: [] });
    });

    it('an unknown namespace → 404 for the flag', async () => {
      const res = await variant(api, { namespaceKey: 'no-such-ns', flagKey: 'ranked', entityId: 'e' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('flag "no-such-ns/ranked" not found');
    });
  });
});
