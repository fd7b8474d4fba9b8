/**
 * The evaluation vectors of Flipt's integration "readonly" suite (facts §13.2) that can be reproduced without its
 * data files: the flags, segments and rules the vectors depend on are rebuilt here with the same keys (flag_001 has
 * fewer rules than the original 50 — bucketing depends only on flag key and entity id, facts §6.4).
 */
import { client, RunningFlagpole } from '../support/flagpole';
import { startWithData, STORAGES } from '../support/file-backed';
import { Api, boolean, buildNamespace, FlagSpec, ok, READONLY_FLAG_BOOLEAN, sorted, thresholdBucket, variant, variantBucket } from './fixtures';

const FIXED = 'some-fixed-entity-id';
const inSegment = (n: string) => ({ type: 'STRING_COMPARISON_TYPE' as const, property: 'in_segment', operator: 'eq', value: `segment_${n}` });
const pad = (i: number) => String(i).padStart(3, '0');
const fiftyFifty: Array<[string, number]> = [['variant_001', 50], ['variant_002', 50]];
const twoVariants = [{ key: 'variant_001' }, { key: 'variant_002' }];

const segmentRules = (count: number) => Array.from({ length: count }, (_, i) => ({ segments: [`segment_${pad(i + 1)}`], distributions: fiftyFifty }));

const flags: FlagSpec[] = [
  { key: 'flag_001', name: 'FLAG_001', description: 'Some Description', variants: twoVariants, rules: segmentRules(10) },
  { key: 'flag_002', name: 'FLAG_002', variants: twoVariants, rules: segmentRules(10) },
  {
    key: 'flag_variant_and_segments',
    variants: twoVariants,
    rules: [{ segments: ['segment_001', 'segment_anding'], operator: 'AND_SEGMENT_OPERATOR', distributions: fiftyFifty }],
  },
  { key: 'flag_using_entity_id', variants: twoVariants, rules: [{ segments: ['segment_entity_id'], distributions: [['variant_001', 100]] }] },
  { key: 'flag_disabled', enabled: false, variants: twoVariants, rules: segmentRules(2) },
  { key: 'flag_no_distributions', variants: twoVariants, rules: [{ segments: ['segment_001'] }] },
  READONLY_FLAG_BOOLEAN,
  { key: 'flag_boolean_no_constraints', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['segment_no_constraints'], value: true } }] },
  {
    key: 'flag_boolean_and_segments',
    type: 'BOOLEAN_FLAG_TYPE',
    enabled: false,
    rollouts: [{ segment: { segments: ['segment_001', 'segment_anding'], operator: 'AND_SEGMENT_OPERATOR', value: true } }],
  },
];

