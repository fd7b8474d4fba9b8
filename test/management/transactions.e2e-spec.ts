/**
 * Writes are all-or-nothing, and deletes cascade as Flipt's foreign keys do (facts §9.3 consequences, §9.4, §15):
 * checked through later GETs and lists.
 */
import {
  createDistribution, createFlag, createNamespace, createRollout, createRule, createSegment, createVariant, expectError, inParallel, N, ok,
  useFlagpole,
} from './support';

describe('transactions and cascades', () => {
  const ctx = useFlagpole();
  const flags = `${N('default')}/flags`;

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'test', { enabled: true });
    await createFlag(ctx.api, 'default', 'bool', { type: 'BOOLEAN_FLAG_TYPE' });
    await createSegment(ctx.api, 'default', 'everyone');
  });

  describe('a failed write changes nothing', () => {
    it('a rule whose second segment is missing leaves no rule (and no segment reference)', async () => {
      expectError(await ctx.api.post(`${flags}/test/rules`, { segmentKeys: ['everyone', 'ghost'], rank: 1 }), 404, 5,
        'flag "default/test" or segment "default/" not found');
      expect(ok(await ctx.api.get(`${flags}/test/rules`))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
      // Nothing holds "everyone": it can be deleted (and is re-created for the next tests).
      ok(await ctx.api.delete(`${N('default')}/segments/everyone`));
      await createSegment(ctx.api, 'default', 'everyone');
    });

    it('a rollout whose segment is missing leaves no rollout', async () => {
      const r = await ctx.api.post(`${flags}/bool/rollouts`, { rank: 1, segment: { segmentKeys: ['everyone', 'ghost'], value: true } });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 5 });
      expect(ok(await ctx.api.get(`${flags}/bool/rollouts`))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
      // Rank 1 is still free.
      ok(await ctx.api.post(`${flags}/bool/rollouts`, { rank: 1, threshold: { percentage: 1 } }));
    });

    it('a refused rollout update (type change) leaves the rollout as it was', async () => {
      const r = (await ctx.api.get(`${flags}/bool/rollouts`)).body.rules[0];
      expectError(await ctx.api.put(`${flags}/bool/rollouts/${r.id}`, { description: 'changed', segment: { segmentKey: 'everyone' } }), 400, 3,
        'cannot change type of rollout: have "THRESHOLD_ROLLOUT_TYPE" attempted "SEGMENT_ROLLOUT_TYPE"');
      expect(ok(await ctx.api.get(`${flags}/bool/rollouts/${r.id}`))).toEqual(r);
    });

    it('a segment rollout update naming a missing segment keeps its old segments', async () => {
      const r = await createRollout(ctx.api, 'default', 'bool', { rank: 2, segment: { segmentKey: 'everyone', value: true } });
      const res = await ctx.api.put(`${flags}/bool/rollouts/${r.id}`, { description: 'changed', segment: { segmentKeys: ['everyone', 'ghost'] } });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 5 });
      expect(ok(await ctx.api.get(`${flags}/bool/rollouts/${r.id}`))).toEqual(r);
    });

    it('a duplicate variant leaves one variant; a bad default variant leaves the flag unchanged', async () => {
      const v = await createVariant(ctx.api, 'default', 'test', 'one');
      expectError(await ctx.api.post(`${flags}/test/variants`, { key: 'one', name: 'again' }), 400, 3, 'variant "one" is not unique for flag "default/test"');
      const flag = ok(await ctx.api.get(`${flags}/test`));
      expect(flag.variants).toEqual([v]);
      expectError(await ctx.api.put(`${flags}/test`, { name: 'Renamed', enabled: false, defaultVariantId: 'nope' }), 400, 3,
        'variant "nope" not found for flag "default/test"');
      expect(ok(await ctx.api.get(`${flags}/test`))).toEqual(flag);
    });

    it('a distribution with a missing variant is not created', async () => {
      const rule = await createRule(ctx.api, 'default', 'test', { segmentKey: 'everyone', rank: 1 });
      expectError(await ctx.api.post(`${flags}/test/rules/${rule.id}/distributions`, { variantId: 'nope', rollout: 50 }), 404, 5,
        `variant "nope", rule "${rule.id}", flag "test" in namespace "default" not found`);
      expect(ok(await ctx.api.get(`${flags}/test/rules/${rule.id}`)).distributions).toEqual([]);
      ok(await ctx.api.delete(`${flags}/test/rules/${rule.id}`));
    });

    it('concurrent duplicate creates: exactly one wins, the others get "is not unique", never a 5xx', async () => {
      const results = await inParallel(Array.from({ length: 8 }), 8, () => ctx.api.post(flags, { key: 'race', name: 'Race' }));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { code: 3, message: 'flag "default/race" is not unique', details: [] } });
      }
      const segs = await inParallel(Array.from({ length: 8 }), 8, () => ctx.api.post(`${N('default')}/segments`, { key: 'race', name: 'Race' }));
      expect(segs.filter((r) => r.status === 200)).toHaveLength(1);
      expect(segs.every((r) => r.status === 200 || r.body.message === 'segment "default/race" is not unique')).toBe(true);
      const vars = await inParallel(Array.from({ length: 8 }), 8, () => ctx.api.post(`${flags}/race/variants`, { key: 'v' }));
      expect(vars.filter((r) => r.status === 200)).toHaveLength(1);
      expect(vars.every((r) => r.status === 200 || r.body.message === 'variant "v" is not unique for flag "default/race"')).toBe(true);
    });
  });

  describe('deleting a flag', () => {
    let variant: any;
    let rule: any;
    let dist: any;
    let rollout: any;

    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'doomed', { enabled: true });
      await createFlag(ctx.api, 'default', 'doomed_bool', { type: 'BOOLEAN_FLAG_TYPE' });
      await createSegment(ctx.api, 'default', 'held');
      variant = await createVariant(ctx.api, 'default', 'doomed', 'v1', { attachment: '{"a":1}' });
      ok(await ctx.api.put(`${flags}/doomed`, { name: 'doomed', enabled: true, defaultVariantId: variant.id }));
      rule = await createRule(ctx.api, 'default', 'doomed', { segmentKeys: ['held', 'everyone'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 });
      dist = await createDistribution(ctx.api, 'default', 'doomed', rule.id, { variantId: variant.id, rollout: 100 });
      rollout = await createRollout(ctx.api, 'default', 'doomed', { rank: 1, segment: { segmentKey: 'held', value: true } });
    });

    it('removes its variants, rules, distributions and rollouts', async () => {
      expectError(await ctx.api.delete(`${N('default')}/segments/held`), 400, 3, 'segment "default/held" is in use');
      expect(ok(await ctx.api.delete(`${flags}/doomed`))).toEqual({});

      expectError(await ctx.api.get(`${flags}/doomed`), 404, 5, 'flag "default/doomed" not found');
      expectError(await ctx.api.get(`${flags}/doomed/rules/${rule.id}`), 404, 5, `rule "default/${rule.id}" not found`);
      expectError(await ctx.api.get(`${flags}/doomed/rollouts/${rollout.id}`), 404, 5, `rollout "default/${rollout.id}" not found`);
      expect(ok(await ctx.api.get(`${flags}/doomed/rules`))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
      expect(ok(await ctx.api.get(`${flags}/doomed/rollouts`))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
      expect(ok(await ctx.api.get(flags)).flags.map((f: { key: string }) => f.key)).not.toContain('doomed');
      // The distribution went with its rule: updating it is a 404 for the missing rule/variant/flag.
      expectError(await ctx.api.put(`${flags}/doomed/rules/${rule.id}/distributions/${dist.id}`, { variantId: variant.id, rollout: 1 }), 404, 5,
        `variant "${variant.id}", rule "${rule.id}", flag "doomed" in namespace "default" not found`);

      // Its segments are free again.
      expect(ok(await ctx.api.delete(`${N('default')}/segments/held`))).toEqual({});
    });

    it('a flag re-created under the same key starts empty', async () => {
      const again = await createFlag(ctx.api, 'default', 'doomed');
      expect(again.variants).toEqual([]);
      const got = ok(await ctx.api.get(`${flags}/doomed`));
      expect(got.variants).toEqual([]);
      expect(got).not.toHaveProperty('defaultVariant');
      expect(ok(await ctx.api.get(`${flags}/doomed/rules`)).totalCount).toBe(0);
      expect(ok(await ctx.api.get(`${flags}/doomed/rollouts`)).totalCount).toBe(0);
      // The old variant key is free on the new flag.
      await createVariant(ctx.api, 'default', 'doomed', 'v1');
    });

    it('does not touch other flags', async () => {
      expect(ok(await ctx.api.get(`${flags}/test`)).variants.map((v: { key: string }) => v.key)).toEqual(['one']);
      expect(ok(await ctx.api.get(`${flags}/bool/rollouts`)).totalCount).toBe(2);
    });
  });

  describe('deleting a variant', () => {
    it('clears the default variant and removes its distributions, leaving the others', async () => {
      await createFlag(ctx.api, 'default', 'dv');
      const a = await createVariant(ctx.api, 'default', 'dv', 'a');
      const b = await createVariant(ctx.api, 'default', 'dv', 'b');
      ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', defaultVariantId: a.id }));
      const rule = await createRule(ctx.api, 'default', 'dv', { segmentKey: 'everyone', rank: 1 });
      await createDistribution(ctx.api, 'default', 'dv', rule.id, { variantId: a.id, rollout: 50 });
      const db = await createDistribution(ctx.api, 'default', 'dv', rule.id, { variantId: b.id, rollout: 50 });

      ok(await ctx.api.delete(`${flags}/dv/variants/${a.id}`));
      const flag = ok(await ctx.api.get(`${flags}/dv`));
      expect(flag).not.toHaveProperty('defaultVariant');
      expect(flag.variants).toEqual([b]);
      expect(ok(await ctx.api.get(`${flags}/dv/rules/${rule.id}`)).distributions).toEqual([db]);
    });

    it('that is not the default keeps the default variant', async () => {
      await createFlag(ctx.api, 'default', 'dv2');
      const a = await createVariant(ctx.api, 'default', 'dv2', 'a');
      const b = await createVariant(ctx.api, 'default', 'dv2', 'b');
      ok(await ctx.api.put(`${flags}/dv2`, { name: 'dv2', defaultVariantId: a.id }));
      ok(await ctx.api.delete(`${flags}/dv2/variants/${b.id}`));
      expect(ok(await ctx.api.get(`${flags}/dv2`)).defaultVariant).toEqual(a);
    });
  });

  describe('deleting a namespace with force', () => {
    it('removes flags, their children and segments; other namespaces are untouched', async () => {
      await createNamespace(ctx.api, 'tmp');
      await createFlag(ctx.api, 'tmp', 'test');
      const v = await createVariant(ctx.api, 'tmp', 'test', 'one');
      await createSegment(ctx.api, 'tmp', 'everyone');
      const rule = await createRule(ctx.api, 'tmp', 'test', { segmentKey: 'everyone', rank: 1 });
      await createDistribution(ctx.api, 'tmp', 'test', rule.id, { variantId: v.id, rollout: 100 });
      await createFlag(ctx.api, 'tmp', 'bool', { type: 'BOOLEAN_FLAG_TYPE' });
      await createRollout(ctx.api, 'tmp', 'bool', { rank: 1, segment: { segmentKey: 'everyone', value: true } });
      const before = ok(await ctx.api.get(flags));

      ok(await ctx.api.delete('/api/v1/namespaces/tmp?force=true'));
      expectError(await ctx.api.get(`${N('tmp')}/flags/test`), 404, 5, 'flag "tmp/test" not found');
      expectError(await ctx.api.get(`${N('tmp')}/segments/everyone`), 404, 5, 'segment "tmp/everyone" not found');
      expectError(await ctx.api.get(`${N('tmp')}/flags/test/rules/${rule.id}`), 404, 5, `rule "tmp/${rule.id}" not found`);
      expect(ok(await ctx.api.get(flags))).toEqual(before);

      await createNamespace(ctx.api, 'tmp');
      expect(ok(await ctx.api.get(`${N('tmp')}/flags`)).totalCount).toBe(0);
      expect(ok(await ctx.api.get(`${N('tmp')}/segments`)).totalCount).toBe(0);
      await createFlag(ctx.api, 'tmp', 'test');
      expect(ok(await ctx.api.get(`${N('tmp')}/flags/test`)).variants).toEqual([]);
    });
  });
});
