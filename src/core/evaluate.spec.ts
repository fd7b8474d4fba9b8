import { thresholdBucket, variantBucket } from './bucketing';
import { EvaluationError } from './errors';
import { evaluateBoolean, evaluateVariant, EvaluationInput, flagType } from './evaluate';
import { compileSnapshot, Snapshot } from './snapshot';
import goldenVectors from './testdata/golden-vectors.json';
import {
  ENTITY_ID,
  STRING,
  booleanFlag,
  constraint,
  dist,
  eqSegment,
  goldenSource,
  namespace,
  rule,
  segment,
  segmentRollout,
  thresholdRollout,
  variant,
  variantFlag,
} from './testdata/builders';

const AND = 1;
const REASONS: Record<string, string> = {
  MATCH_EVALUATION_REASON: 'MATCH',
  DEFAULT_EVALUATION_REASON: 'DEFAULT',
  UNKNOWN_EVALUATION_REASON: 'UNKNOWN',
  FLAG_DISABLED_EVALUATION_REASON: 'FLAG_DISABLED',
};

function input(flagKey: string, entityId: string, context: Record<string, string> = {}): EvaluationInput {
  return { flagKey, entityId, context };
}

/** A deterministic entity id whose variant bucket for `flagKey` satisfies `wanted`. */
function entityWithBucket(flagKey: string, wanted: (bucket: number) => boolean): string {
  for (let i = 0; ; i++) {
    if (wanted(variantBucket(flagKey, `entity-${i}`))) return `entity-${i}`;
  }
}

describe('golden vectors (clients.md A3.6, computed by Flipt\'s own engine)', () => {
  const s = compileSnapshot(goldenSource());

  it.each(goldenVectors.map((v) => [v.entityId, v] as const))('%s', (entityId, v) => {
    expect(evaluateBoolean(s, input('bool-threshold-50', entityId))).toEqual({
      enabled: v.bool_enabled,
      reason: REASONS[v.bool_reason],
      segmentKeys: [],
      flagKey: 'bool-threshold-50',
    });
    expect(evaluateVariant(s, input('variant-5050', entityId, { plan: 'pro' }))).toEqual({
      match: v.variant_match,
      reason: REASONS[v.variant_reason],
      variantKey: v.variant_key,
      variantAttachment: v.variant_attachment,
      segmentKeys: v.variant_segments.split(','),
      flagKey: 'variant-5050',
    });
  });

  it.each([[{ plan: 'free' }], [{}]])('context %j matches no segment', (context) => {
    expect(evaluateVariant(s, input('variant-5050', 'user-1', context))).toEqual({
      match: false,
      reason: 'UNKNOWN',
      variantKey: '',
      variantAttachment: '',
      segmentKeys: [],
      flagKey: 'variant-5050',
    });
  });
});

/** The parts of Flipt's readonly integration data (facts §13.2) that its evaluation tests touch. */
function readonlySnapshot(): Snapshot {
  const fiftyFifty = () => [dist('variant_001', 50), dist('variant_002', 50)];
  const variants = [variant('variant_001'), variant('variant_002')];
  const numbered = Array.from({ length: 6 }, (_, i) => `segment_00${i + 1}`);
  return compileSnapshot(
    namespace(
      'default',
      [
        variantFlag('flag_001', { variants, rules: numbered.map((key, i) => rule(i + 1, [key], fiftyFifty())) }),
        variantFlag('flag_002', { variants, rules: numbered.map((key, i) => rule(i + 1, [key], fiftyFifty())) }),
        variantFlag('flag_variant_and_segments', {
          variants,
          rules: [rule(1, ['segment_001', 'segment_anding'], fiftyFifty(), AND)],
        }),
        variantFlag('flag_using_entity_id', {
          variants,
          rules: [rule(1, ['segment_entity_id'], [dist('variant_001', 100)])],
        }),
        variantFlag('flag_disabled', { enabled: false, variants, rules: [rule(1, ['segment_001'], fiftyFifty())] }),
        variantFlag('flag_no_distributions', { variants, rules: [rule(1, ['segment_001'])] }),
        booleanFlag('flag_boolean', {
          enabled: false,
          rollouts: [
            segmentRollout(1, ['segment_001'], true),
            segmentRollout(2, ['segment_002'], false),
            segmentRollout(3, ['segment_003'], true),
            segmentRollout(4, ['segment_004'], false),
            thresholdRollout(5, 50, true),
          ],
        }),
        booleanFlag('flag_boolean_no_constraints', {
          rollouts: [segmentRollout(1, ['segment_no_constraints'], true)],
        }),
        booleanFlag('flag_boolean_and_segments', {
          rollouts: [segmentRollout(1, ['segment_001', 'segment_anding'], true, AND)],
        }),
      ],
      [
        ...numbered.map((key) => eqSegment(key, 'in_segment', key)),
        eqSegment('segment_anding', 'anding', 'segment'),
        segment('segment_entity_id', [constraint(ENTITY_ID, 'entityId', 'eq', 'user@flipt.io')]),
        segment('segment_no_constraints'),
      ],
    ),
  );
}

