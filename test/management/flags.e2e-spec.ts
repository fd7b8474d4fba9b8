/** Flags: create/get/update/delete, types, metadata (§9.4), the default variant and their errors (facts §2.1, §2.6, §3.4). */
import { createFlag, createNamespace, createVariant, expectError, N, ok, TIMESTAMP, useFlagpole } from './support';

const FLAG_FIELDS = ['key', 'name', 'description', 'enabled', 'createdAt', 'updatedAt', 'variants', 'namespaceKey', 'type'];

describe('flags', () => {
  const ctx = useFlagpole();
  const flags = N('default') + '/flags';

  beforeAll(async () => {
    await createNamespace(ctx.api, 'production');
  });

  it('creates a variant flag and echoes it with Flipt\'s fields in proto order (no defaultVariant, no metadata)', async () => {
    const r = await ctx.api.post(flags, { key: 'test', name: 'Test', description: 'a flag', enabled: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      key: 'test', name: 'Test', description: 'a flag', enabled: true, createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
      variants: [], namespaceKey: 'default', type: 'VARIANT_FLAG_TYPE',
    });
    expect(Object.keys(r.body)).toEqual(FLAG_FIELDS);
    expect(r.body.createdAt).toBe(r.body.updatedAt);
  });

  it('gets the flag exactly as created', async () => {
    const created = ok(await ctx.api.post(flags, { key: 'same', name: 'Same' }));
    expect(ok(await ctx.api.get(`${flags}/same`))).toEqual(created);
  });

  it('defaults: enabled false, description "", type VARIANT_FLAG_TYPE', async () => {
    const body = await createFlag(ctx.api, 'default', 'plain');
    expect(body).toMatchObject({ enabled: false, description: '', type: 'VARIANT_FLAG_TYPE', variants: [] });
  });

  it('creates boolean flags by enum name or number', async () => {
    const byName = await createFlag(ctx.api, 'default', 'bool_name', { type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    expect(byName).toMatchObject({ key: 'bool_name', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const byNumber = await createFlag(ctx.api, 'default', 'bool_number', { type: 1 });
    expect(byNumber.type).toBe('BOOLEAN_FLAG_TYPE');
    expect(ok(await ctx.api.get(`${flags}/bool_name`)).type).toBe('BOOLEAN_FLAG_TYPE');
    const variantByName = await createFlag(ctx.api, 'default', 'variant_name', { type: 'VARIANT_FLAG_TYPE' });
    expect(variantByName.type).toBe('VARIANT_FLAG_TYPE');
  });

  it('refuses an unknown flag type', async () => {
    const r = await ctx.api.post(flags, { key: 'badtype', name: 'x', type: 'FOO_FLAG_TYPE' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
    expectError(await ctx.api.get(`${flags}/badtype`), 404, 5, 'flag "default/badtype" not found');
  });

  it('validates key and name', async () => {
    expectError(await ctx.api.post(flags, { name: 'x' }), 400, 3, 'invalid field key: must not be empty');
    expectError(await ctx.api.post(flags, { key: 'x' }), 400, 3, 'invalid field name: must not be empty');
    expectError(await ctx.api.post(flags, { key: 'x y', name: 'x' }), 400, 3, 'invalid field key: contains invalid characters');
    expectError(await ctx.api.post(flags, { key: 'x.y', name: 'x' }), 400, 3, 'invalid field key: contains invalid characters');
    expectError(await ctx.api.put(`${flags}/test`, { description: 'no name' }), 400, 3, 'invalid field name: must not be empty');
  });

  it('refuses a duplicate key in the same namespace but allows it in another', async () => {
    expectError(await ctx.api.post(flags, { key: 'test', name: 'Again' }), 400, 3, 'flag "default/test" is not unique');
    const other = await createFlag(ctx.api, 'production', 'test');
    expect(other.namespaceKey).toBe('production');
  });

  it('the namespace of the path wins over namespaceKey in the body', async () => {
    const body = ok(await ctx.api.post(`${N('production')}/flags`, { key: 'pathwins', name: 'x', namespaceKey: 'default' }));
    expect(body.namespaceKey).toBe('production');
    ok(await ctx.api.get(`${N('production')}/flags/pathwins`));
    expectError(await ctx.api.get(`${flags}/pathwins`), 404, 5, 'flag "default/pathwins" not found');
  });

  it('get/update of a missing flag is 404', async () => {
    expectError(await ctx.api.get(`${flags}/nope`), 404, 5, 'flag "default/nope" not found');
    expectError(await ctx.api.put(`${flags}/nope`, { name: 'x' }), 404, 5, 'flag "default/nope" not found');
    expectError(await ctx.api.get(`${N('production')}/flags/nope`), 404, 5, 'flag "production/nope" not found');
  });

  it('updates name, description and enabled; key, type and createdAt stay; updatedAt moves', async () => {
    const before = await createFlag(ctx.api, 'default', 'upd', { type: 'BOOLEAN_FLAG_TYPE', enabled: true, description: 'd' });
    await new Promise((r) => setTimeout(r, 5));
    const body = ok(await ctx.api.put(`${flags}/upd`, { name: 'Updated', description: 'new', type: 'VARIANT_FLAG_TYPE', key: 'other' }));
    expect(body).toEqual({ ...before, name: 'Updated', description: 'new', enabled: false, updatedAt: TIMESTAMP });
    expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(ok(await ctx.api.get(`${flags}/upd`))).toEqual(body);
    expectError(await ctx.api.get(`${flags}/other`), 404, 5, 'flag "default/other" not found');
  });

  describe('metadata', () => {
    it('is echoed on create when supplied and returned by get', async () => {
      const metadata = { team: 'growth', nested: { a: 1, list: [true, null, 'x'] } };
      const body = await createFlag(ctx.api, 'default', 'meta', { metadata });
      expect(body.metadata).toEqual(metadata);
      expect(Object.keys(body)).toEqual([...FLAG_FIELDS, 'metadata']);
      expect(ok(await ctx.api.get(`${flags}/meta`)).metadata).toEqual(metadata);
    });

    it('an empty object is echoed on create but not stored', async () => {
      const body = await createFlag(ctx.api, 'default', 'meta_empty', { metadata: {} });
      expect(body.metadata).toEqual({});
      expect(ok(await ctx.api.get(`${flags}/meta_empty`))).not.toHaveProperty('metadata');
    });

    it('ListFlags always emits metadata ({} when none)', async () => {
      const list = ok(await ctx.api.get(flags));
      const byKey = Object.fromEntries(list.flags.map((f: { key: string }) => [f.key, f]));
      expect(byKey.test.metadata).toEqual({});
      expect(byKey.meta_empty.metadata).toEqual({});
      expect(byKey.meta.metadata).toEqual({ team: 'growth', nested: { a: 1, list: [true, null, 'x'] } });
    });

    it('update: absent keeps it, an object replaces it, {} clears it', async () => {
      ok(await ctx.api.put(`${flags}/meta`, { name: 'meta' }));
      expect(ok(await ctx.api.get(`${flags}/meta`)).metadata).toEqual({ team: 'growth', nested: { a: 1, list: [true, null, 'x'] } });

      const replaced = ok(await ctx.api.put(`${flags}/meta`, { name: 'meta', metadata: { owner: 'me' } }));
      expect(replaced.metadata).toEqual({ owner: 'me' });
      expect(ok(await ctx.api.get(`${flags}/meta`)).metadata).toEqual({ owner: 'me' });

      const cleared = ok(await ctx.api.put(`${flags}/meta`, { name: 'meta', metadata: {} }));
      expect(cleared).not.toHaveProperty('metadata');
      expect(ok(await ctx.api.get(`${flags}/meta`))).not.toHaveProperty('metadata');
    });

    it('must be a JSON object', async () => {
      for (const metadata of ['text', 3, ['a']]) {
        const r = await ctx.api.post(flags, { key: 'meta_bad', name: 'x', metadata });
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
      }
    });
  });

  describe('default variant', () => {
    let one: any;
    let two: any;
    beforeAll(async () => {
      await createFlag(ctx.api, 'default', 'dv', { enabled: true });
      one = await createVariant(ctx.api, 'default', 'dv', 'one', { name: 'One', attachment: '{"a": 1}' });
      two = await createVariant(ctx.api, 'default', 'dv', 'two');
    });

    it('is set by defaultVariantId and shown as defaultVariant by update and get', async () => {
      const body = ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: one.id }));
      expect(body.defaultVariant).toEqual({ ...one, attachment: '{"a":1}' });
      expect(Object.keys(body)).toEqual([...FLAG_FIELDS, 'defaultVariant']);
      const got = ok(await ctx.api.get(`${flags}/dv`));
      expect(got.defaultVariant).toEqual(one);
      expect(got.variants.map((v: { key: string }) => v.key)).toEqual(['one', 'two']);
      const listed = ok(await ctx.api.get(flags)).flags.find((f: { key: string }) => f.key === 'dv');
      expect(listed.defaultVariant).toEqual(one);
    });

    it('can be switched to another variant', async () => {
      const body = ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: two.id }));
      expect(body.defaultVariant).toMatchObject({ id: two.id, key: 'two' });
    });

    it('is reset by an empty defaultVariantId', async () => {
      const body = ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: '' }));
      expect(body).not.toHaveProperty('defaultVariant');
      expect(ok(await ctx.api.get(`${flags}/dv`))).not.toHaveProperty('defaultVariant');
    });

    it('is reset by an update that omits defaultVariantId (Flipt always rewrites it)', async () => {
      ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: one.id }));
      const body = ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true }));
      expect(body).not.toHaveProperty('defaultVariant');
    });

    it('refuses an id that is not a variant of this flag, and changes nothing', async () => {
      ok(await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: one.id }));
      expectError(
        await ctx.api.put(`${flags}/dv`, { name: 'renamed', enabled: false, defaultVariantId: 'no-such-id' }),
        400, 3, 'variant "no-such-id" not found for flag "default/dv"',
      );
      const other = await createVariant(ctx.api, 'default', 'test', 'elsewhere');
      expectError(
        await ctx.api.put(`${flags}/dv`, { name: 'dv', enabled: true, defaultVariantId: other.id }),
        400, 3, `variant "${other.id}" not found for flag "default/dv"`,
      );
      const got = ok(await ctx.api.get(`${flags}/dv`));
      expect(got).toMatchObject({ name: 'dv', enabled: true, defaultVariant: { id: one.id } });
    });
  });

  it('deletes a flag (200 {}); deleting a missing flag also succeeds', async () => {
    await createFlag(ctx.api, 'default', 'gone');
    const r = await ctx.api.delete(`${flags}/gone`);
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    expectError(await ctx.api.get(`${flags}/gone`), 404, 5, 'flag "default/gone" not found');
    expect(ok(await ctx.api.delete(`${flags}/gone`))).toEqual({});
    expect(ok(await ctx.api.delete(`${N('nowhere')}/flags/gone`))).toEqual({});
  });

  it('lists the namespace\'s flags only, in creation order', async () => {
    const list = ok(await ctx.api.get(`${N('production')}/flags`));
    expect(list.flags.map((f: { key: string }) => f.key)).toEqual(['test', 'pathwins']);
    expect(list).toMatchObject({ nextPageToken: '', totalCount: 2 });
    expect(Object.keys(list.flags[0])).toEqual([...FLAG_FIELDS, 'metadata']);
  });
});
