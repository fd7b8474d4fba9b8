/** Variants: create/update/delete, JSON attachments (§4.1) and their errors (§3.4). */
import { createFlag, createVariant, expectError, N, ok, TIMESTAMP, useFlagpole, UUID } from './support';

const VARIANT_FIELDS = ['id', 'flagKey', 'key', 'name', 'description', 'createdAt', 'updatedAt', 'attachment', 'namespaceKey'];

describe('variants', () => {
  const ctx = useFlagpole();
  const variants = `${N('default')}/flags/test/variants`;

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'test', { enabled: true });
    await createFlag(ctx.api, 'default', 'other');
  });

  it('creates a variant and echoes it with Flipt\'s fields in proto order', async () => {
    const r = await ctx.api.post(variants, { key: 'one', name: 'One', description: 'first' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: UUID, flagKey: 'test', key: 'one', name: 'One', description: 'first', createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
      attachment: '', namespaceKey: 'default',
    });
    expect(Object.keys(r.body)).toEqual(VARIANT_FIELDS);
  });

  it('name is optional; the key is required but not pattern-checked', async () => {
    const body = await createVariant(ctx.api, 'default', 'test', 'with space/ü');
    expect(body).toMatchObject({ key: 'with space/ü', name: '', description: '', attachment: '' });
    expectError(await ctx.api.post(variants, { name: 'no key' }), 400, 3, 'invalid field key: must not be empty');
  });

  it('refuses a duplicate key on the same flag, allows it on another flag', async () => {
    expectError(await ctx.api.post(variants, { key: 'one' }), 400, 3, 'variant "one" is not unique for flag "default/test"');
    const body = await createVariant(ctx.api, 'default', 'other', 'one');
    expect(body.flagKey).toBe('other');
  });

  it('creating on a missing flag is 404', async () => {
    expectError(await ctx.api.post(`${N('default')}/flags/nope/variants`, { key: 'x' }), 404, 5, 'flag "default/nope" not found');
  });

  describe('attachments', () => {
    it('are returned compacted (whitespace outside strings removed, text otherwise kept)', async () => {
      const attachment = '{\n  "color" : "deep blue",\t"sizes": [ 1, 2.50, 3e2 ],\n  "nested": { "b": true, "a": null }\n}';
      const body = await createVariant(ctx.api, 'default', 'test', 'attached', { attachment });
      expect(body.attachment).toBe('{"color":"deep blue","sizes":[1,2.50,3e2],"nested":{"b":true,"a":null}}');
      const flag = ok(await ctx.api.get(`${N('default')}/flags/test`));
      expect(flag.variants.find((v: { key: string }) => v.key === 'attached').attachment).toBe(body.attachment);
    });

    it('keep escapes and whitespace inside strings', async () => {
      const attachment = '{ "q": "say \\"hi\\"  now", "path": "a\\\\b" }';
      const body = await createVariant(ctx.api, 'default', 'test', 'escaped', { attachment });
      expect(body.attachment).toBe('{"q":"say \\"hi\\"  now","path":"a\\\\b"}');
      expect(JSON.parse(body.attachment)).toEqual({ q: 'say "hi"  now', path: 'a\\b' });
    });

    it('may be any JSON value', async () => {
      for (const [i, attachment, compact] of [
        [1, '[1, 2, 3]', '[1,2,3]'], [2, ' "text" ', '"text"'], [3, '42', '42'], [4, 'true', 'true'],
      ] as const) {
        const body = await createVariant(ctx.api, 'default', 'other', `any${i}`, { attachment });
        expect(body.attachment).toBe(compact);
      }
    });

    it('empty or absent attachment is returned as ""', async () => {
      expect((await createVariant(ctx.api, 'default', 'other', 'empty', { attachment: '' })).attachment).toBe('');
      expect((await createVariant(ctx.api, 'default', 'other', 'absent')).attachment).toBe('');
    });

    it('must be valid JSON', async () => {
      for (const attachment of ['{', 'not json', "{'a': 1}", '{"a": 1,}']) {
        expectError(await ctx.api.post(variants, { key: 'badjson', attachment }), 400, 3, 'invalid field attachment: must be a json string');
      }
    });

    it('may be at most 1000 KB (1,024,000 bytes)', async () => {
      const sized = (bytes: number) => `"${'x'.repeat(bytes - 2)}"`;
      expectError(
        await ctx.api.post(variants, { key: 'big', attachment: sized(1000 * 1024 + 1) }), 400, 3, 'invalid field attachment: must be less than 1000 KB',
      );
      const body = await createVariant(ctx.api, 'default', 'other', 'max', { attachment: sized(1000 * 1024) });
      expect(body.attachment.length).toBe(1000 * 1024);
      ok(await ctx.api.delete(`${N('default')}/flags/other/variants/${body.id}`));
    });

    it('multi-byte characters count in bytes', async () => {
      const attachment = `"${'é'.repeat(512001)}"`; // 1,024,004 bytes but 512,003 characters
      expectError(await ctx.api.post(variants, { key: 'wide', attachment }), 400, 3, 'invalid field attachment: must be less than 1000 KB');
    });
  });

  describe('update', () => {
    let v: any;
    beforeAll(async () => {
      v = await createVariant(ctx.api, 'default', 'test', 'two', { name: 'Two', attachment: '{"v": 1}' });
    });

    it('updates key, name, description and attachment; id and createdAt stay', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const body = ok(await ctx.api.put(`${variants}/${v.id}`, { key: 'deux', name: 'Deux', description: 'fr', attachment: '{ "v" : 2 }' }));
      expect(body).toEqual({ ...v, key: 'deux', name: 'Deux', description: 'fr', attachment: '{"v":2}', updatedAt: TIMESTAMP });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(v.updatedAt));
      const flag = ok(await ctx.api.get(`${N('default')}/flags/test`));
      expect(flag.variants.find((x: { id: string }) => x.id === v.id)).toEqual(body);
    });

    it('an update without attachment clears it', async () => {
      const body = ok(await ctx.api.put(`${variants}/${v.id}`, { key: 'deux', name: 'Deux' }));
      expect(body).toMatchObject({ attachment: '', description: '' });
    });

    it('refuses a key already used by another variant of the flag', async () => {
      expectError(await ctx.api.put(`${variants}/${v.id}`, { key: 'one' }), 400, 3, 'variant "one" is not unique for flag "default/test"');
    });

    it('validates key and attachment', async () => {
      expectError(await ctx.api.put(`${variants}/${v.id}`, { name: 'x' }), 400, 3, 'invalid field key: must not be empty');
      expectError(await ctx.api.put(`${variants}/${v.id}`, { key: 'deux', attachment: '{' }), 400, 3, 'invalid field attachment: must be a json string');
    });

    it('a missing variant is 404 naming the requested key', async () => {
      expectError(await ctx.api.put(`${variants}/no-such-id`, { key: 'k' }), 404, 5, 'variant "k" not found');
      // Matched by id and flag: the right id under another flag is not found either.
      expectError(await ctx.api.put(`${N('default')}/flags/other/variants/${v.id}`, { key: 'k2' }), 404, 5, 'variant "k2" not found');
    });
  });

  it('GetFlag lists variants in creation order', async () => {
    const flag = ok(await ctx.api.get(`${N('default')}/flags/test`));
    expect(flag.variants.map((x: { key: string }) => x.key)).toEqual(['one', 'with space/ü', 'attached', 'escaped', 'deux']);
    for (const x of flag.variants) expect(Object.keys(x)).toEqual(VARIANT_FIELDS);
  });

  it('deletes a variant (200 {}); deleting a missing one also succeeds', async () => {
    const v = await createVariant(ctx.api, 'default', 'test', 'doomed');
    const r = await ctx.api.delete(`${variants}/${v.id}`);
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    const flag = ok(await ctx.api.get(`${N('default')}/flags/test`));
    expect(flag.variants.map((x: { key: string }) => x.key)).not.toContain('doomed');
    expect(ok(await ctx.api.delete(`${variants}/${v.id}`))).toEqual({});
    // The key is free again.
    await createVariant(ctx.api, 'default', 'test', 'doomed');
  });

  it('deleting the default variant clears the flag\'s default variant', async () => {
    const v = await createVariant(ctx.api, 'default', 'other', 'fallback');
    ok(await ctx.api.put(`${N('default')}/flags/other`, { name: 'other', defaultVariantId: v.id }));
    expect(ok(await ctx.api.get(`${N('default')}/flags/other`)).defaultVariant.id).toBe(v.id);
    ok(await ctx.api.delete(`${N('default')}/flags/other/variants/${v.id}`));
    expect(ok(await ctx.api.get(`${N('default')}/flags/other`))).not.toHaveProperty('defaultVariant');
  });
});