describe('Flipt readonly integration behaviours (facts §13.2)', () => {
  const s = readonlySnapshot();
  const fixed = 'some-fixed-entity-id';

  it.each<[string, string, Record<string, string>, Partial<ReturnType<typeof evaluateVariant>>]>([
    ['flag_001', fixed, { in_segment: 'segment_005' }, { match: true, variantKey: 'variant_002', reason: 'MATCH', segmentKeys: ['segment_005'] }],
    ['flag_002', fixed, { in_segment: 'segment_006' }, { match: true, variantKey: 'variant_001', reason: 'MATCH' }],
    [
      'flag_variant_and_segments',
      fixed,
      { in_segment: 'segment_001', anding: 'segment' },
      { match: true, variantKey: 'variant_002', segmentKeys: ['segment_001', 'segment_anding'] },
    ],
    ['flag_variant_and_segments', fixed, { in_segment: 'segment_001' }, { match: false, reason: 'UNKNOWN', segmentKeys: [] }],
    ['flag_001', fixed, { in_segment: 'unknown' }, { match: false, variantKey: '', reason: 'UNKNOWN', segmentKeys: [] }],
    ['flag_using_entity_id', 'user@flipt.io', {}, { match: true, variantKey: 'variant_001', segmentKeys: ['segment_entity_id'] }],
    ['flag_disabled', fixed, { in_segment: 'segment_001' }, { match: false, reason: 'FLAG_DISABLED', variantKey: '' }],
    ['flag_no_distributions', fixed, { in_segment: 'segment_001' }, { match: true, reason: 'MATCH', variantKey: '', segmentKeys: ['segment_001'] }],
  ])('variant %s for %s with %j', (flagKey, entityId, context, expected) => {
    expect(evaluateVariant(s, input(flagKey, entityId, context))).toMatchObject({ ...expected, flagKey });
  });

  it.each<[string, string, Record<string, string>, ReturnType<typeof evaluateBoolean>]>([
    ['flag_boolean', 'hello', {}, { enabled: false, reason: 'DEFAULT', segmentKeys: [], flagKey: 'flag_boolean' }],
    ['flag_boolean', 'fixed', {}, { enabled: true, reason: 'MATCH', segmentKeys: [], flagKey: 'flag_boolean' }],
    [
      'flag_boolean',
      'fixed',
      { in_segment: 'segment_001' },
      { enabled: true, reason: 'MATCH', segmentKeys: ['segment_001'], flagKey: 'flag_boolean' },
    ],
    [
      'flag_boolean',
      'hello',
      { in_segment: 'segment_002' },
      { enabled: false, reason: 'MATCH', segmentKeys: ['segment_002'], flagKey: 'flag_boolean' },
    ],
    [
      'flag_boolean_no_constraints',
      '',
      {},
      { enabled: true, reason: 'MATCH', segmentKeys: ['segment_no_constraints'], flagKey: 'flag_boolean_no_constraints' },
    ],
    [
      'flag_boolean_and_segments',
      fixed,
      { in_segment: 'segment_001', anding: 'segment' },
      { enabled: true, reason: 'MATCH', segmentKeys: ['segment_001', 'segment_anding'], flagKey: 'flag_boolean_and_segments' },
    ],
  ])('boolean %s for %j with %j', (flagKey, entityId, context, expected) => {
    expect(evaluateBoolean(s, input(flagKey, entityId, context))).toEqual(expected);
  });

  it('reports a missing flag with the namespace in the message', () => {
    const attempt = () => evaluateVariant(s, input('unknown_flag', fixed));
    expect(attempt).toThrow(EvaluationError);
    expect(attempt).toThrow(expect.objectContaining({ kind: 'NOT_FOUND', message: 'flag "default/unknown_flag" not found' }));
    expect(() => evaluateBoolean(s, input('', fixed))).toThrow('flag "default/" not found');
  });

  it('dispatches a batch by flag type', () => {
    expect(flagType(s, 'flag_boolean')).toBe('BOOLEAN');
    expect(flagType(s, 'flag_001')).toBe('VARIANT');
    expect(flagType(s, 'foobarnotfound')).toBeUndefined();
  });
});

