/**
 * The golden vectors (clients.md A3.6; spec vectors/golden.json = src/core/testdata/golden-vectors.json), produced by
 * @flipt-io/flipt-client-js's engine on vectors/snapshot.json (= src/core/testdata/golden-snapshot.json). The `golden`
 * namespace is rebuilt from that document through the management API, then the server's evaluations must equal the
 * vectors exactly, and the server's own snapshot document must carry the same flag data.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import goldenSnapshot from '../../src/core/testdata/golden-snapshot.json';
import goldenVectors from '../../src/core/testdata/golden-vectors.json';
import { Api, batch, boolean, buildNamespace, FlagSpec, NamespaceSpec, ok, SegmentSpec, thresholdBucket, variant, variantBucket } from './fixtures';

const NS = 'golden';

/** Turns a snapshot document (client-side format) into management-API calls: the inverse of the snapshot endpoint. */
function specFromDocument(doc: typeof goldenSnapshot): NamespaceSpec {
  const segments = new Map<string, SegmentSpec>();
  const addSegment = (s: any) => {
    if (segments.has(s.key)) return;
    segments.set(s.key, {
      key: s.key,
      name: s.name || s.key,
      description: s.description ?? '',
      matchType: s.matchType === 'ANY_SEGMENT_MATCH_TYPE' ? 'ANY_MATCH_TYPE' : 'ALL_MATCH_TYPE',
      constraints: s.constraints.map((c: any) => ({
        type: c.type.replace('_CONSTRAINT_COMPARISON_TYPE', '_COMPARISON_TYPE'),
        property: c.property,
        operator: c.operator,
        value: c.value,
      })),
    });
  };
  const flags: FlagSpec[] = doc.flags.map((f: any) => {
    const variants = new Map<string, string>();
    for (const r of f.rules ?? []) for (const d of r.distributions) variants.set(d.variantKey, d.variantAttachment ?? '');
    if (f.defaultVariant) variants.set(f.defaultVariant.key, f.defaultVariant.attachment ?? '');
    for (const r of f.rules ?? []) (r.segments ?? []).forEach(addSegment);
    for (const r of f.rollouts ?? []) (r.segment?.segments ?? []).forEach(addSegment);
    return {
      key: f.key,
      name: f.name,
      description: f.description,
      enabled: f.enabled,
      type: f.type,
      variants: [...variants].map(([key, attachment]) => ({ key, attachment })),
      defaultVariant: f.defaultVariant?.key,
      rules: [...(f.rules ?? [])]
        .sort((a: any, b: any) => a.rank - b.rank)
        .map((r: any) => ({
          segments: r.segments.map((s: any) => s.key),
          operator: r.segmentOperator,
          distributions: r.distributions.map((d: any) => [d.variantKey, d.rollout] as [string, number]),
        })),
      rollouts: [...(f.rollouts ?? [])]
        .sort((a: any, b: any) => a.rank - b.rank)
        .map((r: any) =>
          r.threshold
            ? { threshold: r.threshold }
            : { segment: { segments: r.segment.segments.map((s: any) => s.key), operator: r.segment.segmentOperator, value: r.segment.value } },
        ),
    };
  });
  return { key: doc.namespace.key, segments: [...segments.values()], flags };
}

/** The evaluation-relevant content of a snapshot document (ids, timestamps and segment names left out). */
function semantics(doc: any) {
  const segment = (s: any) => ({
    key: s.key,
    matchType: s.matchType,
    constraints: s.constraints.map((c: any) => ({ type: c.type, property: c.property, operator: c.operator, value: c.value })),
  });
  return doc.flags.map((f: any) => ({
    key: f.key,
    name: f.name,
    description: f.description,
    enabled: f.enabled,
    type: f.type,
    rules: (f.rules ?? []).map((r: any) => ({
      rank: r.rank,
      segmentOperator: r.segmentOperator,
      segments: r.segments.map(segment),
      distributions: r.distributions.map((d: any) => ({ variantKey: d.variantKey, variantAttachment: d.variantAttachment, rollout: d.rollout })),
    })),
    rollouts: (f.rollouts ?? []).map((r: any) => ({ type: r.type, rank: r.rank, threshold: r.threshold, segment: r.segment })),
  }));
}

