/**
 * GET /internal/v1/evaluation/snapshot/namespace/{key} (facts §12.1, clients.md A3.2/A3.3, decisions.md item 1):
 * the document client-side engines load — required fields, enum strings, rank order, each rule once — and its
 * ETag / If-None-Match / 304 contract and X-Flipt-Accept-Server-Version gating.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, Built, nsPath, ok } from './fixtures';

const NS = 'snap';
const PATH = `/internal/v1/evaluation/snapshot/namespace/${NS}`;
const CURRENT = { 'x-flipt-accept-server-version': '1.47.0' };
const str = (property: string, value: string) => ({ type: 'STRING_COMPARISON_TYPE' as const, property, operator: 'eq', value });

const FLAG_TYPES = ['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE'];
const OPERATORS = ['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR'];
const MATCH_TYPES = ['ALL_SEGMENT_MATCH_TYPE', 'ANY_SEGMENT_MATCH_TYPE'];
const CONSTRAINT_TYPES = [
  'STRING_CONSTRAINT_COMPARISON_TYPE', 'NUMBER_CONSTRAINT_COMPARISON_TYPE', 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE',
  'DATETIME_CONSTRAINT_COMPARISON_TYPE', 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE',
];
const ROLLOUT_TYPES = ['SEGMENT_ROLLOUT_TYPE', 'THRESHOLD_ROLLOUT_TYPE'];

/** What @flipt-io/flipt-client-js's serde structs require (clients.md A3.3), checked field by field. */
function expectEngineReadable(doc: any) {
  expect(typeof doc.namespace.key).toBe('string');
  expect(Array.isArray(doc.flags)).toBe(true);
  const segment = (s: any) => {
    expect(typeof s.key).toBe('string');
    expect(MATCH_TYPES).toContain(s.matchType);
    expect(Array.isArray(s.constraints)).toBe(true);
    for (const c of s.constraints) {
      expect(CONSTRAINT_TYPES).toContain(c.type);
      for (const f of ['property', 'operator', 'value']) expect(typeof c[f]).toBe('string');
    }
  };
  for (const f of doc.flags) {
    expect(typeof f.key).toBe('string');
    expect(typeof f.name).toBe('string');
    expect(typeof f.enabled).toBe('boolean');
    expect(FLAG_TYPES).toContain(f.type);
    f.rules.forEach((r: any, i: number) => {
      expect(r.rank).toBe(i + 1);
      expect(OPERATORS).toContain(r.segmentOperator);
      r.segments.forEach(segment);
      for (const d of r.distributions) {
        expect(typeof d.variantKey).toBe('string');
        expect(typeof d.rollout).toBe('number');
      }
    });
    f.rollouts.forEach((r: any, i: number) => {
      expect(r.rank).toBe(i + 1);
      expect(ROLLOUT_TYPES).toContain(r.type);
      expect(Number(!!r.segment) + Number(!!r.threshold)).toBe(1);
      if (r.threshold) {
        expect(typeof r.threshold.percentage).toBe('number');
        expect(typeof r.threshold.value).toBe('boolean');
      } else {
        expect(OPERATORS).toContain(r.segment.segmentOperator);
        expect(typeof r.segment.value).toBe('boolean');
        r.segment.segments.forEach(segment);
      }
    });
    if (f.defaultVariant !== undefined) {
      expect(typeof f.defaultVariant.id).toBe('string');
      expect(typeof f.defaultVariant.key).toBe('string');
    }
  }
}

