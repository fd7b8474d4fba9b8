/**
 * The management part of Flipt's own `api` integration suite (facts §13.1), over HTTP: run for the `default`
 * namespace, then for `production`, each ending with Flipt's deletion order.
 */
import { Api, expectError, N, ok, useFlagpole } from './support';

describe('Flipt api suite (management)', () => {
  const ctx = useFlagpole();

  describe('namespaces', () => {
    it('default cannot be created again, can be updated, cannot be deleted', async () => {
      expectError(await ctx.api.post('/api/v1/namespaces', { key: 'default', name: 'Default' }), 400, 3, 'namespace "default" is not unique');
      const updated = ok(await ctx.api.put('/api/v1/namespaces/default', { name: 'Default', description: 'Some namespace description.' }));
      expect(updated).toMatchObject({ key: 'default', name: 'Default', description: 'Some namespace description.' });
      expectError(await ctx.api.delete('/api/v1/namespaces/default'), 400, 3, 'namespace "default" is protected');
    });

    it('production is created, read, listed after default, and updated', async () => {
      const created = ok(await ctx.api.post('/api/v1/namespaces', { key: 'production', name: 'production' }));
      expect(created).toMatchObject({ key: 'production', name: 'production' });
      expect(ok(await ctx.api.get('/api/v1/namespaces/production')).name).toBe('production');
      expectError(await ctx.api.get('/api/v1/namespaces?pageToken=Hello%20World'), 400, 3, 'pageToken is not valid: "Hello World"');
      const list = ok(await ctx.api.get('/api/v1/namespaces'));
      expect(list.namespaces.map((n: { key: string }) => n.key)).toEqual(['default', 'production']);
      const updated = ok(await ctx.api.put('/api/v1/namespaces/production', { name: 'production', description: 'Some kind of description' }));
      expect(updated.description).toBe('Some kind of description');
    });
  });

  for (const ns of ['default', 'production']) {
    describe(`in namespace ${ns}`, () => suite(ns, () => ctx.api));
  }
});