describe('golden vectors', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, specFromDocument(goldenSnapshot));
  });
  afterAll(() => fp?.close());

  it('the vectors agree with the hashing oracle (crc32 % 100 and crc32 % 1000)', () => {
    for (const v of goldenVectors) {
      expect(thresholdBucket(v.entityId, 'bool-threshold-50')).toBe(v.crc_bool);
      expect(variantBucket('variant-5050', v.entityId)).toBe(v.variant_bucket);
    }
  });

  it('the server’s snapshot of `golden` carries the same flags as vectors/snapshot.json', async () => {
    const res = await api.get(`/internal/v1/evaluation/snapshot/namespace/${NS}`, undefined, { 'x-flipt-accept-server-version': '1.47.0' });
    expect(res.status).toBe(200);
    expect(res.body.namespace).toEqual({ key: NS });
    expect(semantics(res.body)).toEqual(semantics(goldenSnapshot));
  });

  describe.each(goldenVectors.map((v) => [v.entityId, v] as const))('%s', (entityId, v) => {
    it('boolean bool-threshold-50 (disabled flag, 50% threshold → true), context {}', async () => {
      const r = ok(await boolean(api, { namespaceKey: NS, flagKey: 'bool-threshold-50', entityId, context: {} }));
      expect({ enabled: r.enabled, reason: r.reason, segmentKeys: r.segmentKeys, flagKey: r.flagKey }).toEqual({
        enabled: v.bool_enabled,
        reason: v.bool_reason,
        segmentKeys: [],
        flagKey: 'bool-threshold-50',
      });
      expect(r.enabled).toBe(v.go_bool);
    });

    it('variant variant-5050 (50/50 on pro-users), context {plan: pro}', async () => {
      const r = ok(await variant(api, { namespaceKey: NS, flagKey: 'variant-5050', entityId, context: { plan: 'pro' } }));
      expect({
        match: r.match, reason: r.reason, variantKey: r.variantKey, segmentKeys: r.segmentKeys, variantAttachment: r.variantAttachment,
      }).toEqual({
        match: v.variant_match,
        reason: v.variant_reason,
        variantKey: v.variant_key,
        segmentKeys: [v.variant_segments],
        variantAttachment: v.variant_attachment,
      });
      expect(r.variantKey).toBe(v.go_variant);
    });
  });

  describe('further vectors of the same run (clients.md A3.6)', () => {
    it('variant-5050 without plan pro → no match, UNKNOWN, "" (the server also emits variantAttachment "")', async () => {
      for (const context of [{ plan: 'free' }, {}] as Array<Record<string, string>>) {
        const r = ok(await variant(api, { namespaceKey: NS, flagKey: 'variant-5050', entityId: 'user-1', context }));
        expect(r).toMatchObject({ match: false, reason: 'UNKNOWN_EVALUATION_REASON', variantKey: '', segmentKeys: [], variantAttachment: '' });
      }
    });

    it('batch [boolean user-1, variant user-1 pro, missing]', async () => {
      const body = ok(
        await batch(api, [
          { namespaceKey: NS, flagKey: 'bool-threshold-50', entityId: 'user-1', context: {} },
          { namespaceKey: NS, flagKey: 'variant-5050', entityId: 'user-1', context: { plan: 'pro' } },
          { namespaceKey: NS, flagKey: 'missing', entityId: 'user-1', context: {} },
        ]),
      );
      expect(body.responses.map((r: any) => r.type)).toEqual([
        'BOOLEAN_EVALUATION_RESPONSE_TYPE', 'VARIANT_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE',
      ]);
      expect(body.responses[0].booleanResponse).toMatchObject({ enabled: true, reason: 'MATCH_EVALUATION_REASON' });
      expect(body.responses[1].variantResponse).toMatchObject({ variantKey: 'treatment', match: true, reason: 'MATCH_EVALUATION_REASON' });
      expect(body.responses[2].errorResponse).toEqual({ flagKey: 'missing', namespaceKey: NS, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' });
    });

    it('a variant flag with no rules and default variant `fallback` → DEFAULT fallback {"a":1}; disabled → FLAG_DISABLED ""', async () => {
      await buildNamespace(api, {
        key: 'golden-extra',
        flags: [
          { key: 'with-default', variants: [{ key: 'fallback', attachment: '{"a":1}' }], defaultVariant: 'fallback' },
          { key: 'disabled', enabled: false, variants: [{ key: 'v' }] },
        ],
      });
      const d = ok(await variant(api, { namespaceKey: 'golden-extra', flagKey: 'with-default', entityId: 'user-1' }));
      expect(d).toMatchObject({ match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'fallback', variantAttachment: '{"a":1}' });
      const off = ok(await variant(api, { namespaceKey: 'golden-extra', flagKey: 'disabled', entityId: 'user-1' }));
      expect(off).toMatchObject({ match: false, reason: 'FLAG_DISABLED_EVALUATION_REASON', variantKey: '' });
    });
  });
});