describe('evaluation snapshot endpoint', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let built: Built;

  const flag = (doc: any, key: string) => doc.flags.find((f: any) => f.key === key);

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    built = await buildNamespace(api, {
      key: NS,
      segments: [
        { key: 'plan', name: 'Plan', constraints: [str('plan', 'pro')] },
        { key: 'region', matchType: 'ANY_MATCH_TYPE', constraints: [str('region', 'eu'), str('region', 'uk')] },
        { key: 'vip', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'user@flipt.io' }] },
        {
          key: 'typed',
          constraints: [
            { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' },
            { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' },
            { type: 'DATETIME_COMPARISON_TYPE', property: 'at', operator: 'lt', value: '2030-01-01T00:00:00Z' },
          ],
        },
      ],
      flags: [
        {
          key: 'checkout',
          name: 'Checkout',
          description: 'variant flag',
          variants: [{ key: 'a', attachment: '{"k": "v"}' }, { key: 'b' }, { key: 'c' }],
          defaultVariant: 'c',
          rules: [
            { segments: ['plan', 'region', 'typed'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['a', 50], ['b', 50]] },
            { segments: ['vip'], distributions: [['a', 33], ['b', 33], ['c', 34]] },
            { segments: ['region', 'plan'], operator: 'OR_SEGMENT_OPERATOR', distributions: [['b', 100]] },
          ],
        },
        {
          key: 'gate',
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: false,
          rollouts: [
            { segment: { segments: ['plan', 'region'], operator: 'AND_SEGMENT_OPERATOR', value: true } },
            { threshold: { percentage: 25.5, value: false } },
            { segment: { segments: ['vip'], value: true } },
          ],
        },
        { key: 'off', enabled: false, variants: [{ key: 'x' }] },
      ],
    });
    // move rule 3 to the top and rollout 3 to the top: the document must follow rank, not creation order
    const [r1, r2, r3] = built.rules.checkout;
    ok(await api.put(`${nsPath(NS)}/flags/checkout/rules/order`, { ruleIds: [r3, r1, r2] }));
    const [o1, o2, o3] = built.rollouts.gate;
    ok(await api.put(`${nsPath(NS)}/flags/gate/rollouts/order`, { rolloutIds: [o3, o1, o2] }));
  });
  afterAll(() => fp?.close());

  describe('document', () => {
    let doc: any;
    beforeAll(async () => {
      const res = await api.get(PATH, undefined, CURRENT);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      doc = res.body;
    });

    it('has the namespace key and every flag in creation order, readable by the client engine', () => {
      expect(doc.namespace).toEqual({ key: NS });
      expect(doc.flags.map((f: any) => f.key)).toEqual(['checkout', 'gate', 'off']);
      expectEngineReadable(doc);
    });

    it('flag fields follow Flipt’s EvaluationFlag', () => {
      const f = flag(doc, 'checkout');
      expect(Object.keys(f)).toEqual(['key', 'name', 'description', 'enabled', 'type', 'createdAt', 'updatedAt', 'rules', 'rollouts', 'defaultVariant']);
      expect(f).toMatchObject({ key: 'checkout', name: 'Checkout', description: 'variant flag', enabled: true, type: 'VARIANT_FLAG_TYPE', rollouts: [] });
      expect(f.defaultVariant).toEqual({ id: built.variants.checkout.c, key: 'c', attachment: '' });
      expect(flag(doc, 'off')).toMatchObject({ enabled: false, type: 'VARIANT_FLAG_TYPE', rules: [] });
      expect(flag(doc, 'off')).not.toHaveProperty('defaultVariant');
      expect(flag(doc, 'gate')).toMatchObject({ enabled: false, type: 'BOOLEAN_FLAG_TYPE', rules: [] });
    });

    it('rules come sorted by rank, each rule once with all its segments (decisions.md 1)', () => {
      const rules = flag(doc, 'checkout').rules;
      expect(rules).toHaveLength(3);
      expect(rules.map((r: any) => r.id)).toEqual([built.rules.checkout[2], built.rules.checkout[0], built.rules.checkout[1]]);
      expect(rules.map((r: any) => r.rank)).toEqual([1, 2, 3]);

      expect(rules[0].segmentOperator).toBe('OR_SEGMENT_OPERATOR');
      expect(rules[0].segments.map((s: any) => s.key)).toEqual(['region', 'plan']);
      expect(rules[0].distributions.map((d: any) => [d.variantKey, d.rollout])).toEqual([['b', 100]]);

      expect(rules[1].segmentOperator).toBe('AND_SEGMENT_OPERATOR');
      expect(rules[1].segments.map((s: any) => s.key)).toEqual(['plan', 'region', 'typed']);
      // distributions not repeated once per segment (Flipt v1.61.1's builder defect)
      expect(rules[1].distributions.map((d: any) => [d.variantKey, d.rollout])).toEqual([['a', 50], ['b', 50]]);

      expect(rules[2].distributions.map((d: any) => [d.variantKey, d.rollout])).toEqual([['a', 33], ['b', 33], ['c', 34]]);
    });

    it('distributions: id and ruleId empty as in Flipt, variant id/key/compacted attachment, rollout', () => {
      const [d] = flag(doc, 'checkout').rules[1].distributions;
      expect(Object.keys(d)).toEqual(['id', 'ruleId', 'variantId', 'variantKey', 'variantAttachment', 'rollout']);
      expect(d).toEqual({ id: '', ruleId: '', variantId: built.variants.checkout.a, variantKey: 'a', variantAttachment: '{"k":"v"}', rollout: 50 });
    });

    it('segments: key, matchType enum, constraints with id/type/property/operator/value', () => {
      const segments = flag(doc, 'checkout').rules[1].segments;
      const plan = segments[0];
      expect(Object.keys(plan)).toEqual(['key', 'name', 'description', 'matchType', 'constraints']);
      expect(plan).toMatchObject({ key: 'plan', matchType: 'ALL_SEGMENT_MATCH_TYPE' });
      expect(plan.constraints).toEqual([{ id: built.constraints.plan[0], type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }]);
      expect(segments[1]).toMatchObject({ key: 'region', matchType: 'ANY_SEGMENT_MATCH_TYPE' });
      expect(segments[2].constraints.map((c: any) => [c.type, c.property, c.operator, c.value])).toEqual([
        ['NUMBER_CONSTRAINT_COMPARISON_TYPE', 'age', 'gte', '18'],
        ['BOOLEAN_CONSTRAINT_COMPARISON_TYPE', 'beta', 'true', ''],
        ['DATETIME_CONSTRAINT_COMPARISON_TYPE', 'at', 'lt', '2030-01-01T00:00:00Z'],
      ]);
      const vip = flag(doc, 'checkout').rules[2].segments[0];
      expect(vip.constraints[0]).toMatchObject({ type: 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', property: 'entityId', value: 'user@flipt.io' });
    });

    it('rollouts come sorted by rank with only the populated member of segment | threshold', () => {
      const rollouts = flag(doc, 'gate').rollouts;
      expect(rollouts).toEqual([
        {
          type: 'SEGMENT_ROLLOUT_TYPE',
          rank: 1,
          segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [expect.objectContaining({ key: 'vip' })] },
        },
        {
          type: 'SEGMENT_ROLLOUT_TYPE',
          rank: 2,
          segment: {
            value: true,
            segmentOperator: 'AND_SEGMENT_OPERATOR',
            segments: [expect.objectContaining({ key: 'plan' }), expect.objectContaining({ key: 'region' })],
          },
        },
        { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 3, threshold: { percentage: 25.5, value: false } },
      ]);
    });

    it('ignores the `reference` query parameter', async () => {
      const res = await api.get(`${PATH}?reference=main`, undefined, CURRENT);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(doc);
    });
  });

  describe('ETag', () => {
    it('is a lowercase 40-hex SHA-1, stable while nothing changes', async () => {
      const a = await api.get(PATH, undefined, CURRENT);
      const b = await api.get(PATH, undefined, CURRENT);
      const etag = a.headers.get('etag');
      expect(etag).toMatch(/^[0-9a-f]{40}$/);
      expect(b.headers.get('etag')).toBe(etag);
      expect(b.text).toBe(a.text);
    });

    it('If-None-Match with the current ETag → 304, the same ETag header, empty body', async () => {
      const etag = (await api.get(PATH, undefined, CURRENT)).headers.get('etag')!;
      const res = await api.get(PATH, undefined, { ...CURRENT, 'if-none-match': etag });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.text).toBe('');
    });

    it('If-None-Match with another value → 200 and the document', async () => {
      const res = await api.get(PATH, undefined, { ...CURRENT, 'if-none-match': '0000000000000000000000000000000000000000' });
      expect(res.status).toBe(200);
      expect(res.body.namespace).toEqual({ key: NS });
    });

    it('changes after a write to the namespace, and the old one then gets 200', async () => {
      const old = (await api.get(PATH, undefined, CURRENT)).headers.get('etag')!;
      ok(await api.put(`${nsPath(NS)}/flags/off`, { name: 'off', description: 'touched', enabled: false }));
      const res = await api.get(PATH, undefined, { ...CURRENT, 'if-none-match': old });
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^[0-9a-f]{40}$/);
      expect(etag).not.toBe(old);
      expect(flag(res.body, 'off').description).toBe('touched');
      const again = await api.get(PATH, undefined, { ...CURRENT, 'if-none-match': etag! });
      expect(again.status).toBe(304);
    });

    it('does not change after a write to another namespace', async () => {
      const before = (await api.get(PATH, undefined, CURRENT)).headers.get('etag');
      ok(await api.post(`${nsPath('default')}/flags`, { key: 'elsewhere', name: 'elsewhere' }));
      expect((await api.get(PATH, undefined, CURRENT)).headers.get('etag')).toBe(before);
    });

    it('a deleted flag leaves the document and changes the ETag', async () => {
      ok(await api.post(`${nsPath(NS)}/flags`, { key: 'temp', name: 'temp' }));
      const withTemp = await api.get(PATH, undefined, CURRENT);
      expect(flag(withTemp.body, 'temp')).toBeDefined();
      ok(await api.delete(`${nsPath(NS)}/flags/temp`));
      const without = await api.get(PATH, undefined, { ...CURRENT, 'if-none-match': withTemp.headers.get('etag')! });
      expect(without.status).toBe(200);
      expect(flag(without.body, 'temp')).toBeUndefined();
    });
  });

  describe('unknown namespace', () => {
    it('→ 200 {"namespace":{"key":…},"flags":[]} without ETag, never 304', async () => {
      const res = await api.get('/internal/v1/evaluation/snapshot/namespace/nope', undefined, CURRENT);
      expect(res.status).toBe(200);
      expect(res.text).toBe('{"namespace":{"key":"nope"},"flags":[]}');
      expect(res.headers.get('etag')).toBeNull();
      const withTag = await api.get('/internal/v1/evaluation/snapshot/namespace/nope', undefined, { ...CURRENT, 'if-none-match': '' });
      expect(withTag.status).toBe(200);
    });
  });

  describe('X-Flipt-Accept-Server-Version gating', () => {
    const entityIdType = (doc: any) => flag(doc, 'checkout').rules[2].segments[0].constraints[0].type;

    it('absent (counts as 1.37.1) → ENTITY_ID downgraded to UNKNOWN, defaultVariant omitted', async () => {
      const doc = ok(await api.get(PATH));
      expect(entityIdType(doc)).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
      expect(flag(doc, 'checkout')).not.toHaveProperty('defaultVariant');
      // the rollout segment shares the downgrade
      expect(flag(doc, 'gate').rollouts[0].segment.segments[0].constraints[0].type).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
      // other constraint types are untouched
      expect(flag(doc, 'checkout').rules[0].segments[0].constraints[0].type).toBe('STRING_CONSTRAINT_COMPARISON_TYPE');
    });

    it.each([
      ['1.37.9', false, false],
      ['1.38.0', true, false],
      ['1.46.99', true, false],
      ['1.47.0-rc.1', true, false],
      ['1.47.0', true, true],
      ['v1.47', true, true],
      ['2.0.0', true, true],
      ['garbage', false, false],
    ])('%s → ENTITY_ID kept: %s, defaultVariant: %s', async (version, entityId, defaultVariant) => {
      const doc = ok(await api.get(PATH, undefined, { 'x-flipt-accept-server-version': version }));
      expect(entityIdType(doc)).toBe(entityId ? 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE' : 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
      expect(flag(doc, 'checkout').defaultVariant !== undefined).toBe(defaultVariant);
    });

    it('the ETag does not depend on the client version', async () => {
      const a = await api.get(PATH);
      const b = await api.get(PATH, undefined, CURRENT);
      expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    });
  });
});
