import { evaluateBoolean, evaluateVariant } from './evaluate';
import { compileSnapshot } from './snapshot';
import {
  STRING,
  booleanFlag,
  constraint,
  dist,
  eqSegment,
  namespace,
  rule,
  segment,
  segmentRollout,
  thresholdRollout,
  variant,
  variantFlag,
} from './testdata/builders';

describe('compileSnapshot', () => {
  it('keeps the namespace key and version, and flags both by key and in created order', () => {
    const s = compileSnapshot({ ...namespace('ns', [variantFlag('b'), booleanFlag('a')]), version: 'opaque-7' });
    expect(s.key).toBe('ns');
    expect(s.version).toBe('opaque-7');
    expect([...s.flags.keys()]).toEqual(['b', 'a']);
    expect(s.flags.get('a')?.type).toBe(1);
    expect(s.flags.get('b')?.type).toBe(0);
  });

  it('sorts rules and rollouts by rank, keeping equal ranks in source order', () => {
    const rules = [rule(3, ['s']), rule(1, ['s']), rule(2, ['s']), rule(1, ['s'])];
    const rollouts = [thresholdRollout(2, 10, true), segmentRollout(1, ['s'], true)];
    const s = compileSnapshot(
      namespace('ns', [variantFlag('v', { rules }), booleanFlag('b', { rollouts })], [segment('s')]),
    );
    expect(s.flags.get('v')!.rules.map((r) => r.id)).toEqual([rules[1].id, rules[3].id, rules[2].id, rules[0].id]);
    expect(s.flags.get('b')!.rollouts.map((r) => r.rank)).toEqual([1, 2]);
  });

  it('links segment keys to one shared link per key, holding the compiled segment or null for an unknown key', () => {
    const s = compileSnapshot(
      namespace(
        'ns',
        [
          variantFlag('v', { rules: [rule(1, ['s', 'missing'])] }),
          booleanFlag('b', { rollouts: [segmentRollout(1, ['s'], true)] }),
        ],
        [eqSegment('s', 'p', 'x')],
      ),
    );
    const fromRule = s.flags.get('v')!.rules[0].segments;
    expect(fromRule.map((x) => x.key)).toEqual(['s', 'missing']);
    expect(fromRule[1].current).toBeNull();
    expect(fromRule[0]).toBe(s.flags.get('b')!.rollouts[0].segment!.segments[0]);
    expect(fromRule[0].current).toBe(s.segments.get('s'));
  });

  it('drops distributions with rollout <= 0 and turns the rest into cumulative bounds', () => {
    const flag = variantFlag('v', {
      variants: [variant('a'), variant('b'), variant('c')],
      rules: [rule(1, ['s'], [dist('a', 0), dist('b', 33.34), dist('c', 66.66), dist('a', -1)])],
    });
    const compiled = compileSnapshot(namespace('ns', [flag], [segment('s')])).flags.get('v')!.rules[0];
    expect(compiled.distributions.map((d) => [d.variantKey, d.rollout])).toEqual([
      ['b', 33.34],
      ['c', 66.66],
    ]);
    expect(compiled.bounds).toEqual([333, 999]);
  });

  it('drops distributions whose variant is gone', () => {
    const flag = variantFlag('v', { variants: [variant('a')], rules: [rule(1, ['s'], [dist('zzz', 50), dist('a', 50)])] });
    const compiled = compileSnapshot(namespace('ns', [flag], [segment('s')])).flags.get('v')!.rules[0];
    expect(compiled.distributions.map((d) => d.variantKey)).toEqual(['a']);
  });

  it.each<[string, string | null, { key: string; attachment: string } | null]>([
    ['set', 'v-b', { key: 'b', attachment: '{"x":1}' }],
    ['unset', null, null],
    ['dangling', 'v-nope', null],
  ])('resolves a %s default variant', (_, defaultVariantId, expected) => {
    const flag = variantFlag('v', { variants: [variant('a'), variant('b', '{"x":1}')], defaultVariantId });
    const dv = compileSnapshot(namespace('ns', [flag])).flags.get('v')!.defaultVariant;
    expect(dv && { key: dv.key, attachment: dv.attachment }).toEqual(expected);
  });

  it('lower-cases operators once and pre-parses values', () => {
    const s = compileSnapshot(namespace('ns', [], [segment('s', [constraint(STRING, 'p', 'IsOneOf', '["x"]')])]));
    const c = s.segments.get('s')!.constraints[0];
    expect(c.operator).toBe('isoneof');
    expect(c.test('x')).toBe(true);
  });

  it('freezes what it compiles (the snapshot around it is brought forward by deltas)', () => {
    const s = compileSnapshot(
      namespace('ns', [variantFlag('v', { rules: [rule(1, ['s'])] })], [segment('s', [constraint(STRING, 'p', 'eq', 'x')])]),
    );
    const flag = s.flags.get('v')!;
    expect(Object.isFrozen(flag)).toBe(true);
    expect(Object.isFrozen(flag.rules)).toBe(true);
    expect(Object.isFrozen(flag.rules[0].segments[0].current!.constraints[0])).toBe(true);
  });

  it('compiles 10,000 flags into a working snapshot', () => {
    const segments = Array.from({ length: 100 }, (_, i) =>
      segment(`seg-${i}`, [constraint(STRING, 'tier', 'eq', `t${i}`), constraint(2, 'age', 'gte', '18')]),
    );
    const flags = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 === 0
        ? variantFlag(`flag-${i}`, {
            variants: [variant('on'), variant('off', '{"n":1}')],
            rules: [rule(1, [`seg-${i % 100}`], [dist('on', 50), dist('off', 50)])],
          })
        : booleanFlag(`flag-${i}`, {
            rollouts: [segmentRollout(1, [`seg-${i % 100}`], true), thresholdRollout(2, 50, true)],
          }),
    );
    const s = compileSnapshot(namespace('big', flags, segments));
    expect(s.flags.size).toBe(10_000);
    const v = evaluateVariant(s, { flagKey: 'flag-4242', entityId: 'e', context: { tier: 't42', age: '30' } });
    expect(v).toMatchObject({ match: true, reason: 'MATCH', segmentKeys: ['seg-42'] });
    expect(['on', 'off']).toContain(v.variantKey);
    const b = evaluateBoolean(s, { flagKey: 'flag-9999', entityId: 'e', context: { tier: 't99', age: '18' } });
    expect(b).toEqual({ enabled: true, reason: 'MATCH', segmentKeys: ['seg-99'], flagKey: 'flag-9999' });
  });
});
