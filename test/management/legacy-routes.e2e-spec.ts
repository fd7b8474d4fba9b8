/**
 * The legacy un-namespaced routes (`/api/v1/flags`, `/api/v1/segments`, …): the namespace comes from `namespaceKey`
 * in the body (writes) or the query (reads, deletes), default `default` (facts §2.1, §2.6, §15).
 */
import { createNamespace, expectError, N, ok, useFlagpole } from './support';

describe('legacy un-namespaced routes', () => {
  const ctx = useFlagpole();

  beforeAll(async () => {
    await createNamespace(ctx.api, 'production');
  });

  describe('without namespaceKey: the default namespace', () => {
    let variant: any;
    let rule: any;
    let rule2: any;
    let constraint: any;
    let distribution: any;

    it('flags', async () => {
      const created = ok(await ctx.api.post('/api/v1/flags', { key: 'legacy', name: 'Legacy', enabled: true }));
      expect(created).toMatchObject({ key: 'legacy', namespaceKey: 'default' });
      expect(ok(await ctx.api.get(`${N('default')}/flags/legacy`))).toEqual(created);
      expect(ok(await ctx.api.get('/api/v1/flags/legacy'))).toEqual(created);
      const list = ok(await ctx.api.get('/api/v1/flags'));
      expect(list).toMatchObject({ totalCount: 1, nextPageToken: '' });
      expect(list.flags[0].key).toBe('legacy');
      expect(ok(await ctx.api.put('/api/v1/flags/legacy', { name: 'Legacy 2', enabled: true }))).toMatchObject({ name: 'Legacy 2', namespaceKey: 'default' });
      expectError(await ctx.api.get('/api/v1/flags/nope'), 404, 5, 'flag "default/nope" not found');
    });

    it('variants', async () => {
      variant = ok(await ctx.api.post('/api/v1/flags/legacy/variants', { key: 'one', attachment: '{ "a": 1 }' }));
      expect(variant).toMatchObject({ key: 'one', flagKey: 'legacy', namespaceKey: 'default', attachment: '{"a":1}' });
      const updated = ok(await ctx.api.put(`/api/v1/flags/legacy/variants/${variant.id}`, { key: 'one', name: 'One' }));
      expect(updated).toMatchObject({ id: variant.id, name: 'One' });
      expect(ok(await ctx.api.get(`${N('default')}/flags/legacy`)).variants).toEqual([updated]);
    });

    it('segments and constraints', async () => {
      const seg = ok(await ctx.api.post('/api/v1/segments', { key: 'everyone', name: 'Everyone', matchType: 'ANY_MATCH_TYPE' }));
      expect(seg).toMatchObject({ key: 'everyone', namespaceKey: 'default', matchType: 'ANY_MATCH_TYPE' });
      ok(await ctx.api.post('/api/v1/segments', { key: 'other', name: 'Other' }));
      expect(ok(await ctx.api.get('/api/v1/segments/everyone')).key).toBe('everyone');
      expect(ok(await ctx.api.get('/api/v1/segments')).totalCount).toBe(2);
      ok(await ctx.api.put('/api/v1/segments/everyone', { name: 'All', matchType: 'ANY_MATCH_TYPE' }));
      constraint = ok(await ctx.api.post('/api/v1/segments/everyone/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'foo', operator: 'eq', value: 'bar' }));
      expect(constraint).toMatchObject({ segmentKey: 'everyone', namespaceKey: 'default' });
      const c2 = ok(await ctx.api.put(`/api/v1/segments/everyone/constraints/${constraint.id}`, {
        type: 'STRING_COMPARISON_TYPE', property: 'foo', operator: 'eq', value: 'baz',
      }));
      expect(c2.value).toBe('baz');
      expect(ok(await ctx.api.get(`${N('default')}/segments/everyone`))).toMatchObject({ name: 'All', constraints: [c2] });
    });

    it('rules, order and distributions', async () => {
      rule = ok(await ctx.api.post('/api/v1/flags/legacy/rules', { segmentKey: 'everyone', rank: 1 }));
      rule2 = ok(await ctx.api.post('/api/v1/flags/legacy/rules', { segmentKey: 'other', rank: 2 }));
      expect(rule).toMatchObject({ flagKey: 'legacy', namespaceKey: 'default', segmentKey: 'everyone' });
      expect(ok(await ctx.api.get(`/api/v1/flags/legacy/rules/${rule.id}`)).id).toBe(rule.id);
      ok(await ctx.api.put(`/api/v1/flags/legacy/rules/${rule2.id}`, { segmentKeys: ['everyone', 'other'], segmentOperator: 'AND_SEGMENT_OPERATOR' }));
      ok(await ctx.api.put('/api/v1/flags/legacy/rules/order', { ruleIds: [rule2.id, rule.id] }));
      const list = ok(await ctx.api.get('/api/v1/flags/legacy/rules'));
      expect(list.rules.map((r: { id: string; rank: number }) => [r.id, r.rank])).toEqual([[rule2.id, 1], [rule.id, 2]]);
      distribution = ok(await ctx.api.post(`/api/v1/flags/legacy/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 100 }));
      const updated = ok(await ctx.api.put(`/api/v1/flags/legacy/rules/${rule.id}/distributions/${distribution.id}`, { variantId: variant.id, rollout: 50 }));
      expect(updated.rollout).toBe(50);
      expect(ok(await ctx.api.get(`${N('default')}/flags/legacy/rules/${rule.id}`)).distributions).toEqual([updated]);
    });

    it('deletes', async () => {
      ok(await ctx.api.delete(`/api/v1/flags/legacy/rules/${rule.id}/distributions/${distribution.id}?variantId=${variant.id}`));
      expect(ok(await ctx.api.get(`${N('default')}/flags/legacy/rules/${rule.id}`)).distributions).toEqual([]);
      ok(await ctx.api.delete(`/api/v1/flags/legacy/rules/${rule.id}`));
      ok(await ctx.api.delete(`/api/v1/flags/legacy/rules/${rule2.id}`));
      expect(ok(await ctx.api.get('/api/v1/flags/legacy/rules')).totalCount).toBe(0);
      ok(await ctx.api.delete(`/api/v1/flags/legacy/variants/${variant.id}`));
      expect(ok(await ctx.api.get('/api/v1/flags/legacy')).variants).toEqual([]);
      ok(await ctx.api.delete(`/api/v1/segments/everyone/constraints/${constraint.id}`));
      expect(ok(await ctx.api.get('/api/v1/segments/everyone')).constraints).toEqual([]);
      ok(await ctx.api.delete('/api/v1/segments/everyone'));
      expectError(await ctx.api.get('/api/v1/segments/everyone'), 404, 5, 'segment "default/everyone" not found');
      ok(await ctx.api.delete('/api/v1/flags/legacy'));
      expectError(await ctx.api.get('/api/v1/flags/legacy'), 404, 5, 'flag "default/legacy" not found');
    });
  });

  describe('with namespaceKey in the body or query', () => {
    let variant: any;
    let rule: any;
    let dist: any;

    it('creates in the named namespace, reads and updates there', async () => {
      const flag = ok(await ctx.api.post('/api/v1/flags', { key: 'prodflag', name: 'P', namespaceKey: 'production' }));
      expect(flag.namespaceKey).toBe('production');
      ok(await ctx.api.get(`${N('production')}/flags/prodflag`));
      expectError(await ctx.api.get('/api/v1/flags/prodflag'), 404, 5, 'flag "default/prodflag" not found');
      expect(ok(await ctx.api.get('/api/v1/flags/prodflag?namespaceKey=production')).namespaceKey).toBe('production');
      expect(ok(await ctx.api.get('/api/v1/flags?namespaceKey=production')).flags.map((f: { key: string }) => f.key)).toEqual(['prodflag']);
      expect(ok(await ctx.api.put('/api/v1/flags/prodflag', { name: 'P2', namespaceKey: 'production' })).name).toBe('P2');
      expectError(await ctx.api.put('/api/v1/flags/prodflag', { name: 'P3' }), 404, 5, 'flag "default/prodflag" not found');

      variant = ok(await ctx.api.post('/api/v1/flags/prodflag/variants', { key: 'v', namespaceKey: 'production' }));
      expect(variant.namespaceKey).toBe('production');
      expectError(await ctx.api.post('/api/v1/flags/prodflag/variants', { key: 'v' }), 404, 5, 'flag "default/prodflag" not found');

      ok(await ctx.api.post('/api/v1/segments', { key: 'seg', name: 'S', namespaceKey: 'production' }));
      expect(ok(await ctx.api.get('/api/v1/segments/seg?namespaceKey=production')).namespaceKey).toBe('production');
      const c = ok(await ctx.api.post('/api/v1/segments/seg/constraints', {
        type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v', namespaceKey: 'production',
      }));
      expect(c.namespaceKey).toBe('production');

      rule = ok(await ctx.api.post('/api/v1/flags/prodflag/rules', { segmentKey: 'seg', rank: 1, namespaceKey: 'production' }));
      expect(rule.namespaceKey).toBe('production');
      expectError(await ctx.api.post('/api/v1/flags/prodflag/rules', { segmentKey: 'seg', rank: 1 }), 404, 5,
        'flag "default/prodflag" or segment "default/seg" not found');
      expect(ok(await ctx.api.get(`/api/v1/flags/prodflag/rules?namespaceKey=production`)).totalCount).toBe(1);
      expect(ok(await ctx.api.get(`/api/v1/flags/prodflag/rules/${rule.id}?namespaceKey=production`)).id).toBe(rule.id);
      expectError(await ctx.api.get(`/api/v1/flags/prodflag/rules/${rule.id}`), 404, 5, `rule "default/${rule.id}" not found`);

      dist = ok(await ctx.api.post(`/api/v1/flags/prodflag/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 10, namespaceKey: 'production' }));
      expectError(await ctx.api.post(`/api/v1/flags/prodflag/rules/${rule.id}/distributions`, { variantId: variant.id, rollout: 10 }), 404, 5,
        `variant "${variant.id}", rule "${rule.id}", flag "prodflag" in namespace "default" not found`);
    });

    it('accepts the snake_case namespace_key in the body and the query', async () => {
      const flag = ok(await ctx.api.post('/api/v1/flags', { key: 'snake', name: 'S', namespace_key: 'production' }));
      expect(flag.namespaceKey).toBe('production');
      expect(ok(await ctx.api.get('/api/v1/flags/snake?namespace_key=production')).key).toBe('snake');
      // The JSON name wins when both are given.
      const both = ok(await ctx.api.post('/api/v1/flags', { key: 'both', name: 'B', namespaceKey: 'production', namespace_key: 'default' }));
      expect(both.namespaceKey).toBe('production');
    });

    it('deletes in the named namespace (namespaceKey in the query); without it the default namespace is targeted', async () => {
      // No namespaceKey: the delete targets default, where the flag does not exist, and succeeds doing nothing.
      ok(await ctx.api.delete('/api/v1/flags/snake'));
      ok(await ctx.api.get(`${N('production')}/flags/snake`));
      ok(await ctx.api.delete('/api/v1/flags/snake?namespaceKey=production'));
      expectError(await ctx.api.get(`${N('production')}/flags/snake`), 404, 5, 'flag "production/snake" not found');

      ok(await ctx.api.delete(`/api/v1/flags/prodflag/rules/${rule.id}/distributions/${dist.id}?variantId=${variant.id}&namespaceKey=production`));
      expect(ok(await ctx.api.get(`${N('production')}/flags/prodflag/rules/${rule.id}`)).distributions).toEqual([]);
      ok(await ctx.api.delete(`/api/v1/flags/prodflag/rules/${rule.id}`));
      expect(ok(await ctx.api.get(`${N('production')}/flags/prodflag/rules`)).totalCount).toBe(1);
      ok(await ctx.api.delete(`/api/v1/flags/prodflag/rules/${rule.id}?namespaceKey=production`));
      expect(ok(await ctx.api.get(`${N('production')}/flags/prodflag/rules`)).totalCount).toBe(0);
      ok(await ctx.api.delete(`/api/v1/flags/prodflag/variants/${variant.id}?namespaceKey=production`));
      expect(ok(await ctx.api.get(`${N('production')}/flags/prodflag`)).variants).toEqual([]);
      ok(await ctx.api.delete('/api/v1/segments/seg?namespaceKey=production'));
      expectError(await ctx.api.get(`${N('production')}/segments/seg`), 404, 5, 'segment "production/seg" not found');
    });
  });

  it('an empty namespaceKey means default', async () => {
    const flag = ok(await ctx.api.post('/api/v1/flags', { key: 'empty_ns', name: 'E', namespaceKey: '' }));
    expect(flag.namespaceKey).toBe('default');
    expect(ok(await ctx.api.get('/api/v1/flags/empty_ns?namespaceKey=')).namespaceKey).toBe('default');
  });
});
