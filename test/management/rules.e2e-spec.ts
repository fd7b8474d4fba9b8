/** Rules: segmentKey / segmentKeys with AND/OR, ranks, order, delete re-ranking (facts §2.1, §2.6, §4.2, §9.4). */
import { createFlag, createRule, createSegment, expectError, N, ok, TIMESTAMP, useFlagpole, UUID } from './support';

const RULE_FIELDS = [
  'id', 'flagKey', 'segmentKey', 'distributions', 'rank', 'createdAt', 'updatedAt', 'namespaceKey', 'segmentKeys', 'segmentOperator',
];

describe('rules', () => {
  const ctx = useFlagpole();
  const rules = (flag = 'test') => `${N('default')}/flags/${flag}/rules`;
  const list = async (flag = 'test') => ok(await ctx.api.get(rules(flag)));
  const ranks = async (flag: string) => (await list(flag)).rules.map((r: { id: string; rank: number }) => [r.id, r.rank]);

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'test', { enabled: true });
    for (const key of ['everyone', 'segment', 'another-segment']) await createSegment(ctx.api, 'default', key);
  });

  it('creates a one-segment rule with segmentKey and echoes it in proto order', async () => {
    const r = await ctx.api.post(rules(), { segmentKey: 'everyone', rank: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: UUID, flagKey: 'test', segmentKey: 'everyone', distributions: [], rank: 1, createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
      namespaceKey: 'default', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR',
    });
    expect(Object.keys(r.body)).toEqual(RULE_FIELDS);
    expect(ok(await ctx.api.get(`${rules()}/${r.body.id}`))).toEqual(r.body);
  });

  it('a rule with two or more segments lists them in segmentKeys and leaves segmentKey ""', async () => {
    const body = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
    expect(body).toMatchObject({ segmentKey: '', segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
    expect(ok(await ctx.api.get(`${rules()}/${body.id}`))).toEqual(body);
    const or = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['everyone', 'segment'], rank: 3 });
    expect(or).toMatchObject({ segmentKey: '', segmentKeys: ['everyone', 'segment'], segmentOperator: 'OR_SEGMENT_OPERATOR' });
  });

  it('one segment given as segmentKeys comes back as segmentKey, and AND is forced to OR', async () => {
    const body = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 4 });
    expect(body).toMatchObject({ segmentKey: 'segment', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
    expect(ok(await ctx.api.get(`${rules()}/${body.id}`))).toMatchObject({ segmentKey: 'segment', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
  });

  it('duplicate segment keys are de-duplicated (two equal keys are one segment: OR)', async () => {
    const body = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['everyone', 'everyone'], segmentOperator: 1, rank: 5 });
    expect(body).toMatchObject({ segmentKey: 'everyone', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
    const three = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['segment', 'everyone', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 6 });
    expect(three).toMatchObject({ segmentKey: '', segmentKeys: ['segment', 'everyone'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
  });

  it('ranks need not be unique and are not compacted on create', async () => {
    await createFlag(ctx.api, 'default', 'ranks');
    const a = await createRule(ctx.api, 'default', 'ranks', { segmentKey: 'everyone', rank: 7 });
    const b = await createRule(ctx.api, 'default', 'ranks', { segmentKey: 'segment', rank: 7 });
    const c = await createRule(ctx.api, 'default', 'ranks', { segmentKey: 'segment', rank: '3' });
    expect(c.rank).toBe(3);
    expect(await ranks('ranks')).toEqual([[c.id, 3], [a.id, 7], [b.id, 7]]);
  });

  it('validates segment keys and rank', async () => {
    expectError(await ctx.api.post(rules(), { rank: 1 }), 400, 3, 'invalid field segmentKey or segmentKeys: must not be empty');
    expectError(await ctx.api.post(rules(), { segmentKeys: [], rank: 1 }), 400, 3, 'invalid field segmentKey or segmentKeys: must not be empty');
    expectError(await ctx.api.post(rules(), { segmentKey: 'everyone', segmentKeys: ['segment'], rank: 1 }), 400, 3,
      'invalid field segmentKey or segmentKeys: only one can be present');
    expectError(await ctx.api.post(rules(), { segmentKey: 'everyone' }), 400, 3, 'invalid field rank: must be greater than 0');
    expectError(await ctx.api.post(rules(), { segmentKey: 'everyone', rank: 0 }), 400, 3, 'invalid field rank: must be greater than 0');
    expectError(await ctx.api.post(rules(), { segmentKey: 'everyone', rank: -1 }), 400, 3, 'invalid field rank: must be greater than 0');
  });

  it('a missing flag or segment is 404 with Flipt\'s combined text', async () => {
    expectError(await ctx.api.post(rules('nope'), { segmentKey: 'everyone', rank: 1 }), 404, 5, 'flag "default/nope" or segment "default/everyone" not found');
    expectError(await ctx.api.post(rules(), { segmentKey: 'ghost', rank: 1 }), 404, 5, 'flag "default/test" or segment "default/ghost" not found');
    // The segment part names the deprecated segmentKey only, so it is empty when segmentKeys was used.
    expectError(await ctx.api.post(rules(), { segmentKeys: ['everyone', 'ghost'], rank: 1 }), 404, 5, 'flag "default/test" or segment "default/" not found');
  });

  it('get: a missing rule is 404; the flag key of the path is not checked', async () => {
    expectError(await ctx.api.get(`${rules()}/no-such-id`), 404, 5, 'rule "default/no-such-id" not found');
    const first = (await list()).rules[0];
    const viaOther = ok(await ctx.api.get(`${rules('ranks')}/${first.id}`));
    expect(viaOther).toMatchObject({ id: first.id, flagKey: 'test' });
    // GET .../rules/order is GetRule with id "order".
    expectError(await ctx.api.get(`${rules()}/order`), 404, 5, 'rule "default/order" not found');
  });

  it('lists a flag\'s rules by rank with totalCount', async () => {
    const body = await list();
    expect(Object.keys(body)).toEqual(['rules', 'nextPageToken', 'totalCount']);
    expect(body.rules.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(body).toMatchObject({ nextPageToken: '', totalCount: 6 });
    expect(ok(await ctx.api.get(rules('nope')))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
  });

  describe('update', () => {
    let rule: any;
    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'upd');
      await createRule(ctx.api, 'default', 'upd', { segmentKey: 'everyone', rank: 1 });
      await createRule(ctx.api, 'default', 'upd', { segmentKey: 'everyone', rank: 2 });
      rule = await createRule(ctx.api, 'default', 'upd', { segmentKey: 'another-segment', rank: 3 });
    });

    it('replaces the segments and operator; rank stays (even if one is sent)', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const body = ok(await ctx.api.put(`${rules('upd')}/${rule.id}`, {
        segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 9,
      }));
      expect(body).toEqual({
        ...rule, segmentKey: '', segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 3, updatedAt: TIMESTAMP,
      });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(rule.updatedAt));
      expect(ok(await ctx.api.get(`${rules('upd')}/${rule.id}`))).toEqual(body);
    });

    it('back to one segment forces OR', async () => {
      const body = ok(await ctx.api.put(`${rules('upd')}/${rule.id}`, { segmentKey: 'everyone', segmentOperator: 'AND_SEGMENT_OPERATOR' }));
      expect(body).toMatchObject({ segmentKey: 'everyone', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 3 });
    });

    it('validates like create; a missing rule is 404', async () => {
      expectError(await ctx.api.put(`${rules('upd')}/${rule.id}`, {}), 400, 3, 'invalid field segmentKey or segmentKeys: must not be empty');
      expectError(await ctx.api.put(`${rules('upd')}/${rule.id}`, { segmentKey: 'a', segmentKeys: ['b'] }), 400, 3,
        'invalid field segmentKey or segmentKeys: only one can be present');
      expectError(await ctx.api.put(`${rules('upd')}/no-such-id`, { segmentKey: 'everyone' }), 404, 5, 'rule "default/no-such-id" not found');
    });

    it('a missing segment is 404 and leaves the rule as it was', async () => {
      const before = ok(await ctx.api.get(`${rules('upd')}/${rule.id}`));
      const r = await ctx.api.put(`${rules('upd')}/${rule.id}`, { segmentKeys: ['segment', 'ghost'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 5 });
      expect(ok(await ctx.api.get(`${rules('upd')}/${rule.id}`))).toEqual(before);
    });
  });

  describe('order', () => {
    let r1: any;
    let r2: any;
    let r3: any;
    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'ord');
      r1 = await createRule(ctx.api, 'default', 'ord', { segmentKey: 'everyone', rank: 1 });
      r2 = await createRule(ctx.api, 'default', 'ord', { segmentKey: 'everyone', rank: 2 });
      r3 = await createRule(ctx.api, 'default', 'ord', { segmentKey: 'another-segment', rank: 3 });
    });

    it('PUT rules/order sets ranks 1..n in the order given', async () => {
      const r = await ctx.api.put(`${rules('ord')}/order`, { ruleIds: [r2.id, r1.id, r3.id] });
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(await ranks('ord')).toEqual([[r2.id, 1], [r1.id, 2], [r3.id, 3]]);
      expect(ok(await ctx.api.get(`${rules('ord')}/${r1.id}`)).rank).toBe(2);
    });

    it('ids not listed keep their rank; unknown ids are ignored', async () => {
      ok(await ctx.api.put(`${rules('ord')}/order`, { ruleIds: [r3.id, 'no-such-id'] }));
      expect((await list('ord')).rules.map((r: { id: string; rank: number }) => [r.id, r.rank])).toEqual([[r2.id, 1], [r3.id, 1], [r1.id, 2]]);
      ok(await ctx.api.put(`${rules('ord')}/order`, { ruleIds: [r1.id, r2.id, r3.id] }));
      expect(await ranks('ord')).toEqual([[r1.id, 1], [r2.id, 2], [r3.id, 3]]);
    });

    it('needs at least two ids', async () => {
      expectError(await ctx.api.put(`${rules('ord')}/order`, { ruleIds: [r1.id] }), 400, 3, 'invalid field ruleIds: must contain atleast 2 elements');
      expectError(await ctx.api.put(`${rules('ord')}/order`, {}), 400, 3, 'invalid field ruleIds: must contain atleast 2 elements');
    });

    it('deleting a rule re-ranks the rest 1..n', async () => {
      const r4 = await createRule(ctx.api, 'default', 'ord', { segmentKey: 'segment', rank: 4 });
      const r = await ctx.api.delete(`${rules('ord')}/${r2.id}`);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(await ranks('ord')).toEqual([[r1.id, 1], [r3.id, 2], [r4.id, 3]]);
      expectError(await ctx.api.get(`${rules('ord')}/${r2.id}`), 404, 5, `rule "default/${r2.id}" not found`);
      ok(await ctx.api.delete(`${rules('ord')}/${r1.id}`));
      expect(await ranks('ord')).toEqual([[r3.id, 1], [r4.id, 2]]);
    });

    it('deleting a missing rule succeeds and changes nothing', async () => {
      const before = await ranks('ord');
      expect(ok(await ctx.api.delete(`${rules('ord')}/no-such-id`))).toEqual({});
      expect(await ranks('ord')).toEqual(before);
    });
  });
});
