/**
 * What malformed or unusual requests get (facts §1.3, §3.1, §4.1, §15; decisions.md item 4: bad input never gets a
 * 5xx): routing errors, body parsing, JSON types, field-name spellings, `null`, sizes and key characters.
 */
import { createFlag, createSegment, errorBody, expectError, expectInvalidNaming, N, ok, useFlagpole } from './support';

describe('request errors and leniencies', () => {
  const ctx = useFlagpole();
  const flags = `${N('default')}/flags`;

  beforeAll(async () => {
    await createFlag(ctx.api, 'default', 'test');
    await createSegment(ctx.api, 'default', 'everyone');
  });

  describe('routing', () => {
    it.each(['/api/v1/nope', '/api/v1/namespaces/default/nope', '/api/v1/namespaces/default/flags/test/nope', '/api/v2/flags'])(
      'unknown path %s is 404 {"code":5,"message":"Not Found","details":[]}', async (path) => {
        const r = await ctx.api.get(path);
        expectError(r, 404, 5, 'Not Found');
        expect(r.text).toBe('{"code":5,"message":"Not Found","details":[]}');
      },
    );

    it.each([
      ['PATCH', '/api/v1/namespaces'],
      ['DELETE', '/api/v1/namespaces'],
      ['POST', '/api/v1/namespaces/default'],
      ['PATCH', '/api/v1/namespaces/default/flags/test'],
      ['POST', '/api/v1/namespaces/default/flags/test'],
      ['DELETE', '/api/v1/namespaces/default/flags'],
      ['GET', '/api/v1/namespaces/default/flags/test/variants'],
      ['POST', '/api/v1/namespaces/default/flags/test/rules/order'],
      ['POST', '/api/v1/flags/test'],
    ])('%s %s (known path, wrong method) is 501 Method Not Allowed', async (method, path) => {
      const call = { GET: ctx.api.get, POST: ctx.api.post, DELETE: ctx.api.delete, PATCH: ctx.api.patch, PUT: ctx.api.put }[method]!;
      const r = await call(path, method === 'POST' || method === 'PATCH' ? {} : undefined);
      expect({ status: r.status, body: r.body }).toEqual({ status: 501, body: errorBody(12, 'Method Not Allowed') });
    });

    it('a trailing slash is ignored', async () => {
      expect(ok(await ctx.api.get('/api/v1/namespaces/')).namespaces.length).toBeGreaterThan(0);
      expect(ok(await ctx.api.get(`${flags}/test/`)).key).toBe('test');
      const created = ok(await ctx.api.post(`${flags}/`, { key: 'slashed', name: 'S' }));
      expect(created.key).toBe('slashed');
      expect(ok(await ctx.api.put(`${flags}/slashed/`, { name: 'S2' })).name).toBe('S2');
      expect(ok(await ctx.api.delete(`${flags}/slashed/`))).toEqual({});
      expectError(await ctx.api.get(`${flags}/slashed`), 404, 5, 'flag "default/slashed" not found');
    });

    it('path values are URL-decoded', async () => {
      ok(await ctx.api.post(`${flags}`, { key: 'a,b', name: 'comma' }));
      expect(ok(await ctx.api.get(`${flags}/a%2Cb`)).key).toBe('a,b');
      expectError(await ctx.api.get(`${flags}/x%20y`), 404, 5, 'flag "default/x y" not found');
    });
  });

  describe('bodies', () => {
    it('malformed JSON is 400 code 3', async () => {
      for (const body of ['{', '{"key": "x",}', 'key=x&name=y', '{"key": x}']) {
        const r = await ctx.api.post(flags, body);
        expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 400, code: 3, details: [] });
        expect(typeof r.body.message).toBe('string');
      }
    });

    it('a JSON value that is not an object is 400 code 3', async () => {
      for (const body of ['[]', '"text"', '42', 'true']) {
        const r = await ctx.api.post(flags, body);
        expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 3 });
      }
    });

    it('an empty body is an empty request', async () => {
      expectError(await ctx.api.post(flags, ''), 400, 3, 'invalid field key: must not be empty');
      expectError(await ctx.api.post(flags, undefined), 400, 3, 'invalid field key: must not be empty');
    });

    it('a body sent as text/plain (or any content type) is read as JSON', async () => {
      const r = await ctx.api.post(flags, JSON.stringify({ key: 'plain', name: 'Plain' }), { 'content-type': 'text/plain;charset=UTF-8' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ key: 'plain', name: 'Plain' });
      const form = await ctx.api.post(flags, JSON.stringify({ key: 'form', name: 'Form' }), { 'content-type': 'application/x-www-form-urlencoded' });
      expect(form.body).toMatchObject({ key: 'form' });
      const octet = await ctx.api.put(`${flags}/plain`, JSON.stringify({ name: 'Plain 2' }), { 'content-type': 'application/octet-stream' });
      expect(ok(octet).name).toBe('Plain 2');
    });

    it.each([
      ['a number for a string', { key: 123, name: 'x' }],
      ['an object for a string', { key: 'x', name: { a: 1 } }],
      ['a string for a bool', { key: 'x', name: 'x', enabled: 'yes' }],
      ['a number for a bool', { key: 'x', name: 'x', enabled: 1 }],
      ['an array for a string', { key: ['x'], name: 'x' }],
    ])('wrong JSON type (%s) is 400 code 3', async (_what, body) => {
      const r = await ctx.api.post(flags, body);
      expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 400, code: 3, details: [] });
      expect(r.body.message).toMatch(/^invalid values for key\(s\) in json body/);
      expectError(await ctx.api.get(`${flags}/x`), 404, 5, 'flag "default/x" not found');
    });

    it('wrong JSON types in other messages are 400 code 3', async () => {
      const cases: Array<[string, unknown]> = [
        [`${flags}/test/rules`, { segmentKey: 'everyone', rank: 'first' }],
        [`${flags}/test/rules`, { segmentKeys: 'everyone', rank: 1 }],
        [`${flags}/test/rules`, { segmentKeys: [1, 2], rank: 1 }],
        [`${flags}/test/rules`, { segmentKey: 'everyone', rank: 1.5 }],
        [`${N('default')}/segments/everyone/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 5 }],
        [`${N('default')}/segments`, { key: 's', name: 's', matchType: true }],
        [`${flags}/test/variants`, { key: 'v', attachment: { a: 1 } }],
        [`${flags}/test/rollouts`, { rank: 1, threshold: { percentage: 'half' } }],
        [`${flags}/test/rollouts`, { rank: 1, threshold: 50 }],
        [`${flags}/test/rollouts`, { rank: 1, segment: { segmentKey: 'everyone', value: 'yes' } }],
      ];
      for (const [path, body] of cases) {
        const r = await ctx.api.post(path, body);
        expect({ path, status: r.status, code: r.body?.code }).toEqual({ path, status: 400, code: 3 });
      }
    });

    it('numbers may be quoted, enums given by number', async () => {
      const rule = ok(await ctx.api.post(`${flags}/test/rules`, { segmentKey: 'everyone', rank: '4' }));
      expect(rule.rank).toBe(4);
      const seg = ok(await ctx.api.post(`${N('default')}/segments`, { key: 'numeric', name: 'n', matchType: 1 }));
      expect(seg.matchType).toBe('ANY_MATCH_TYPE');
      ok(await ctx.api.delete(`${flags}/test/rules/${rule.id}`));
    });

    it('unknown fields are ignored', async () => {
      const body = ok(await ctx.api.post(flags, { key: 'extra', name: 'Extra', colour: 'red', nested: { a: 1 } }));
      expect(body).not.toHaveProperty('colour');
      expect(body.key).toBe('extra');
    });

    it('null fields are treated as absent', async () => {
      const created = ok(await ctx.api.post(flags, { key: 'nulls', name: 'Nulls', description: null, enabled: null, type: null, metadata: null }));
      expect(created).toMatchObject({ description: '', enabled: false, type: 'VARIANT_FLAG_TYPE' });
      expect(created).not.toHaveProperty('metadata');
      ok(await ctx.api.put(`${flags}/nulls`, { name: 'Nulls', metadata: { a: 1 } }));
      const updated = ok(await ctx.api.put(`${flags}/nulls`, { name: 'Nulls', metadata: null, defaultVariantId: null }));
      expect(updated.metadata).toEqual({ a: 1 });
      expectError(await ctx.api.post(flags, { key: null, name: 'x' }), 400, 3, 'invalid field key: must not be empty');
      const rule = ok(await ctx.api.post(`${flags}/test/rules`, { segmentKey: 'everyone', segmentKeys: null, rank: 1 }));
      expect(rule.segmentKey).toBe('everyone');
      ok(await ctx.api.delete(`${flags}/test/rules/${rule.id}`));
    });

    it('snake_case field names are accepted; the camelCase one wins when both are given', async () => {
      const v = ok(await ctx.api.post(`${flags}/test/variants`, { key: 'snake' }));
      const updated = ok(await ctx.api.put(`${flags}/test`, { name: 'test', default_variant_id: v.id }));
      expect(updated.defaultVariant.id).toBe(v.id);
      const rule = ok(await ctx.api.post(`${flags}/test/rules`, {
        segment_keys: ['everyone', 'numeric'], segment_operator: 'AND_SEGMENT_OPERATOR', rank: 1,
      }));
      expect(rule).toMatchObject({ segmentKeys: ['everyone', 'numeric'], segmentOperator: 'AND_SEGMENT_OPERATOR' });
      const both = ok(await ctx.api.post(`${N('default')}/segments`, { key: 'both', name: 'camel', match_type: 'ANY_MATCH_TYPE', matchType: 'ALL_MATCH_TYPE' }));
      expect(both.matchType).toBe('ALL_MATCH_TYPE');
      ok(await ctx.api.put(`${flags}/test/rules/order`, { rule_ids: [rule.id, rule.id] }));
      const rollout = ok(await ctx.api.post(`${flags}/test/rollouts`, { rank: 1, segment: { segment_key: 'everyone', value: true } }));
      expect(rollout.segment.segmentKey).toBe('everyone');
      ok(await ctx.api.delete(`${flags}/test/rollouts/${rollout.id}`));
      ok(await ctx.api.delete(`${flags}/test/rules/${rule.id}`));
    });

    it('path parameters win over the same fields in the body (flag_key, flagKey, key, segment_key)', async () => {
      await createFlag(ctx.api, 'default', 'elsewhere');
      const v = ok(await ctx.api.post(`${flags}/test/variants`, { key: 'pathwins', flag_key: 'elsewhere', flagKey: 'elsewhere' }));
      expect(v.flagKey).toBe('test');
      expect(ok(await ctx.api.get(`${flags}/elsewhere`)).variants).toEqual([]);
      const updated = ok(await ctx.api.put(`${flags}/test`, { key: 'elsewhere', name: 'test' }));
      expect(updated.key).toBe('test');
      expect(ok(await ctx.api.get(`${flags}/elsewhere`)).name).toBe('elsewhere');
      const c = ok(await ctx.api.post(`${N('default')}/segments/everyone/constraints`, {
        segment_key: 'numeric', type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v',
      }));
      expect(c.segmentKey).toBe('everyone');
    });

    it('a body over the size limit is a 4xx, never 5xx', async () => {
      const r = await ctx.api.post(flags, JSON.stringify({ key: 'huge', name: 'x', description: 'x'.repeat(5 * 1024 * 1024) }));
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).toMatchObject({ details: [] });
    });
  });

  describe('keys and sizes', () => {
    it.each(['ключ', 'café', 'flag✓', '日本', 'emoji😀', 'tab\tkey', 'dot.key', 'slash/key', ''])(
      'the key %j is refused on create', async (key) => {
        const message = key === '' ? 'invalid field key: must not be empty' : 'invalid field key: contains invalid characters';
        expectError(await ctx.api.post(flags, { key, name: 'x' }), 400, 3, message);
        expectError(await ctx.api.post(`${N('default')}/segments`, { key, name: 'x' }), 400, 3, message);
        expectError(await ctx.api.post('/api/v1/namespaces', { key, name: 'x' }), 400, 3, message);
      },
    );

    it('a 300-character key is 400 naming the key, never 500', async () => {
      const key = 'k'.repeat(300);
      expectInvalidNaming(await ctx.api.post(flags, { key, name: 'x' }), 'key');
      expectInvalidNaming(await ctx.api.post(`${N('default')}/segments`, { key, name: 'x' }), 'key');
      expectInvalidNaming(await ctx.api.post('/api/v1/namespaces', { key, name: 'x' }), 'key');
      expectInvalidNaming(await ctx.api.post(`${flags}/test/variants`, { key }), 'key');
      // 255 characters fit every database column.
      const max = ok(await ctx.api.post(flags, { key: 'm'.repeat(255), name: 'x' }));
      expect(max.key).toHaveLength(255);
    });

    it('a 300-character name is 400 naming the name, never 500', async () => {
      const name = 'n'.repeat(300);
      expectInvalidNaming(await ctx.api.post(flags, { key: 'longname', name }), 'name');
      expectInvalidNaming(await ctx.api.put(`${flags}/test`, { name }), 'name');
      expectInvalidNaming(await ctx.api.post(`${N('default')}/segments`, { key: 'longname', name }), 'name');
      expectInvalidNaming(await ctx.api.put('/api/v1/namespaces/default', { name }), 'name');
    });

    it('a 100 KB description is a 4xx naming the description, never 5xx', async () => {
      const description = 'd'.repeat(100 * 1024);
      for (const r of [
        await ctx.api.post(flags, { key: 'longdesc', name: 'x', description }),
        await ctx.api.put(`${flags}/test`, { name: 'test', description }),
        await ctx.api.post(`${N('default')}/segments`, { key: 'longdesc', name: 'x', description }),
        await ctx.api.post(`${flags}/test/rollouts`, { rank: 9, description, threshold: { percentage: 1 } }),
      ]) {
        expectInvalidNaming(r, 'description');
      }
    });

    it('long segment keys in rules and long constraint values are 4xx, never 5xx', async () => {
      const r1 = await ctx.api.post(`${flags}/test/rules`, { segmentKeys: ['everyone', 's'.repeat(300)], rank: 1 });
      expect(r1.status).toBeGreaterThanOrEqual(400);
      expect(r1.status).toBeLessThan(500);
      const r2 = await ctx.api.post(`${N('default')}/segments/everyone/constraints`, {
        type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v'.repeat(100 * 1024),
      });
      expect(r2.status).toBeLessThan(500);
    });

    it('ids in paths that do not exist are 404, not 500, whatever their shape', async () => {
      const id = 'x'.repeat(300);
      expectError(await ctx.api.get(`${flags}/test/rules/${id}`), 404, 5, `rule "default/${id}" not found`);
      expectError(await ctx.api.get(`${flags}/${'f'.repeat(300)}`), 404, 5, `flag "default/${'f'.repeat(300)}" not found`);
      expectError(await ctx.api.get(`${flags}/test/rollouts/%E2%9C%93`), 404, 5, 'rollout "default/✓" not found');
    });
  });
});
