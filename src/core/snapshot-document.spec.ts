import { compileSnapshot } from './snapshot';
import { applyDelta } from './snapshot-delta';
import { documentVariant, parseAcceptServerVersion, snapshotDocumentText, toSnapshotDocument } from './snapshot-document';
import goldenDocument from './testdata/golden-snapshot.json';
import {
  ENTITY_ID,
  STRING,
  booleanFlag,
  constraint,
  dist,
  goldenSource,
  namespace,
  rule,
  segment,
  segmentRollout,
  thresholdRollout,
  variant,
  variantFlag,
} from './testdata/builders';

const FULL = '1.47.0';

describe('toSnapshotDocument', () => {
  it('serves the golden namespace as the document the client engine was verified against', () => {
    // Differences that do not reach the engine: no segment timestamps (as Flipt), and distribution ids left empty.
    const expected = {
      ...goldenDocument,
      flags: goldenDocument.flags.map((flag) => ({
        ...flag,
        rules: flag.rules.map((r) => ({
          ...r,
          segments: r.segments.map(({ createdAt: _c, updatedAt: _u, ...rest }) => rest),
          distributions: r.distributions.map((d) => ({ ...d, id: '', ruleId: '' })),
        })),
      })),
    };
    const doc = toSnapshotDocument(compileSnapshot(goldenSource()), FULL);
    expect(doc).toEqual(expected);
    expect(Object.keys(doc.flags[1])).toEqual(['key', 'name', 'description', 'enabled', 'type', 'createdAt', 'updatedAt', 'rules', 'rollouts']);
    expect(Object.keys(doc.flags[1].rules[0])).toEqual(['id', 'segments', 'rank', 'segmentOperator', 'distributions']);
  });

  it('answers an empty namespace with no flags', () => {
    expect(toSnapshotDocument(compileSnapshot(namespace('nothing', [])), FULL)).toEqual({ namespace: { key: 'nothing' }, flags: [] });
  });

  it('emits a multi-segment rule once, with all its segments and one copy of its distributions', () => {
    const s = compileSnapshot(
      namespace(
        'ns',
        [variantFlag('v', { variants: [variant('a'), variant('b')], rules: [rule(1, ['s1', 's2'], [dist('a', 50), dist('b', 50)], 1)] })],
        [segment('s1'), segment('s2')],
      ),
    );
    const rules = toSnapshotDocument(s, FULL).flags[0].rules;
    expect(rules).toHaveLength(1);
    expect(rules[0].segmentOperator).toBe('AND_SEGMENT_OPERATOR');
    expect(rules[0].segments.map((x) => x.key)).toEqual(['s1', 's2']);
    expect(rules[0].distributions.map((d) => [d.variantKey, d.rollout])).toEqual([
      ['a', 50],
      ['b', 50],
    ]);
  });

  it('lists rules by rank and leaves out 0% distributions', () => {
    const s = compileSnapshot(
      namespace(
        'ns',
        [
          variantFlag('v', {
            variants: [variant('a', '{"x":1}'), variant('b')],
            rules: [rule(2, ['s'], [dist('a', 100)]), rule(1, ['s'], [dist('b', 0), dist('a', 100)])],
          }),
        ],
        [segment('s')],
      ),
    );
    const rules = toSnapshotDocument(s, FULL).flags[0].rules;
    expect(rules.map((r) => r.rank)).toEqual([1, 2]);
    expect(rules[0].distributions).toEqual([
      { id: '', ruleId: '', variantId: 'v-a', variantKey: 'a', variantAttachment: '{"x":1}', rollout: 100 },
    ]);
  });

  it('describes boolean flags with rollouts and variant flags with rules, each with the other list empty', () => {
    const s = compileSnapshot(
      namespace(
        'ns',
        [
          booleanFlag('b', { rollouts: [segmentRollout(2, ['s'], false, 1), thresholdRollout(1, 33.3, true)] }),
          variantFlag('v'),
        ],
        [segment('s', [constraint(STRING, 'plan', 'EQ', 'pro')], 1)],
      ),
    );
    const [b, v] = toSnapshotDocument(s, FULL).flags;
    expect(b).toMatchObject({ type: 'BOOLEAN_FLAG_TYPE', rules: [] });
    expect(b.rollouts).toEqual([
      { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 33.3, value: true } },
      {
        type: 'SEGMENT_ROLLOUT_TYPE',
        rank: 2,
        segment: {
          value: false,
          segmentOperator: 'AND_SEGMENT_OPERATOR',
          segments: [
            {
              key: 's',
              name: 'S',
              description: '',
              matchType: 'ANY_SEGMENT_MATCH_TYPE',
              constraints: [{ id: expect.any(String), type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }],
            },
          ],
        },
      },
    ]);
    expect(v).toMatchObject({ type: 'VARIANT_FLAG_TYPE', rules: [], rollouts: [] });
    expect(v).not.toHaveProperty('defaultVariant');
  });

  describe('X-Flipt-Accept-Server-Version gating', () => {
    const s = compileSnapshot(
      namespace(
        'ns',
        [
          variantFlag('v', {
            variants: [variant('a', '{"k":"v"}')],
            defaultVariantId: 'v-a',
            rules: [rule(1, ['ent'], [dist('a', 100)])],
          }),
        ],
        [segment('ent', [constraint(ENTITY_ID, 'entityId', 'eq', 'user@flipt.io')])],
      ),
    );

    it.each<[string | undefined, boolean, boolean]>([
      // header, ENTITY_ID constraints kept, defaultVariant emitted
      [undefined, false, false],
      ['', false, false],
      ['not-a-version', false, false],
      ['1.37.1', false, false],
      ['1.38.0-rc.1', false, false],
      ['1.38.0', true, false],
      ['1.38', true, false],
      ['1.46.99', true, false],
      ['1.47.0-beta', true, false],
      ['1.47.0', true, true],
      ['v1.47.0', true, true],
      [' 1.47.0 ', true, true],
      ['1.47', true, true],
      ['01.047.000', true, true],
      ['1.47.0+build.5', true, true],
      ['2', true, true],
      ['2.0.0', true, true],
    ])('%j → ENTITY_ID kept %p, defaultVariant %p', (header, entityIds, defaultVariant) => {
      const flag = toSnapshotDocument(s, header).flags[0];
      expect(flag.rules[0].segments[0].constraints[0].type).toBe(
        entityIds ? 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE' : 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE',
      );
      if (defaultVariant) expect(flag.defaultVariant).toEqual({ id: 'v-a', key: 'a', attachment: '{"k":"v"}' });
      else expect(flag).not.toHaveProperty('defaultVariant');
    });
  });

  it('reuses one object for a segment referenced from several places', () => {
    const s = compileSnapshot(
      namespace('ns', [variantFlag('v', { rules: [rule(1, ['s']), rule(2, ['s'])] }), booleanFlag('b', { rollouts: [segmentRollout(1, ['s'], true)] })], [segment('s')]),
    );
    const doc = toSnapshotDocument(s, FULL);
    const [v, b] = ['v', 'b'].map((key) => doc.flags.find((f) => f.key === key)!);
    expect(v.rules[1].segments[0]).toBe(v.rules[0].segments[0]);
    expect(b.rollouts[0].segment!.segments[0]).toBe(v.rules[0].segments[0]);
  });

  it('names constraint types of unknown number UNKNOWN', () => {
    const s = compileSnapshot(namespace('ns', [variantFlag('v', { rules: [rule(1, ['s'])] })], [segment('s', [constraint(0, 'p', 'eq', 'x')])]));
    expect(toSnapshotDocument(s, FULL).flags[0].rules[0].segments[0].constraints[0].type).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
  });
});

