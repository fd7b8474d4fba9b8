/** Rollouts: threshold and segment rollouts, ranks, type changes, order, delete re-ranking (facts §2.1, §2.6, §3.4, §9.4). */
import { createFlag, createRollout, createSegment, expectError, N, ok, TIMESTAMP, useFlagpole, UUID } from './support';

const ROLLOUT_FIELDS = ['id', 'namespaceKey', 'flagKey', 'type', 'rank', 'description', 'createdAt', 'updatedAt'];

describe('rollouts', () => {
  const ctx = useFlagpole();
  const rollouts = (flag = 'bool') => `${N('default')}/flags/${flag}/rollouts`;
  const ranks = async (flag: string) =>
    ok(await ctx.api.get(rollouts(flag))).rules.map((r: { id: string; rank: number }) => [r.id, r.rank]);

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'bool', { type: 'BOOLEAN_FLAG_TYPE' });
    for (const key of ['everyone', 'segment', 'another-segment']) await createSegment(ctx.api, 'default', key);
  });

  it('creates a threshold rollout and echoes it in proto order', async () => {
    const r = await ctx.api.post(rollouts(), { rank: 1, description: 'half', threshold: { percentage: 50, value: true } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: UUID, namespaceKey: 'default', flagKey: 'bool', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, description: 'half',
      createdAt: TIMESTAMP, updatedAt: TIMESTAMP, threshold: { percentage: 50, value: true },
    });
    expect(Object.keys(r.body)).toEqual([...ROLLOUT_FIELDS, 'threshold']);
    expect(Object.keys(r.body.threshold)).toEqual(['percentage', 'value']);
    expect(ok(await ctx.api.get(`${rollouts()}/${r.body.id}`))).toEqual(r.body);
  });

  it('creates a one-segment rollout: segmentKey set, segmentKeys [], OR', async () => {
    const body = await createRollout(ctx.api, 'default', 'bool', { rank: 2, segment: { segmentKey: 'everyone', value: true } });
    expect(body).toEqual({
      id: UUID, namespaceKey: 'default', flagKey: 'bool', type: 'SEGMENT_ROLLOUT_TYPE', rank: 2, description: '',
      createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
      segment: { segmentKey: 'everyone', value: true, segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' },
    });
    expect(Object.keys(body)).toEqual([...ROLLOUT_FIELDS, 'segment']);
    expect(Object.keys(body.segment)).toEqual(['segmentKey', 'value', 'segmentKeys', 'segmentOperator']);
    expect(ok(await ctx.api.get(`${rollouts()}/${body.id}`))).toEqual(body);
  });

  it('a multi-segment rollout lists segmentKeys; a single key forces OR', async () => {
    const and = await createRollout(ctx.api, 'default', 'bool', {
      rank: 3, segment: { segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false },
    });
    expect(and.segment).toEqual({ segmentKey: '', value: false, segmentKeys: ['segment', 'another-segment'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
    const single = await createRollout(ctx.api, 'default', 'bool', {
      rank: 4, segment: { segmentKeys: ['segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true },
    });
    expect(single.segment).toEqual({ segmentKey: 'segment', value: true, segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
  });

  it('threshold percentage must be within [0, 100]', async () => {
    for (const percentage of [101, -1, 100.01]) {
      expectError(await ctx.api.post(rollouts(), { rank: 9, threshold: { percentage, value: true } }), 400, 3,
        'invalid field threshold.percentage: must be within range [0, 100]');
    }
    const edge = await createRollout(ctx.api, 'default', 'bool', { rank: 9, threshold: { percentage: 100 } });
    expect(edge.threshold).toEqual({ percentage: 100, value: false });
    ok(await ctx.api.delete(`${rollouts()}/${edge.id}`));
  });

  it('refuses a rank already used by the flag', async () => {
    expectError(await ctx.api.post(rollouts(), { rank: 2, threshold: { percentage: 10 } }), 400, 3, 'rank number: 2 already exists');
    expectError(await ctx.api.post(rollouts(), { rank: 1, segment: { segmentKey: 'everyone' } }), 400, 3, 'rank number: 1 already exists');
  });

  it('needs a segment or a threshold; segment keys follow the rule checks', async () => {
    expectError(await ctx.api.post(rollouts(), { rank: 10 }), 400, 3, 'rollout rule is missing');
    expectError(await ctx.api.post(rollouts(), { rank: 10, segment: {} }), 400, 3, 'invalid field segmentKey or segmentKeys: must not be empty');
    expectError(await ctx.api.post(rollouts(), { rank: 10, segment: { segmentKey: 'a', segmentKeys: ['b'] } }), 400, 3,
      'invalid field segmentKey or segmentKeys: only one can be present');
  });

  it('a missing segment is 404 with Flipt\'s (oddly quoted) text', async () => {
    expectError(await ctx.api.post(rollouts(), { rank: 10, segment: { segmentKey: 'thisdoesnotexist', value: true } }), 404, 5,
      'flag "default/bool or segment thisdoesnotexist" not found');
  });

  it('a missing flag is 404', async () => {
    const r = await ctx.api.post(rollouts('nope'), { rank: 1, threshold: { percentage: 5 } });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 5 });
  });

  it('get: a missing rollout is 404', async () => {
    expectError(await ctx.api.get(`${rollouts()}/no-such-id`), 404, 5, 'rollout "default/no-such-id" not found');
  });

  it('lists by rank; the array is named `rules`', async () => {
    const body = ok(await ctx.api.get(rollouts()));
    expect(Object.keys(body)).toEqual(['rules', 'nextPageToken', 'totalCount']);
    expect(body.rules.map((r: { rank: number; type: string }) => [r.rank, r.type])).toEqual([
      [1, 'THRESHOLD_ROLLOUT_TYPE'], [2, 'SEGMENT_ROLLOUT_TYPE'], [3, 'SEGMENT_ROLLOUT_TYPE'], [4, 'SEGMENT_ROLLOUT_TYPE'],
    ]);
    expect(body).toMatchObject({ nextPageToken: '', totalCount: 4 });
    for (const r of body.rules) expect(ok(await ctx.api.get(`${rollouts()}/${r.id}`))).toEqual(r);
    expect(ok(await ctx.api.get(rollouts('nope')))).toEqual({ rules: [], nextPageToken: '', totalCount: 0 });
  });

  describe('update', () => {
    let threshold: any;
    let segment: any;
    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'upd', { type: 'BOOLEAN_FLAG_TYPE' });
      segment = await createRollout(ctx.api, 'default', 'upd', { rank: 1, segment: { segmentKey: 'another-segment', value: false } });
      threshold = await createRollout(ctx.api, 'default', 'upd', { rank: 2, threshold: { percentage: 50, value: true } });
    });

    it('changes a threshold and the description; rank stays', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const body = ok(await ctx.api.put(`${rollouts('upd')}/${threshold.id}`, {
        description: '50% enabled', rank: 7, threshold: { percentage: 50, value: false },
      }));
      expect(body).toEqual({ ...threshold, description: '50% enabled', threshold: { percentage: 50, value: false }, updatedAt: TIMESTAMP });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(threshold.updatedAt));
      expect(ok(await ctx.api.get(`${rollouts('upd')}/${threshold.id}`))).toEqual(body);
      threshold = body;
    });

    it('replaces a segment rollout\'s segments, keeping one that stays', async () => {
      const body = ok(await ctx.api.put(`${rollouts('upd')}/${segment.id}`, {
        segment: { segmentKeys: ['another-segment', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: false },
      }));
      const expected = { segmentKey: '', value: false, segmentKeys: ['another-segment', 'segment'], segmentOperator: 'AND_SEGMENT_OPERATOR' };
      expect(body).toMatchObject({ id: segment.id, rank: 1, segment: expected });
      expect(ok(await ctx.api.get(`${rollouts('upd')}/${segment.id}`)).segment).toEqual(expected);
      // And back to one segment.
      const back = ok(await ctx.api.put(`${rollouts('upd')}/${segment.id}`, { segment: { segmentKey: 'segment', value: true } }));
      expect(back.segment).toEqual({ segmentKey: 'segment', value: true, segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR' });
      expect(ok(await ctx.api.get(`${rollouts('upd')}/${segment.id}`)).segment).toEqual(back.segment);
    });

    it('validates the percentage', async () => {
      expectError(await ctx.api.put(`${rollouts('upd')}/${threshold.id}`, { threshold: { percentage: 200 } }), 400, 3,
        'invalid field threshold.percentage: must be within range [0, 100]');
    });

    it('refuses to change the type, both ways, and changes nothing', async () => {
      expectError(await ctx.api.put(`${rollouts('upd')}/${threshold.id}`, { segment: { segmentKey: 'everyone', value: true } }), 400, 3,
        'cannot change type of rollout: have "THRESHOLD_ROLLOUT_TYPE" attempted "SEGMENT_ROLLOUT_TYPE"');
      expectError(await ctx.api.put(`${rollouts('upd')}/${segment.id}`, { threshold: { percentage: 5 } }), 400, 3,
        'cannot change type of rollout: have "SEGMENT_ROLLOUT_TYPE" attempted "THRESHOLD_ROLLOUT_TYPE"');
      expect(ok(await ctx.api.get(`${rollouts('upd')}/${threshold.id}`))).toEqual(threshold);
    });

    it('needs a segment or threshold', async () => {
      expectError(await ctx.api.put(`${rollouts('upd')}/${threshold.id}`, { description: 'x' }), 400, 3, 'invalid field rule: invalid rollout rule type');
    });

    it('a missing rollout is 404', async () => {
      expectError(await ctx.api.put(`${rollouts('upd')}/no-such-id`, { threshold: { percentage: 5 } }), 404, 5, 'rollout "default/no-such-id" not found');
    });
  });

  describe('order and delete', () => {
    let r1: any;
    let r2: any;
    let r3: any;
    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'ord', { type: 'BOOLEAN_FLAG_TYPE' });
      r1 = await createRollout(ctx.api, 'default', 'ord', { rank: 1, segment: { segmentKey: 'everyone', value: true } });
      r2 = await createRollout(ctx.api, 'default', 'ord', { rank: 2, threshold: { percentage: 10 } });
      r3 = await createRollout(ctx.api, 'default', 'ord', { rank: 3, threshold: { percentage: 20 } });
    });

    it('PUT rollouts/order sets ranks 1..n in the order given', async () => {
      const r = await ctx.api.put(`${rollouts('ord')}/order`, { rolloutIds: [r3.id, r1.id, r2.id] });
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(await ranks('ord')).toEqual([[r3.id, 1], [r1.id, 2], [r2.id, 3]]);
    });

    it('needs at least two ids', async () => {
      expectError(await ctx.api.put(`${rollouts('ord')}/order`, { rolloutIds: [r1.id] }), 400, 3, 'invalid field rolloutIds: must contain atleast 2 elements');
    });

    it('deleting a rollout re-ranks the rest 1..n; deleting a missing one succeeds', async () => {
      const r = await ctx.api.delete(`${rollouts('ord')}/${r3.id}`);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      expect(await ranks('ord')).toEqual([[r1.id, 1], [r2.id, 2]]);
      expectError(await ctx.api.get(`${rollouts('ord')}/${r3.id}`), 404, 5, `rollout "default/${r3.id}" not found`);
      expect(ok(await ctx.api.delete(`${rollouts('ord')}/${r3.id}`))).toEqual({});
      expect(await ranks('ord')).toEqual([[r1.id, 1], [r2.id, 2]]);
      // The freed rank can be used again.
      const again = await createRollout(ctx.api, 'default', 'ord', { rank: 3, threshold: { percentage: 30 } });
      expect(await ranks('ord')).toEqual([[r1.id, 1], [r2.id, 2], [again.id, 3]]);
    });
  });

  it('rollouts have no legacy un-namespaced route', async () => {
    expectError(await ctx.api.get('/api/v1/flags/bool/rollouts'), 404, 5, 'Not Found');
  });
});