describe('variant evaluation edge cases (facts §6.1)', () => {
  const variants = [variant('a', '{"a":1}'), variant('b'), variant('fallback', '{"f":true}')];
  const segs = [eqSegment('s', 'p', 'x'), eqSegment('t', 'q', 'y')];
  const build = (fields: Parameters<typeof variantFlag>[1]) =>
    compileSnapshot(namespace('ns', [variantFlag('f', { variants, ...fields })], segs));
  const fallback = { defaultVariantId: 'v-fallback' };

  it('stops at an applying rule whose distributions leave the bucket uncovered', () => {
    const s = build({ rules: [rule(1, ['s'], [dist('a', 30), dist('b', 30)]), rule(2, ['s'], [dist('a', 100)])] });
    const uncovered = entityWithBucket('f', (b) => b >= 600);
    expect(evaluateVariant(s, input('f', uncovered, { p: 'x' }))).toEqual({
      match: false,
      reason: 'UNKNOWN',
      variantKey: '',
      variantAttachment: '',
      segmentKeys: ['s'],
      flagKey: 'f',
    });
    const covered = entityWithBucket('f', (b) => b < 300);
    expect(evaluateVariant(s, input('f', covered, { p: 'x' }))).toMatchObject({ match: true, variantKey: 'a', variantAttachment: '{"a":1}' });
  });

  it('answers an uncovered bucket with the default variant and reason DEFAULT when one is set', () => {
    const s = build({ ...fallback, rules: [rule(1, ['s'], [dist('a', 33.33), dist('b', 33.33), dist('a', 33.34)])] });
    const entity = entityWithBucket('f', (b) => b === 999); // lost to truncation: bounds are 333, 666, 999
    expect(evaluateVariant(s, input('f', entity, { p: 'x' }))).toEqual({
      match: false,
      reason: 'DEFAULT',
      variantKey: 'fallback',
      variantAttachment: '{"f":true}',
      segmentKeys: ['s'],
      flagKey: 'f',
    });
  });

  it.each<[string, object, Record<string, string>, object]>([
    ['no rules, default variant', { ...fallback }, {}, { match: false, reason: 'DEFAULT', variantKey: 'fallback', variantAttachment: '{"f":true}' }],
    ['no rules, no default', {}, {}, { match: false, reason: 'UNKNOWN', variantKey: '', variantAttachment: '' }],
    [
      'no rule applies, default variant',
      { ...fallback, rules: [rule(1, ['s'], [dist('a', 100)])] },
      { p: 'nope' },
      { match: false, reason: 'DEFAULT', variantKey: 'fallback', segmentKeys: [] },
    ],
    [
      'disabled, default variant',
      { ...fallback, enabled: false, rules: [rule(1, ['s'], [dist('a', 100)])] },
      { p: 'x' },
      { match: false, reason: 'FLAG_DISABLED', variantKey: 'fallback', variantAttachment: '{"f":true}', segmentKeys: [] },
    ],
    [
      'applying rule without distributions, default variant',
      { ...fallback, rules: [rule(1, ['s'])] },
      { p: 'x' },
      { match: true, reason: 'MATCH', variantKey: 'fallback', variantAttachment: '{"f":true}', segmentKeys: ['s'] },
    ],
    [
      'applying rule whose distributions are all 0%',
      { rules: [rule(1, ['s'], [dist('a', 0), dist('b', 0)])] },
      { p: 'x' },
      { match: true, reason: 'MATCH', variantKey: '', segmentKeys: ['s'] },
    ],
    [
      '0% distributions never win',
      { rules: [rule(1, ['s'], [dist('a', 0), dist('b', 100)])] },
      { p: 'x' },
      { match: true, variantKey: 'b' },
    ],
    [
      'rules run in rank order, not source order',
      { rules: [rule(2, ['s'], [dist('b', 100)]), rule(1, ['s'], [dist('a', 100)])] },
      { p: 'x' },
      { match: true, variantKey: 'a' },
    ],
    [
      'OR reports every matched segment, in the rule\'s order',
      { rules: [rule(1, ['t', 's'], [dist('a', 100)])] },
      { p: 'x', q: 'y' },
      { match: true, segmentKeys: ['t', 's'] },
    ],
    [
      'OR needs only one segment',
      { rules: [rule(1, ['t', 's'], [dist('a', 100)])] },
      { p: 'x' },
      { match: true, segmentKeys: ['s'] },
    ],
    [
      'AND needs every segment',
      { rules: [rule(1, ['s', 't'], [dist('a', 100)], AND), rule(2, ['s'], [dist('b', 100)])] },
      { p: 'x' },
      { match: true, variantKey: 'b', segmentKeys: ['s'] },
    ],
  ])('%s', (_, fields, context, expected) => {
    expect(evaluateVariant(build(fields), input('f', 'e', context))).toMatchObject({ ...expected, flagKey: 'f' });
  });

  it('rejects a boolean flag', () => {
    const s = compileSnapshot(namespace('ns', [booleanFlag('b')]));
    expect(() => evaluateVariant(s, input('b', 'e'))).toThrow(
      expect.objectContaining({ kind: 'INVALID', message: 'flag type BOOLEAN_FLAG_TYPE invalid' }),
    );
  });

  it('fails on an unknown constraint type only when a rule reaches it', () => {
    const bad = segment('bad', [constraint(STRING, 'p', 'eq', 'x'), constraint(0, 'p', 'eq', 'x')]);
    const s = compileSnapshot(
      namespace(
        'ns',
        [
          variantFlag('first', { variants, rules: [rule(1, ['s'], [dist('a', 100)]), rule(2, ['bad'])] }),
          variantFlag('reached', { variants, rules: [rule(1, ['s', 'bad'], [dist('a', 100)])] }),
        ],
        [...segs, bad],
      ),
    );
    expect(evaluateVariant(s, input('first', 'e', { p: 'x' }))).toMatchObject({ match: true, variantKey: 'a' });
    expect(() => evaluateVariant(s, input('first', 'e', { p: 'nope' }))).toThrow('unknown constraint type');
    expect(() => evaluateVariant(s, input('reached', 'e', { p: 'x' }))).toThrow(
      expect.objectContaining({ kind: 'INVALID', message: 'unknown constraint type' }),
    );
  });

  it('does not share segmentKeys arrays between answers', () => {
    const s = build({ rules: [rule(1, ['s'], [dist('a', 100)])] });
    const first = evaluateVariant(s, input('f', 'e', { p: 'x' }));
    first.segmentKeys.push('mutated');
    expect(evaluateVariant(s, input('f', 'e', { p: 'x' })).segmentKeys).toEqual(['s']);
  });
});

