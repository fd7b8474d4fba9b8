/** Segments: create/get/update/delete, matchType, and "in use" protection (facts §2.1, §2.6, §3.4, §15). */
import { createFlag, createRollout, createRule, createSegment, expectError, N, ok, TIMESTAMP, useFlagpole } from './support';

const SEGMENT_FIELDS = ['key', 'name', 'description', 'createdAt', 'updatedAt', 'constraints', 'matchType', 'namespaceKey'];

describe('segments', () => {
  const ctx = useFlagpole();
  const segments = `${N('default')}/segments`;

  it('creates a segment and echoes it with Flipt\'s fields in proto order', async () => {
    const r = await ctx.api.post(segments, { key: 'everyone', name: 'Everyone', description: 'all of them' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      key: 'everyone', name: 'Everyone', description: 'all of them', createdAt: TIMESTAMP, updatedAt: TIMESTAMP, constraints: [],
      matchType: 'ALL_MATCH_TYPE', namespaceKey: 'default',
    });
    expect(Object.keys(r.body)).toEqual(SEGMENT_FIELDS);
    expect(ok(await ctx.api.get(`${segments}/everyone`))).toEqual(r.body);
  });

  it('takes matchType by enum name or number', async () => {
    expect((await createSegment(ctx.api, 'default', 'any_name', { matchType: 'ANY_MATCH_TYPE' })).matchType).toBe('ANY_MATCH_TYPE');
    expect((await createSegment(ctx.api, 'default', 'any_number', { matchType: 1 })).matchType).toBe('ANY_MATCH_TYPE');
    expect((await createSegment(ctx.api, 'default', 'all_name', { matchType: 'ALL_MATCH_TYPE' })).matchType).toBe('ALL_MATCH_TYPE');
    expect(ok(await ctx.api.get(`${segments}/any_name`)).matchType).toBe('ANY_MATCH_TYPE');
    const r = await ctx.api.post(segments, { key: 'bad_match', name: 'x', matchType: 'SOME_MATCH_TYPE' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
  });

  it('validates key and name', async () => {
    expectError(await ctx.api.post(segments, { name: 'x' }), 400, 3, 'invalid field key: must not be empty');
    expectError(await ctx.api.post(segments, { key: 'x' }), 400, 3, 'invalid field name: must not be empty');
    expectError(await ctx.api.post(segments, { key: 'a:b', name: 'x' }), 400, 3, 'invalid field key: contains invalid characters');
    expectError(await ctx.api.put(`${segments}/everyone`, {}), 400, 3, 'invalid field name: must not be empty');
  });

  it('refuses a duplicate key', async () => {
    expectError(await ctx.api.post(segments, { key: 'everyone', name: 'x' }), 400, 3, 'segment "default/everyone" is not unique');
  });

  it('get/update of a missing segment is 404', async () => {
    expectError(await ctx.api.get(`${segments}/nope`), 404, 5, 'segment "default/nope" not found');
    expectError(await ctx.api.put(`${segments}/nope`, { name: 'x' }), 404, 5, 'segment "default/nope" not found');
  });

  it('updates name, description and matchType; key and createdAt stay', async () => {
    const before = ok(await ctx.api.get(`${segments}/everyone`));
    await new Promise((r) => setTimeout(r, 5));
    const kept = ok(await ctx.api.put(`${segments}/everyone`, { name: 'All the peeps', matchType: 'ALL_MATCH_TYPE' }));
    expect(kept).toEqual({ ...before, name: 'All the peeps', description: '', updatedAt: TIMESTAMP });
    expect(Date.parse(kept.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const any = ok(await ctx.api.put(`${segments}/everyone`, { name: 'All the peeps', matchType: 'ANY_MATCH_TYPE', key: 'ignored' }));
    expect(any).toMatchObject({ key: 'everyone', matchType: 'ANY_MATCH_TYPE' });
    expect(ok(await ctx.api.get(`${segments}/everyone`))).toEqual(any);
  });

  it('lists the namespace\'s segments in creation order', async () => {
    const list = ok(await ctx.api.get(segments));
    expect(Object.keys(list)).toEqual(['segments', 'nextPageToken', 'totalCount']);
    expect(list.segments.map((s: { key: string }) => s.key)).toEqual(['everyone', 'any_name', 'any_number', 'all_name']);
    expect(list).toMatchObject({ nextPageToken: '', totalCount: 4 });
  });

  it('deletes a segment (200 {}) with its constraints; deleting a missing one also succeeds', async () => {
    await createSegment(ctx.api, 'default', 'doomed');
    ok(await ctx.api.post(`${segments}/doomed/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v' }));
    const r = await ctx.api.delete(`${segments}/doomed`);
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    expectError(await ctx.api.get(`${segments}/doomed`), 404, 5, 'segment "default/doomed" not found');
    expect(ok(await ctx.api.delete(`${segments}/doomed`))).toEqual({});
    // Re-created, it has no constraints.
    expect((await createSegment(ctx.api, 'default', 'doomed')).constraints).toEqual([]);
    expect(ok(await ctx.api.get(`${segments}/doomed`)).constraints).toEqual([]);
  });

  it('a segment used by a rule cannot be deleted until the rule is gone', async () => {
    await createFlag(ctx.api, 'default', 'test');
    await createSegment(ctx.api, 'default', 'ruled');
    await createSegment(ctx.api, 'default', 'partner');
    const rule = await createRule(ctx.api, 'default', 'test', { segmentKeys: ['partner', 'ruled'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 });
    expectError(await ctx.api.delete(`${segments}/ruled`), 400, 3, 'segment "default/ruled" is in use');
    expectError(await ctx.api.delete(`${segments}/partner`), 400, 3, 'segment "default/partner" is in use');
    ok(await ctx.api.get(`${segments}/ruled`));
    ok(await ctx.api.delete(`${N('default')}/flags/test/rules/${rule.id}`));
    expect(ok(await ctx.api.delete(`${segments}/ruled`))).toEqual({});
    expectError(await ctx.api.get(`${segments}/ruled`), 404, 5, 'segment "default/ruled" not found');
  });

  it('a segment used by a rollout cannot be deleted until the rollout is gone', async () => {
    await createFlag(ctx.api, 'default', 'bool', { type: 'BOOLEAN_FLAG_TYPE' });
    await createSegment(ctx.api, 'default', 'rolled');
    const rollout = await createRollout(ctx.api, 'default', 'bool', { rank: 1, segment: { segmentKey: 'rolled', value: true } });
    expectError(await ctx.api.delete(`${segments}/rolled`), 400, 3, 'segment "default/rolled" is in use');
    ok(await ctx.api.delete(`${N('default')}/flags/bool/rollouts/${rollout.id}`));
    expect(ok(await ctx.api.delete(`${segments}/rolled`))).toEqual({});
  });

  it('a segment used by a deleted flag\'s rules can be deleted (the flag delete cascades)', async () => {
    await createFlag(ctx.api, 'default', 'short_lived');
    await createSegment(ctx.api, 'default', 'orphan');
    await createRule(ctx.api, 'default', 'short_lived', { segmentKey: 'orphan', rank: 1 });
    expectError(await ctx.api.delete(`${segments}/orphan`), 400, 3, 'segment "default/orphan" is in use');
    ok(await ctx.api.delete(`${N('default')}/flags/short_lived`));
    expect(ok(await ctx.api.delete(`${segments}/orphan`))).toEqual({});
  });
});
