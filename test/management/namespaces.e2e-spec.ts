/** Namespaces: the five routes, the protected `default`, deletion rules and `force` (facts §2.1, §3.4, §15). */
import { createFlag, createNamespace, createSegment, expectError, N, ok, TIMESTAMP, useFlagpole } from './support';

describe('namespaces', () => {
  const ctx = useFlagpole();

  it('the default namespace exists, protected, with its fields in proto order', async () => {
    const body = ok(await ctx.api.get('/api/v1/namespaces/default'));
    expect(body).toEqual({
      key: 'default', name: 'Default', description: 'Default namespace', protected: true, createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
    });
    expect(Object.keys(body)).toEqual(['key', 'name', 'description', 'protected', 'createdAt', 'updatedAt']);
  });

  it('creates a namespace and echoes it (200, protected false, description defaults to "")', async () => {
    const r = await ctx.api.post('/api/v1/namespaces', { key: 'production', name: 'Production' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({
      key: 'production', name: 'Production', description: '', protected: false, createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
    });
    expect(r.body.createdAt).toBe(r.body.updatedAt);
    expect(ok(await ctx.api.get('/api/v1/namespaces/production'))).toEqual(r.body);
  });

  it('ignores `protected` in a create request', async () => {
    const body = await createNamespace(ctx.api, 'tried-protected', { protected: true });
    expect(body.protected).toBe(false);
    expect(ok(await ctx.api.get('/api/v1/namespaces/tried-protected')).protected).toBe(false);
    ok(await ctx.api.delete('/api/v1/namespaces/tried-protected'));
  });

  it('accepts letters, digits, "-", "_" and "," in keys', async () => {
    const body = await createNamespace(ctx.api, 'a-b_c,9');
    expect(body.key).toBe('a-b_c,9');
    ok(await ctx.api.delete('/api/v1/namespaces/a-b_c,9'));
  });

  it('refuses a duplicate, including `default`', async () => {
    expectError(await ctx.api.post('/api/v1/namespaces', { key: 'default', name: 'Again' }), 400, 3, 'namespace "default" is not unique');
    expectError(await ctx.api.post('/api/v1/namespaces', { key: 'production', name: 'Again' }), 400, 3, 'namespace "production" is not unique');
  });

  it('validates key and name on create', async () => {
    expectError(await ctx.api.post('/api/v1/namespaces', { name: 'No key' }), 400, 3, 'invalid field key: must not be empty');
    expectError(await ctx.api.post('/api/v1/namespaces', { key: 'nokey' }), 400, 3, 'invalid field name: must not be empty');
    expectError(await ctx.api.post('/api/v1/namespaces', { key: 'has space', name: 'x' }), 400, 3, 'invalid field key: contains invalid characters');
    expectError(await ctx.api.post('/api/v1/namespaces', { key: 'a/b', name: 'x' }), 400, 3, 'invalid field key: contains invalid characters');
  });

  it('gets a missing namespace as 404', async () => {
    expectError(await ctx.api.get('/api/v1/namespaces/prod'), 404, 5, 'namespace "prod" not found');
  });

  it('updates name and description, keeps key/createdAt, moves updatedAt', async () => {
    const before = ok(await ctx.api.get('/api/v1/namespaces/production'));
    await new Promise((r) => setTimeout(r, 5));
    const body = ok(await ctx.api.put('/api/v1/namespaces/production', { name: 'Prod', description: 'live traffic' }));
    expect(body).toEqual({ ...before, name: 'Prod', description: 'live traffic', updatedAt: TIMESTAMP });
    expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(ok(await ctx.api.get('/api/v1/namespaces/production'))).toEqual(body);
  });

  it('updates the protected default namespace', async () => {
    const body = ok(await ctx.api.put('/api/v1/namespaces/default', { name: 'Default', description: 'changed' }));
    expect(body).toMatchObject({ key: 'default', description: 'changed', protected: true });
    ok(await ctx.api.put('/api/v1/namespaces/default', { name: 'Default', description: 'Default namespace' }));
  });

  it('update: missing namespace is 404, missing name is 400', async () => {
    expectError(await ctx.api.put('/api/v1/namespaces/prod', { name: 'x' }), 404, 5, 'namespace "prod" not found');
    expectError(await ctx.api.put('/api/v1/namespaces/production', { description: 'x' }), 400, 3, 'invalid field name: must not be empty');
  });

  it('lists namespaces in creation order with totalCount and an empty nextPageToken', async () => {
    const body = ok(await ctx.api.get('/api/v1/namespaces'));
    expect(Object.keys(body)).toEqual(['namespaces', 'nextPageToken', 'totalCount']);
    expect(body.namespaces.map((n: { key: string }) => n.key)).toEqual(['default', 'production']);
    expect(body).toMatchObject({ nextPageToken: '', totalCount: 2 });
    expect(body.namespaces[1]).toEqual(ok(await ctx.api.get('/api/v1/namespaces/production')));
  });

  it('creating a flag or segment in a missing namespace is 404', async () => {
    expectError(await ctx.api.post(`${N('x')}/flags`, { key: 'f', name: 'f' }), 404, 5, 'namespace "x" not found');
    expectError(await ctx.api.post(`${N('x')}/segments`, { key: 's', name: 's' }), 404, 5, 'namespace "x" not found');
  });

  it('refuses to delete the protected default namespace', async () => {
    expectError(await ctx.api.delete('/api/v1/namespaces/default'), 400, 3, 'namespace "default" is protected');
    ok(await ctx.api.get('/api/v1/namespaces/default'));
  });

  it('refuses to delete a namespace that still has flags, and deletes it once they are gone', async () => {
    await createFlag(ctx.api, 'production', 'f1');
    expectError(
      await ctx.api.delete('/api/v1/namespaces/production'), 400, 3, 'namespace "production" cannot be deleted; flags must be deleted first',
    );
    ok(await ctx.api.get('/api/v1/namespaces/production'));
    expect(ok(await ctx.api.delete(`${N('production')}/flags/f1`))).toEqual({});
    const r = await ctx.api.delete('/api/v1/namespaces/production');
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    expectError(await ctx.api.get('/api/v1/namespaces/production'), 404, 5, 'namespace "production" not found');
  });

  it('deleting a missing namespace is 404', async () => {
    expectError(await ctx.api.delete('/api/v1/namespaces/prod'), 404, 5, 'namespace "prod" not found');
  });

  it('force=true deletes a namespace with flags and segments, and everything in it', async () => {
    await createNamespace(ctx.api, 'staging');
    await createFlag(ctx.api, 'staging', 'f1');
    await createSegment(ctx.api, 'staging', 's1');
    ok(await ctx.api.post(`${N('staging')}/flags/f1/rules`, { segmentKey: 's1', rank: 1 }));
    expect(ok(await ctx.api.delete('/api/v1/namespaces/staging?force=true'))).toEqual({});
    expectError(await ctx.api.get('/api/v1/namespaces/staging'), 404, 5, 'namespace "staging" not found');
    // Re-created, it is empty.
    await createNamespace(ctx.api, 'staging');
    expect(ok(await ctx.api.get(`${N('staging')}/flags`))).toEqual({ flags: [], nextPageToken: '', totalCount: 0 });
    expect(ok(await ctx.api.get(`${N('staging')}/segments`))).toEqual({ segments: [], nextPageToken: '', totalCount: 0 });
    ok(await ctx.api.delete('/api/v1/namespaces/staging'));
  });

  it('force=true deletes even the protected default namespace', async () => {
    await createFlag(ctx.api, 'default', 'f1');
    expect(ok(await ctx.api.delete('/api/v1/namespaces/default?force=true'))).toEqual({});
    expectError(await ctx.api.get('/api/v1/namespaces/default'), 404, 5, 'namespace "default" not found');
    expect(ok(await ctx.api.get('/api/v1/namespaces')).namespaces).toEqual([]);
  });
});