// Flipt runs this suite against its declarative (file-backed) storage: so does Flagpole, and against its database.
describe.each(STORAGES)('Flipt readonly suite — evaluation vectors (facts §13.2), flag state in %s', (storage) => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startWithData(storage, (built) => buildNamespace(built, {
      key: 'default',
      segments: [
        ...Array.from({ length: 10 }, (_, i) => ({ key: `segment_${pad(i + 1)}`, constraints: [inSegment(pad(i + 1))] })),
        { key: 'segment_anding', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'anding', operator: 'eq', value: 'segment' }] },
        { key: 'segment_entity_id', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'user@flipt.io' }] },
        { key: 'segment_no_constraints' },
      ],
      flags,
    }));
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('the buckets the vectors rest on (facts §6.4)', () => {
    expect(variantBucket('flag_001', FIXED)).toBe(553);
    expect(variantBucket('flag_002', FIXED)).toBe(378);
    expect(variantBucket('flag_variant_and_segments', FIXED)).toBe(531);
    expect(thresholdBucket('fixed', 'flag_boolean')).toBe(9);
    expect(thresholdBucket('hello', 'flag_boolean')).toBe(96);
    expect(thresholdBucket('', 'flag_boolean_no_constraints')).toBe(95);
  });

  it('legacy evaluate flag_001 {in_segment: segment_005} → variant_002', async () => {
    const r = ok(await api.post('/api/v1/evaluate', { flagKey: 'flag_001', entityId: FIXED, context: { in_segment: 'segment_005' } }));
    expect(r).toMatchObject({ match: true, value: 'variant_002', reason: 'MATCH_EVALUATION_REASON', segmentKey: 'segment_005' });
  });

  it('legacy batch flag_001/segment_005, flag_002/segment_006 → variant_002, variant_001', async () => {
    const body = ok(
      await api.post('/api/v1/batch-evaluate', {
        requests: [
          { flagKey: 'flag_001', entityId: FIXED, context: { in_segment: 'segment_005' } },
          { flagKey: 'flag_002', entityId: FIXED, context: { in_segment: 'segment_006' } },
        ],
      }),
    );
    expect(body.responses.map((r: any) => r.value)).toEqual(['variant_002', 'variant_001']);
  });

  describe.each([[''], ['default']])('v2 with namespaceKey %j', (namespaceKey) => {
    const v = async (flagKey: string, context: Record<string, string>, entityId = FIXED) =>
      ok(await variant(api, { namespaceKey, flagKey, entityId, context }));
    const b = async (flagKey: string, context?: Record<string, string>, entityId?: string) =>
      ok(await boolean(api, { namespaceKey, flagKey, entityId, context }));

    it('variant flag_001 {in_segment: segment_005} → variant_002', async () => {
      const r = await v('flag_001', { in_segment: 'segment_005' });
      expect(r).toMatchObject({ match: true, variantKey: 'variant_002', reason: 'MATCH_EVALUATION_REASON' });
      expect(r.segmentKeys).toContain('segment_005');
    });

    it('variant flag_variant_and_segments {in_segment: segment_001, anding: segment} → variant_002', async () => {
      const r = await v('flag_variant_and_segments', { in_segment: 'segment_001', anding: 'segment' });
      expect(r).toMatchObject({ match: true, variantKey: 'variant_002' });
      expect(sorted(r.segmentKeys)).toEqual(['segment_001', 'segment_anding']);
    });

    it('variant flag_001 {in_segment: unknown} → no match, UNKNOWN', async () => {
      expect(await v('flag_001', { in_segment: 'unknown' })).toMatchObject({ match: false, variantKey: '', reason: 'UNKNOWN_EVALUATION_REASON' });
    });

    it('variant flag_using_entity_id, entity user@flipt.io → variant_001', async () => {
      const r = await v('flag_using_entity_id', {}, 'user@flipt.io');
      expect(r).toMatchObject({ match: true, variantKey: 'variant_001' });
      expect(r.segmentKeys).toContain('segment_entity_id');
    });

    it('variant flag_disabled → FLAG_DISABLED', async () => {
      expect(await v('flag_disabled', { in_segment: 'segment_001' })).toMatchObject({
        match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '',
      });
    });

    it('variant unknown_flag → 404', async () => {
      const res = await variant(api, { namespaceKey, flagKey: 'unknown_flag', entityId: FIXED, context: {} });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('flag "default/unknown_flag" not found');
    });

    it('variant flag_no_distributions {in_segment: segment_001} → match, MATCH', async () => {
      const r = await v('flag_no_distributions', { in_segment: 'segment_001' });
      expect(r).toMatchObject({ match: true, reason: 'MATCH_EVALUATION_REASON' });
      expect(r.segmentKeys).toContain('segment_001');
    });

    it('boolean flag_boolean: hello → DEFAULT false; fixed → MATCH true (threshold); fixed + segment_001 → MATCH true', async () => {
      expect(await b('flag_boolean', {}, 'hello')).toMatchObject({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
      expect(await b('flag_boolean', {}, 'fixed')).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
      expect(await b('flag_boolean', { in_segment: 'segment_001' }, 'fixed')).toMatchObject({
        enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['segment_001'],
      });
    });

    it('boolean flag_boolean_no_constraints, no entity, no context → MATCH true', async () => {
      expect(await b('flag_boolean_no_constraints')).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
    });

    it('boolean flag_boolean_and_segments {in_segment: segment_001, anding: segment} → MATCH true', async () => {
      const r = await b('flag_boolean_and_segments', { in_segment: 'segment_001', anding: 'segment' }, FIXED);
      expect(r).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
      expect(sorted(r.segmentKeys)).toEqual(['segment_001', 'segment_anding']);
    });

    it('batch [flag_boolean/fixed, foobarnotfound (no entity), flag_001/segment_005]', async () => {
      const body = ok(
        await api.post('/evaluate/v1/batch', {
          requests: [
            { namespaceKey, flagKey: 'flag_boolean', entityId: 'fixed', context: {} },
            { namespaceKey, flagKey: 'foobarnotfound' },
            { namespaceKey, flagKey: 'flag_001', entityId: FIXED, context: { in_segment: 'segment_005' } },
          ],
        }),
      );
      const [bool, err, vr] = body.responses;
      expect(bool).toMatchObject({ type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE', booleanResponse: { enabled: true, reason: 'MATCH_EVALUATION_REASON' } });
      expect(err).toEqual({
        type: 'ERROR_EVALUATION_RESPONSE_TYPE',
        errorResponse: { flagKey: 'foobarnotfound', namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      });
      expect(vr).toMatchObject({ type: 'VARIANT_EVALUATION_RESPONSE_TYPE', variantResponse: { match: true, variantKey: 'variant_002' } });
    });
  });
});