describe('boolean evaluation edge cases (facts §6.2)', () => {
  const segs = [eqSegment('s', 'p', 'x'), eqSegment('t', 'q', 'y')];
  const build = (fields: Parameters<typeof booleanFlag>[1]) =>
    compileSnapshot(namespace('ns', [booleanFlag('b', fields)], segs));

  it.each<[string, object, string, Record<string, string>, object]>([
    ['a disabled flag still runs its rollouts', { enabled: false, rollouts: [segmentRollout(1, ['s'], true)] }, 'e', { p: 'x' }, { enabled: true, reason: 'MATCH' }],
    ['no rollout matches: the flag\'s enabled value', { enabled: true, rollouts: [segmentRollout(1, ['s'], false)] }, 'e', {}, { enabled: true, reason: 'DEFAULT', segmentKeys: [] }],
    ['no rollouts at all', { enabled: false }, 'e', {}, { enabled: false, reason: 'DEFAULT' }],
    ['threshold 0% never matches', { enabled: true, rollouts: [thresholdRollout(1, 0, false)] }, 'e', {}, { enabled: true, reason: 'DEFAULT' }],
    ['threshold 100% always matches', { rollouts: [thresholdRollout(1, 100, true)] }, 'e', {}, { enabled: true, reason: 'MATCH', segmentKeys: [] }],
    ['rollouts run in rank order', { rollouts: [thresholdRollout(2, 100, false), segmentRollout(1, ['s'], true)] }, 'e', { p: 'x' }, { enabled: true, segmentKeys: ['s'] }],
    ['a failed segment rollout falls through', { rollouts: [segmentRollout(1, ['s'], false), thresholdRollout(2, 100, true)] }, 'e', {}, { enabled: true, segmentKeys: [] }],
    ['AND needs every segment', { enabled: false, rollouts: [segmentRollout(1, ['s', 't'], true, AND)] }, 'e', { p: 'x' }, { enabled: false, reason: 'DEFAULT' }],
    ['OR reports matched keys in rollout order', { rollouts: [segmentRollout(1, ['t', 's'], true)] }, 'e', { p: 'x', q: 'y' }, { enabled: true, segmentKeys: ['t', 's'] }],
  ])('%s', (_, fields, entityId, context, expected) => {
    expect(evaluateBoolean(build(fields), input('b', entityId, context))).toMatchObject({ ...expected, flagKey: 'b' });
  });

  it.each<[number, boolean]>([
    [42, false],
    [42.00001, true],
    [42.5, true],
    [43, true],
  ])('compares bucket 42 below %p%% as a float → %p', (percentage, matched) => {
    expect(thresholdBucket('user-1', 'bool-threshold-50')).toBe(42);
    const s = compileSnapshot(namespace('ns', [booleanFlag('bool-threshold-50', { rollouts: [thresholdRollout(1, percentage, true)] })]));
    expect(evaluateBoolean(s, input('bool-threshold-50', 'user-1')).reason).toBe(matched ? 'MATCH' : 'DEFAULT');
  });

  it('rounds the percentage to float32 like Flipt (42.0000001 is 42 in float32)', () => {
    const s = compileSnapshot(namespace('ns', [booleanFlag('bool-threshold-50', { rollouts: [thresholdRollout(1, 42.0000001, true)] })]));
    expect(evaluateBoolean(s, input('bool-threshold-50', 'user-1')).reason).toBe('DEFAULT');
  });

  it('rejects a variant flag', () => {
    const s = compileSnapshot(namespace('ns', [variantFlag('v')]));
    expect(() => evaluateBoolean(s, input('v', 'e'))).toThrow(
      expect.objectContaining({ kind: 'INVALID', message: 'flag type VARIANT_FLAG_TYPE invalid' }),
    );
  });

  it('fails on an unknown constraint type in a segment rollout it reaches', () => {
    const s = compileSnapshot(
      namespace('ns', [booleanFlag('b', { rollouts: [segmentRollout(1, ['bad'], true)] })], [segment('bad', [constraint(9, 'p', 'eq', 'x')])]),
    );
    expect(() => evaluateBoolean(s, input('b', 'e'))).toThrow('unknown constraint type');
  });
});
