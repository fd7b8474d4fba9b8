/** Distributions: create/update/delete, rollout bounds, namespace checks, the required variantId on delete (§3.4, §4.2, §9.4). */
import {
  createDistribution, createFlag, createNamespace, createRule, createSegment, createVariant, expectError, N, ok, TIMESTAMP, useFlagpole, UUID,
} from './support';

describe('distributions', () => {
  const ctx = useFlagpole();
  const base = `${N('default')}/flags/test/rules`;
  let one: any;
  let two: any;
  let rule: any;
  let rule2: any;

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'test', { enabled: true });
    one = await createVariant(ctx.api, 'default', 'test', 'one');
    two = await createVariant(ctx.api, 'default', 'test', 'two');
    await createSegment(ctx.api, 'default', 'everyone');
    rule = await createRule(ctx.api, 'default', 'test', { segmentKey: 'everyone', rank: 1 });
    rule2 = await createRule(ctx.api, 'default', 'test', { segmentKey: 'everyone', rank: 2 });
  });

  it('creates a distribution and echoes it in proto order; GetRule shows it', async () => {
    const r = await ctx.api.post(`${base}/${rule.id}/distributions`, { variantId: one.id, rollout: 100 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: UUID, ruleId: rule.id, variantId: one.id, rollout: 100, createdAt: TIMESTAMP, updatedAt: TIMESTAMP });
    expect(Object.keys(r.body)).toEqual(['id', 'ruleId', 'variantId', 'rollout', 'createdAt', 'updatedAt']);
    expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions).toEqual([r.body]);
    const listed = ok(await ctx.api.get(base)).rules.find((x: { id: string }) => x.id === rule.id);
    expect(listed.distributions).toEqual([r.body]);
  });

  it('rollout is a float 0..100 (quoted numbers accepted; absent = 0)', async () => {
    const a = await createDistribution(ctx.api, 'default', 'test', rule2.id, { variantId: one.id, rollout: 33.33 });
    expect(a.rollout).toBe(33.33);
    const b = await createDistribution(ctx.api, 'default', 'test', rule2.id, { variantId: two.id, rollout: '66.5' });
    expect(b.rollout).toBe(66.5);
    const c = await createDistribution(ctx.api, 'default', 'test', rule2.id, { variantId: two.id });
    expect(c.rollout).toBe(0);
    // Creation order; a sum above 100 is not refused.
    const d = await createDistribution(ctx.api, 'default', 'test', rule2.id, { variantId: one.id, rollout: 100 });
    const got = ok(await ctx.api.get(`${base}/${rule2.id}`));
    expect(got.distributions.map((x: { id: string }) => x.id)).toEqual([a.id, b.id, c.id, d.id]);
  });

  it('validates variantId and the rollout range', async () => {
    const url = `${base}/${rule.id}/distributions`;
    expectError(await ctx.api.post(url, { rollout: 10 }), 400, 3, 'invalid field variantId: must not be empty');
    expectError(await ctx.api.post(url, { variantId: one.id, rollout: 100.5 }), 400, 3, "invalid field rollout: must be less than or equal to '100'");
    expectError(await ctx.api.post(url, { variantId: one.id, rollout: -1 }), 400, 3, "invalid field rollout: must be greater than or equal to '0'");
    expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions).toHaveLength(1);
  });

  it('a missing rule, variant or flag is 404 with Flipt\'s combined text', async () => {
    expectError(await ctx.api.post(`${base}/no-rule/distributions`, { variantId: one.id, rollout: 1 }), 404, 5,
      `variant "${one.id}", rule "no-rule", flag "test" in namespace "default" not found`);
    expectError(await ctx.api.post(`${base}/${rule.id}/distributions`, { variantId: 'no-variant', rollout: 1 }), 404, 5,
      `variant "no-variant", rule "${rule.id}", flag "test" in namespace "default" not found`);
    expectError(await ctx.api.post(`${N('default')}/flags/nope/rules/${rule.id}/distributions`, { variantId: one.id, rollout: 1 }), 404, 5,
      `variant "${one.id}", rule "${rule.id}", flag "nope" in namespace "default" not found`);
  });

  it('only checks that rule, variant and flag exist in the namespace, not that they belong together', async () => {
    await createFlag(ctx.api, 'default', 'other');
    const foreign = await createVariant(ctx.api, 'default', 'other', 'foreign');
    const d = await createDistribution(ctx.api, 'default', 'other', rule.id, { variantId: foreign.id, rollout: 5 });
    expect(d).toMatchObject({ ruleId: rule.id, variantId: foreign.id });
    ok(await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}?variantId=${foreign.id}`));
  });

  describe('across namespaces', () => {
    let prodRule: any;
    let prodDist: any;
    beforeAll(async () => {
      await createNamespace(ctx.api, 'production');
      await createFlag(ctx.api, 'production', 'test');
      const prodVariant = await createVariant(ctx.api, 'production', 'test', 'one');
      await createSegment(ctx.api, 'production', 'everyone');
      prodRule = await createRule(ctx.api, 'production', 'test', { segmentKey: 'everyone', rank: 1 });
      prodDist = await createDistribution(ctx.api, 'production', 'test', prodRule.id, { variantId: prodVariant.id, rollout: 100 });
    });

    it('a variant of another namespace is not found', async () => {
      expectError(
        await ctx.api.post(`${N('production')}/flags/test/rules/${prodRule.id}/distributions`, { variantId: one.id, rollout: 50 }),
        404, 5, `variant "${one.id}", rule "${prodRule.id}", flag "test" in namespace "production" not found`,
      );
      expectError(
        await ctx.api.put(`${N('production')}/flags/test/rules/${prodRule.id}/distributions/${prodDist.id}`, { variantId: one.id, rollout: 50 }),
        404, 5, `variant "${one.id}", rule "${prodRule.id}", flag "test" in namespace "production" not found`,
      );
      // Nothing changed.
      expect(ok(await ctx.api.get(`${N('production')}/flags/test/rules/${prodRule.id}`)).distributions).toEqual([prodDist]);
    });

    it('a delete through another namespace\'s path deletes nothing there (issue 38, item 3)', async () => {
      const prodVariantId = prodDist.variantId;
      const r = await ctx.api.delete(`${base}/${prodRule.id}/distributions/${prodDist.id}?variantId=${prodVariantId}`);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(ok(await ctx.api.get(`${N('production')}/flags/test/rules/${prodRule.id}`)).distributions).toEqual([prodDist]);
    });

    it('a rule of another namespace is not found', async () => {
      expectError(await ctx.api.post(`${base}/${prodRule.id}/distributions`, { variantId: one.id, rollout: 50 }), 404, 5,
        `variant "${one.id}", rule "${prodRule.id}", flag "test" in namespace "default" not found`);
    });
  });

  describe('update', () => {
    let d: any;
    beforeAll(async () => {
      d = await createDistribution(ctx.api, 'default', 'test', rule.id, { variantId: one.id, rollout: 40 });
    });

    it('changes variant and rollout; id, ruleId and createdAt stay', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const body = ok(await ctx.api.put(`${base}/${rule.id}/distributions/${d.id}`, { variantId: two.id, rollout: 60 }));
      expect(body).toEqual({ ...d, variantId: two.id, rollout: 60, updatedAt: TIMESTAMP });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(d.updatedAt));
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.find((x: { id: string }) => x.id === d.id)).toEqual(body);
      d = body;
    });

    it('validates like create', async () => {
      expectError(await ctx.api.put(`${base}/${rule.id}/distributions/${d.id}`, { rollout: 1 }), 400, 3, 'invalid field variantId: must not be empty');
      expectError(await ctx.api.put(`${base}/${rule.id}/distributions/${d.id}`, { variantId: two.id, rollout: 101 }), 400, 3,
        "invalid field rollout: must be less than or equal to '100'");
    });

    it('a missing distribution, or one of another rule, is 404', async () => {
      expectError(await ctx.api.put(`${base}/${rule.id}/distributions/no-such-id`, { variantId: two.id, rollout: 1 }), 404, 5,
        'distribution "no-such-id" not found');
      expectError(await ctx.api.put(`${base}/${rule2.id}/distributions/${d.id}`, { variantId: two.id, rollout: 1 }), 404, 5,
        `distribution "${d.id}" not found`);
    });
  });

  describe('delete', () => {
    it('needs the variantId query parameter', async () => {
      const d = await createDistribution(ctx.api, 'default', 'test', rule.id, { variantId: two.id, rollout: 1 });
      expectError(await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}`), 400, 3, 'invalid field variantId: must not be empty');
      expectError(await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}?variantId=`), 400, 3, 'invalid field variantId: must not be empty');
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.map((x: { id: string }) => x.id)).toContain(d.id);
    });

    it('matches id, rule and variant: a wrong variantId deletes nothing (and still answers {})', async () => {
      const d = await createDistribution(ctx.api, 'default', 'test', rule.id, { variantId: two.id, rollout: 2 });
      expect(ok(await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}?variantId=${one.id}`))).toEqual({});
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.map((x: { id: string }) => x.id)).toContain(d.id);
      const r = await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}?variantId=${two.id}`);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.map((x: { id: string }) => x.id)).not.toContain(d.id);
    });

    it('accepts the snake_case variant_id query name', async () => {
      const d = await createDistribution(ctx.api, 'default', 'test', rule.id, { variantId: two.id, rollout: 3 });
      ok(await ctx.api.delete(`${base}/${rule.id}/distributions/${d.id}?variant_id=${two.id}`));
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.map((x: { id: string }) => x.id)).not.toContain(d.id);
    });

    it('deleting a variant deletes its distributions', async () => {
      const three = await createVariant(ctx.api, 'default', 'test', 'three');
      const d = await createDistribution(ctx.api, 'default', 'test', rule.id, { variantId: three.id, rollout: 7 });
      ok(await ctx.api.delete(`${N('default')}/flags/test/variants/${three.id}`));
      expect(ok(await ctx.api.get(`${base}/${rule.id}`)).distributions.map((x: { id: string }) => x.id)).not.toContain(d.id);
    });

    it('deleting a rule deletes its distributions', async () => {
      const r = await createRule(ctx.api, 'default', 'test', { segmentKey: 'everyone', rank: 3 });
      const d = await createDistribution(ctx.api, 'default', 'test', r.id, { variantId: one.id, rollout: 100 });
      ok(await ctx.api.delete(`${base}/${r.id}`));
      // The same distribution id is gone: updating it is now a 404.
      expectError(await ctx.api.put(`${base}/${r.id}/distributions/${d.id}`, { variantId: one.id, rollout: 1 }), 404, 5,
        `variant "${one.id}", rule "${r.id}", flag "test" in namespace "default" not found`);
    });
  });
});