describe('snapshotDocumentText', () => {
  const headers = ['1.37.1', '1.38.0', '1.47.0'];
  const withEntityId = () => {
    const src = goldenSource();
    src.segments.push(segment('ids', [constraint(ENTITY_ID, '', 'eq', 'e-1')]));
    src.flags.push(variantFlag('by-id', { variants: [variant('x')], defaultVariantId: 'v-x', rules: [rule(1, ['ids'], [dist('x', 100)])] }));
    return src;
  };

  it('is the JSON of the document for each client generation', () => {
    const s = compileSnapshot(withEntityId());
    for (const header of headers) {
      const v = documentVariant(header);
      expect(snapshotDocumentText(s, v)).toBe(JSON.stringify(toSnapshotDocument(s, header)));
    }
    expect(new Set(headers.map((h) => snapshotDocumentText(s, documentVariant(h)))).size).toBe(3);
  });

  it('stays that JSON after deltas, reusing the parts of unchanged flags', () => {
    const src = withEntityId();
    const s = compileSnapshot(src);
    snapshotDocumentText(s, 2);
    const changed = { ...src.flags[0], description: 'changed' };
    applyDelta(s, { from: src.version, to: '2', flags: [changed], removedFlags: [], segments: [segment('ids', [constraint(ENTITY_ID, '', 'eq', 'e-2')])], removedSegments: [] });
    for (const header of headers) expect(snapshotDocumentText(s, documentVariant(header))).toBe(JSON.stringify(toSnapshotDocument(s, header)));
  });
});

describe('parseAcceptServerVersion (blang/semver ParseTolerant, default 1.37.1)', () => {
  it.each<[string | undefined, readonly [number, number, number, boolean]]>([
    [undefined, [1, 37, 1, false]],
    ['', [1, 37, 1, false]],
    ['1.47.0', [1, 47, 0, false]],
    ['v1.47.0', [1, 47, 0, false]],
    ['1.47', [1, 47, 0, false]],
    ['1', [1, 0, 0, false]],
    ['001.02.03', [1, 2, 3, false]],
    ['1.2.3-alpha.1', [1, 2, 3, true]],
    ['1.2.3+meta', [1, 2, 3, false]],
    ['1.2-rc', [1, 37, 1, false]], // a short version may not carry a prerelease
    ['1.2.3-01', [1, 37, 1, false]], // numeric prerelease with a leading zero
    ['1.2.3-', [1, 37, 1, false]],
    ['1.2.x', [1, 37, 1, false]],
    ['latest', [1, 37, 1, false]],
  ])('%j → %j', (header, version) => {
    expect(parseAcceptServerVersion(header)).toEqual(version);
  });
});
