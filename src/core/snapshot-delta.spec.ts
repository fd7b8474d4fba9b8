import { evaluateBoolean, evaluateVariant } from './evaluate';
import { compileSnapshot, orderedFlags } from './snapshot';
import { applyDelta, type NamespaceDelta } from './snapshot-delta';
import { toSnapshotDocument } from './snapshot-document';
import type { NamespaceSource, SourceFlag, SourceSegment } from './source';
import { booleanFlag, dist, eqSegment, rule, segmentRollout, variant, variantFlag } from './testdata/builders';

const at = (ms: number) => new Date(ms).toISOString();

function source(flags: SourceFlag[], segments: SourceSegment[], version = '100'): NamespaceSource {
  return { key: 'ns', version, flags, segments };
}

function delta(from: string, to: string, fields: Partial<NamespaceDelta>): NamespaceDelta {
  return { from, to, flags: [], removedFlags: [], segments: [], removedSegments: [], ...fields };
}

/** The snapshot a fresh load of `src` gives, as a client sees it (the document) — what every delta must reach. */
const documentOf = (src: NamespaceSource) => toSnapshotDocument(compileSnapshot(src), undefined);

describe('applyDelta', () => {
  const pro = eqSegment('pro', 'plan', 'pro');
  const eu = eqSegment('eu', 'region', 'eu');
  const colour = (fields: Partial<SourceFlag> = {}) =>
    variantFlag('colour', { createdAt: at(1000), variants: [variant('red'), variant('blue')], rules: [rule(1, ['pro'], [dist('red', 100)])], ...fields });
  const gate = (fields: Partial<SourceFlag> = {}) =>
    booleanFlag('gate', { createdAt: at(2000), rollouts: [segmentRollout(1, ['pro'], false)], ...fields });

  it('replaces a changed flag in place, keeping the order, and moves the version', () => {
    const snapshot = compileSnapshot(source([colour(), gate()], [pro, eu]));
    const changed = colour({ enabled: false });
    expect(applyDelta(snapshot, delta('100', '101', { flags: [changed] }))).toBe('applied');
    expect(snapshot.version).toBe('101');
    expect([...snapshot.flags.keys()]).toEqual(['colour', 'gate']);
    expect(toSnapshotDocument(snapshot, undefined)).toEqual(documentOf(source([changed, gate()], [pro, eu], '101')));
  });

  it('appends a new flag, removes a deleted one, and lists a flag that sorts earlier in its place', () => {
    const original = colour();
    const snapshot = compileSnapshot(source([original, gate()], [pro]));
    const late = booleanFlag('late', { createdAt: at(3000) });
    const early = booleanFlag('early', { createdAt: at(500) });
    applyDelta(snapshot, delta('100', '101', { flags: [late] }));
    applyDelta(snapshot, delta('101', '102', { removedFlags: ['gate'] }));
    applyDelta(snapshot, delta('102', '103', { flags: [early] }));
    expect(snapshot.unordered).toBe(true);
    expect(Array.from(orderedFlags(snapshot), (f) => f.key)).toEqual(['early', 'colour', 'late']);
    expect(toSnapshotDocument(snapshot, undefined)).toEqual(documentOf(source([early, original, late], [pro], '103')));
  });

  it('orders flags created in the same millisecond by key', () => {
    const snapshot = compileSnapshot(source([booleanFlag('m', { createdAt: at(1000) })], []));
    applyDelta(snapshot, delta('100', '101', { flags: [booleanFlag('b', { createdAt: at(1000) })] }));
    applyDelta(snapshot, delta('101', '102', { flags: [booleanFlag('z', { createdAt: at(1000) })] }));
    expect(Array.from(orderedFlags(snapshot), (f) => f.key)).toEqual(['b', 'm', 'z']);
  });

  it('recompiles a changed segment, and every flag that names it sees the new one', () => {
    const [c, g] = [colour(), gate()];
    const snapshot = compileSnapshot(source([c, g], [pro, eu]));
    const entity = (flagKey: string) => ({ flagKey, entityId: 'e', context: { plan: 'gold' } });
    expect(evaluateVariant(snapshot, entity('colour')).match).toBe(false);
    expect(evaluateBoolean(snapshot, entity('gate')).enabled).toBe(true);

    const gold = eqSegment('pro', 'plan', 'gold');
    applyDelta(snapshot, delta('100', '101', { segments: [gold] }));
    expect(evaluateVariant(snapshot, entity('colour'))).toMatchObject({ match: true, variantKey: 'red' });
    expect(evaluateBoolean(snapshot, entity('gate')).enabled).toBe(false);
    expect(snapshot.flags.get('colour')!.rules[0].segments[0].current).toBe(snapshot.segments.get('pro'));
    expect(toSnapshotDocument(snapshot, undefined)).toEqual(documentOf(source([c, g], [gold, eu], '101')));
  });

  it('links a flag that moved to another segment to that segment, and a segment created later to its users', () => {
    const snapshot = compileSnapshot(source([colour()], [pro]));
    const moved = colour({ rules: [rule(1, ['eu'], [dist('blue', 100)])] });
    applyDelta(snapshot, delta('100', '101', { flags: [moved] }));
    const entity = { flagKey: 'colour', entityId: 'e', context: { region: 'eu', plan: 'pro' } };
    expect(evaluateVariant(snapshot, entity).match).toBe(false); // no segment eu yet: left out, so OR finds none
    applyDelta(snapshot, delta('101', '102', { segments: [eu] }));
    expect(evaluateVariant(snapshot, entity)).toMatchObject({ match: true, variantKey: 'blue', segmentKeys: ['eu'] });
    applyDelta(snapshot, delta('102', '103', { removedSegments: ['eu'] }));
    expect(evaluateVariant(snapshot, entity).match).toBe(false);
    expect(toSnapshotDocument(snapshot, undefined)).toEqual(documentOf(source([moved], [pro], '103')));
  });

  it('adds and removes segments', () => {
    const snapshot = compileSnapshot(source([], [pro]));
    applyDelta(snapshot, delta('100', '101', { segments: [eu], removedSegments: ['pro'] }));
    expect([...snapshot.segments.keys()]).toEqual(['eu']);
  });

  it('applies only to the version it follows on from', () => {
    const snapshot = compileSnapshot(source([colour()], [pro], '100'));
    const change = { flags: [colour({ enabled: false })] };
    expect(applyDelta(snapshot, delta('99', '100', change))).toBe('included');
    expect(applyDelta(snapshot, delta('90', '95', change))).toBe('included');
    expect(applyDelta(snapshot, delta('101', '102', change))).toBe('gap');
    expect(snapshot.version).toBe('100');
    expect(snapshot.flags.get('colour')!.enabled).toBe(true);
  });
});