function suite(ns: string, api: () => Api): void {
  const flags = `${N(ns)}/flags`;
  const segments = `${N(ns)}/segments`;
  const state: Record<string, any> = {};

  it('flags: test, disabled, boolean_enabled, boolean_disabled', async () => {
    const specs = [
      { key: 'test', name: 'Test', description: 'This is a test flag', enabled: true },
      { key: 'disabled', name: 'Disabled', description: 'This is a disabled test flag', enabled: false },
      { key: 'boolean_enabled', name: 'Boolean Enabled', description: 'This is an enabled boolean test flag', enabled: true, type: 'BOOLEAN_FLAG_TYPE' },
      { key: 'boolean_disabled', name: 'Boolean Disabled', description: 'This is a disabled boolean test flag', enabled: false, type: 'BOOLEAN_FLAG_TYPE' },
    ];
    for (const spec of specs) {
      const created = ok(await api().post(flags, spec));
      expect(created).toMatchObject({ ...spec, type: spec.type ?? 'VARIANT_FLAG_TYPE', namespaceKey: ns, variants: [] });
      state[spec.key] = created;
    }
    expect(ok(await api().get(`${flags}/test`))).toEqual(state.test);

    const updated = ok(await api().put(`${flags}/test`, { name: 'Test 2', description: 'This is a test flag', enabled: true }));
    expect(updated.name).toBe('Test 2');
    state.test = updated;

    expectError(await api().get(`${flags}?pageToken=Hello%20World&limit=10`), 400, 3, 'pageToken is not valid: "Hello World"');
    const list = ok(await api().get(flags));
    expect(list.flags).toHaveLength(4);
    expect(list.flags.map((f: any) => [f.key, f.name, f.description, f.enabled])).toEqual(
      [state.test, state.disabled, state.boolean_enabled, state.boolean_disabled].map((f) => [f.key, f.name, f.description, f.enabled]),
    );
  });

  it('variants one and two; rename; default variant set and reset', async () => {
    for (const key of ['one', 'two']) {
      expect(ok(await api().post(`${flags}/test/variants`, { key, name: key }))).toMatchObject({ key, name: key, flagKey: 'test', namespaceKey: ns });
    }
    const flag = ok(await api().get(`${flags}/test`));
    expect(flag.variants.map((v: { key: string }) => v.key)).toEqual(['one', 'two']);
    const renamed = ok(await api().put(`${flags}/test/variants/${flag.variants[0].id}`, { key: 'one', name: 'One' }));
    expect(renamed).toMatchObject({ key: 'one', name: 'One' });
    state.one = renamed;
    state.two = flag.variants[1];

    ok(await api().put(`${flags}/test`, { name: 'Test 2', description: 'This is a test flag', enabled: true, defaultVariantId: state.one.id }));
    expect(ok(await api().get(`${flags}/test`)).defaultVariant).toMatchObject({ id: state.one.id, key: 'one', name: 'One' });
    ok(await api().put(`${flags}/test`, { name: 'Test 2', description: 'This is a test flag', enabled: true, defaultVariantId: '' }));
    expect(ok(await api().get(`${flags}/test`))).not.toHaveProperty('defaultVariant');
  });

  it('segment everyone with constraints; segments segment and another-segment', async () => {
    const created = ok(await api().post(segments, { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' }));
    expect(created).toMatchObject({ key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' });
    expect(ok(await api().get(`${segments}/everyone`))).toEqual(created);
    const updated = ok(await api().put(`${segments}/everyone`, { name: 'All the peeps', matchType: 'ALL_MATCH_TYPE' }));
    expect(updated).toMatchObject({ key: 'everyone', name: 'All the peeps', matchType: 'ALL_MATCH_TYPE' });

    for (const [property, operator, value] of [['foo', 'eq', 'bar'], ['fizz', 'neq', 'buzz']]) {
      const c = ok(await api().post(`${segments}/everyone/constraints`, { type: 'STRING_COMPARISON_TYPE', property, operator, value }));
      expect(c).toMatchObject({ property, operator, value });
    }
    const segment = ok(await api().get(`${segments}/everyone`));
    expect(segment.constraints.map((c: { property: string }) => c.property)).toEqual(['foo', 'fizz']);
    const [first] = segment.constraints;
    const c = ok(await api().put(`${segments}/everyone/constraints/${first.id}`, {
      type: first.type, property: first.property, operator: first.operator, value: 'baz', description: 'newdesc',
    }));
    expect(c).toMatchObject({ type: 'STRING_COMPARISON_TYPE', property: 'foo', operator: 'eq', value: 'baz', description: 'newdesc' });

    for (const [key, property] of [['segment', 'first'], ['another-segment', 'second']]) {
      ok(await api().post(segments, { key, name: key, matchType: 'ALL_MATCH_TYPE' }));
      ok(await api().post(`${segments}/${key}/constraints`, { type: 'STRING_COMPARISON_TYPE', property, operator: 'eq', value: key }));
    }
  });

  it('rules: create, get, multi-segment update, namespace isolation, list, order', async () => {
    const rules = `${flags}/test/rules`;
    const r1 = ok(await api().post(rules, { segmentKey: 'everyone', rank: 1 }));
    expect(r1).toMatchObject({ flagKey: 'test', segmentKey: 'everyone', rank: 1 });
    expect(ok(await api().get(`${rules}/${r1.id}`))).toMatchObject({ flagKey: 'test', segmentKey: 'everyone', rank: 1 });
    const r2 = ok(await api().post(rules, { segmentKey: 'everyone', rank: 2 }));
    expect(r2).toMatchObject({ flagKey: 'test', segmentKey: 'everyone', rank: 2 });
    const r3 = ok(await api().post(rules, { segmentKey: 'another-segment', rank: 3 }));
    const r3u = ok(await api().put(`${rules}/${r3.id}`, { segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR' }));
    expect(r3u.segmentKeys).toEqual(expect.arrayContaining(['segment', 'another-segment']));
    expect(r3u).toMatchObject({ rank: 3, segmentOperator: 'AND_SEGMENT_OPERATOR' });

    if (ns !== 'default') {
      // No namespace: `default`, which has no flag "test" (and no segment "everyone") by now.
      expectError(await api().post('/api/v1/flags/test/rules', { segmentKey: 'everyone', rank: 2 }), 404, 5,
        'flag "default/test" or segment "default/everyone" not found');
    }

    expectError(await api().get(`${rules}?pageToken=Hello%20World&limit=10`), 400, 3, 'pageToken is not valid: "Hello World"');
    const list = ok(await api().get(rules));
    expect(list.rules.map((r: { id: string }) => r.id)).toEqual([r1.id, r2.id, r3.id]);

    ok(await api().put(`${rules}/order`, { ruleIds: [r2.id, r1.id, r3.id] }));
    const reordered = ok(await api().get(rules));
    expect(reordered.rules.map((r: { id: string; rank: number }) => [r.id, r.rank])).toEqual([[r2.id, 1], [r1.id, 2], [r3.id, 3]]);
    Object.assign(state, { r1, r2, r3 });
  });

  it('distributions: 100% on the first rule, namespace isolation, update to variant two', async () => {
    const rules = `${flags}/test/rules`;
    const flag = ok(await api().get(`${flags}/test`));
    const d = ok(await api().post(`${rules}/${state.r2.id}/distributions`, { variantId: flag.variants[0].id, rollout: 100 }));
    expect(d).toMatchObject({ ruleId: state.r2.id, variantId: state.one.id, rollout: 100 });

    if (ns !== 'default') {
      const defaultFlag = ok(await api().post('/api/v1/flags', { key: 'defaultflag', name: 'DefaultFlag', description: 'default flag description', enabled: true }));
      expect(defaultFlag.namespaceKey).toBe('default');
      const defaultVariant = ok(await api().post('/api/v1/flags/defaultflag/variants', {
        key: 'defaultvariant', name: 'DefaultVariant', description: 'default variant description',
      }));
      expectError(await api().post(`/api/v1/flags/test/rules/${state.r2.id}/distributions`, { variantId: defaultVariant.id, rollout: 100 }), 404, 5,
        `variant "${defaultVariant.id}", rule "${state.r2.id}", flag "test" in namespace "default" not found`);
      expectError(await api().put(`${rules}/${state.r2.id}/distributions/${d.id}`, { variantId: defaultVariant.id, rollout: 50 }), 404, 5,
        `variant "${defaultVariant.id}", rule "${state.r2.id}", flag "test" in namespace "${ns}" not found`);
      ok(await api().delete('/api/v1/flags/defaultflag'));
      ok(await api().delete(`/api/v1/flags/defaultflag/variants/${defaultVariant.id}`));
    }

    const d3 = ok(await api().post(`${rules}/${state.r3.id}/distributions`, { variantId: state.one.id, rollout: 100 }));
    const d3u = ok(await api().put(`${rules}/${state.r3.id}/distributions/${d3.id}`, { variantId: state.two.id, rollout: 100 }));
    expect(d3u).toMatchObject({ id: d3.id, variantId: state.two.id, rollout: 100 });
    const r3 = ok(await api().get(`${rules}/${state.r3.id}`));
    expect(r3.distributions).toEqual([d3u]);
  });

  it('boolean rollouts on boolean_disabled', async () => {
    const rollouts = `${flags}/boolean_disabled/rollouts`;
    expectError(await api().post(rollouts, { rank: 1, threshold: { percentage: 101, value: true } }), 400, 3,
      'invalid field threshold.percentage: must be within range [0, 100]');

    const seg = ok(await api().post(rollouts, { description: 'matches a segment', rank: 1, segment: { segmentKey: 'everyone', value: true } }));
    expect(seg).toMatchObject({ namespaceKey: ns, flagKey: 'boolean_disabled', rank: 1, segment: { segmentKey: 'everyone', value: true } });
    const seg2 = ok(await api().post(rollouts, { description: 'matches another', rank: 2, segment: { segmentKey: 'another-segment', value: false } }));
    const seg2u = ok(await api().put(`${rollouts}/${seg2.id}`, {
      description: 'matches another', segment: { segmentKeys: ['another-segment', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false },
    }));
    expect(seg2u.segment).toEqual({ segmentKey: '', value: false, segmentKeys: ['another-segment', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
    const threshold = ok(await api().post(rollouts, { description: '50% disabled', rank: 3, threshold: { percentage: 50, value: true } }));
    expect(threshold).toMatchObject({ namespaceKey: ns, flagKey: 'boolean_disabled', rank: 3, threshold: { percentage: 50, value: true } });

    expectError(await api().post(rollouts, { rank: 2, threshold: { percentage: 5 } }), 400, 3, 'rank number: 2 already exists');
    expectError(await api().post(rollouts, { rank: 4, segment: { segmentKey: 'thisdoesnotexist', value: true } }), 404, 5,
      `flag "${ns}/boolean_disabled or segment thisdoesnotexist" not found`);

    const list = ok(await api().get(rollouts));
    expect(list.rules).toEqual([seg, seg2u, threshold]);

    expectError(await api().put(`${rollouts}/${threshold.id}`, { threshold: { percentage: 200 } }), 400, 3,
      'invalid field threshold.percentage: must be within range [0, 100]');
    const updated = ok(await api().put(`${rollouts}/${threshold.id}`, { description: '50% enabled', threshold: { percentage: 50, value: false } }));
    expect(updated).toMatchObject({ namespaceKey: ns, flagKey: 'boolean_disabled', description: '50% enabled', rank: 3, threshold: { percentage: 50, value: false } });
    expectError(await api().put(`${rollouts}/${threshold.id}`, { description: '50% enabled', segment: { segmentKey: 'everyone', value: true } }), 400, 3,
      'cannot change type of rollout: have "THRESHOLD_ROLLOUT_TYPE" attempted "SEGMENT_ROLLOUT_TYPE"');
  });

  it('delete: namespace with flags refused; rules, flags, segments, then the namespace', async () => {
    if (ns !== 'default') {
      expectError(await api().delete(`/api/v1/namespaces/${ns}`), 400, 3, `namespace "${ns}" cannot be deleted; flags must be deleted first`);
    }
    // Segments are in use while rules and rollouts reference them.
    expectError(await api().delete(`${segments}/everyone`), 400, 3, `segment "${ns}/everyone" is in use`);

    for (const rule of ok(await api().get(`${flags}/test/rules`)).rules) ok(await api().delete(`${flags}/test/rules/${rule.id}`));
    expect(ok(await api().get(`${flags}/test/rules`)).rules).toEqual([]);
    for (const flag of ok(await api().get(flags)).flags) ok(await api().delete(`${flags}/${flag.key}`));
    expect(ok(await api().get(flags))).toEqual({ flags: [], nextPageToken: '', totalCount: 0 });
    for (const key of ['everyone', 'segment', 'another-segment']) ok(await api().delete(`${segments}/${key}`));
    expect(ok(await api().get(segments))).toEqual({ segments: [], nextPageToken: '', totalCount: 0 });

    if (ns !== 'default') {
      ok(await api().delete(`/api/v1/namespaces/${ns}`));
      expectError(await api().get(`/api/v1/namespaces/${ns}`), 404, 5, `namespace "${ns}" not found`);
    }
  });
}
