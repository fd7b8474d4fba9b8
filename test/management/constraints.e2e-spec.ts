/** Constraints: every comparison type and its operators, value rules, normalisation (facts §4.3, §9.4). */
import { createConstraint, createSegment, expectError, expectInvalidNaming, N, ok, TIMESTAMP, useFlagpole, UUID } from './support';

const CONSTRAINT_FIELDS = [
  'id', 'segmentKey', 'type', 'property', 'operator', 'value', 'createdAt', 'updatedAt', 'namespaceKey', 'description',
];

const STRING = 'STRING_COMPARISON_TYPE';
const NUMBER = 'NUMBER_COMPARISON_TYPE';
const BOOLEAN = 'BOOLEAN_COMPARISON_TYPE';
const DATETIME = 'DATETIME_COMPARISON_TYPE';
const ENTITY_ID = 'ENTITY_ID_COMPARISON_TYPE';

/** [type, operator, value sent, value stored] for every operator each type allows. */
const VALID: Array<[string, string, string, string]> = [
  [STRING, 'eq', 'pro', 'pro'],
  [STRING, 'neq', 'pro', 'pro'],
  [STRING, 'empty', '', ''],
  [STRING, 'notempty', '', ''],
  [STRING, 'prefix', 'pr', 'pr'],
  [STRING, 'suffix', 'o', 'o'],
  [STRING, 'isoneof', '["pro","team"]', '["pro","team"]'],
  [STRING, 'isnotoneof', '["free"]', '["free"]'],
  [STRING, 'contains', 'r', 'r'],
  [STRING, 'notcontains', 'z', 'z'],
  [NUMBER, 'eq', '42', '42'],
  [NUMBER, 'neq', '42', '42'],
  [NUMBER, 'lt', '1.5', '1.5'],
  [NUMBER, 'lte', '-3', '-3'],
  [NUMBER, 'gt', '0', '0'],
  [NUMBER, 'gte', '10', '10'],
  [NUMBER, 'present', '', ''],
  [NUMBER, 'notpresent', '', ''],
  [NUMBER, 'isoneof', '[1, 2.5, -3]', '[1, 2.5, -3]'],
  [NUMBER, 'isnotoneof', '[7]', '[7]'],
  [BOOLEAN, 'true', '', ''],
  [BOOLEAN, 'false', '', ''],
  [BOOLEAN, 'present', '', ''],
  [BOOLEAN, 'notpresent', '', ''],
  [DATETIME, 'eq', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
  [DATETIME, 'neq', '2024-05-01', '2024-05-01'],
  [DATETIME, 'lt', '2024-05-01T10:00:00+02:00', '2024-05-01T08:00:00Z'],
  [DATETIME, 'lte', '2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00Z'],
  [DATETIME, 'gt', '2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00Z'],
  [DATETIME, 'gte', '2024-02-29', '2024-02-29'],
  [DATETIME, 'present', '', ''],
  [DATETIME, 'notpresent', '', ''],
  [ENTITY_ID, 'eq', 'user-1', 'user-1'],
  [ENTITY_ID, 'neq', 'user-1', 'user-1'],
  [ENTITY_ID, 'isoneof', '["user-1","user-2"]', '["user-1","user-2"]'],
  [ENTITY_ID, 'isnotoneof', '["user-3"]', '["user-3"]'],
  [ENTITY_ID, 'contains', 'admin', 'admin'],
  [ENTITY_ID, 'notcontains', 'bot', 'bot'],
];

/** [type, operator, word in the message] for operators a type does not allow. */
const INVALID: Array<[string, string, string]> = [
  [STRING, 'lt', 'string'], [STRING, 'gte', 'string'], [STRING, 'true', 'string'], [STRING, 'present', 'string'], [STRING, 'xyz', 'string'],
  [NUMBER, 'prefix', 'number'], [NUMBER, 'empty', 'number'], [NUMBER, 'true', 'number'], [NUMBER, 'contains', 'number'],
  [BOOLEAN, 'eq', 'boolean'], [BOOLEAN, 'neq', 'boolean'], [BOOLEAN, 'lt', 'boolean'], [BOOLEAN, 'isoneof', 'boolean'],
  [DATETIME, 'prefix', 'datetime'], [DATETIME, 'true', 'datetime'], [DATETIME, 'empty', 'datetime'], [DATETIME, 'contains', 'datetime'],
  [ENTITY_ID, 'lt', 'entityId'], [ENTITY_ID, 'prefix', 'entityId'], [ENTITY_ID, 'empty', 'entityId'], [ENTITY_ID, 'present', 'entityId'],
];

describe('constraints', () => {
  const ctx = useFlagpole();
  const constraints = `${N('default')}/segments/everyone/constraints`;
  const post = (body: Record<string, unknown>) => ctx.api.post(constraints, body);

  beforeAll(async () => {
    await createSegment(ctx.api, 'default', 'everyone');
    await createSegment(ctx.api, 'default', 'table');
  });

  it('creates a constraint and echoes it with Flipt\'s fields in proto order', async () => {
    const r = await post({ type: STRING, property: 'plan', operator: 'eq', value: 'pro', description: 'paying' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: UUID, segmentKey: 'everyone', type: STRING, property: 'plan', operator: 'eq', value: 'pro', createdAt: TIMESTAMP,
      updatedAt: TIMESTAMP, namespaceKey: 'default', description: 'paying',
    });
    expect(Object.keys(r.body)).toEqual(CONSTRAINT_FIELDS);
    const segment = ok(await ctx.api.get(`${N('default')}/segments/everyone`));
    expect(segment.constraints).toEqual([r.body]);
  });

  it.each(VALID)('%s accepts %s (value %j stored as %j)', async (type, operator, value, stored) => {
    const body = await createConstraint(ctx.api, 'default', 'table', { type, property: type === ENTITY_ID ? 'entityId' : 'prop', operator, value });
    expect(body).toMatchObject({ type, operator, value: stored });
  });

  it.each(INVALID)('%s refuses operator %s', async (type, operator, word) => {
    const property = type === ENTITY_ID ? 'entityId' : 'prop';
    expectError(await post({ type, property, operator, value: '1' }), 400, 3, `constraint operator "${operator}" is not valid for type ${word}`);
  });

  it('takes the comparison type by number too', async () => {
    const types = [STRING, NUMBER, BOOLEAN, DATETIME, ENTITY_ID];
    for (const [i, type] of types.entries()) {
      const body = await createConstraint(ctx.api, 'default', 'table', {
        type: i + 1, property: type === ENTITY_ID ? 'entityId' : 'p', operator: type === BOOLEAN ? 'true' : 'neq', value: type === DATETIME ? '2024-01-01' : '1',
      });
      expect(body.type).toBe(type);
    }
  });

  it('refuses an unknown or missing comparison type', async () => {
    expectError(await post({ property: 'p', operator: 'eq', value: 'v' }), 400, 3, 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"');
    expectError(await post({ type: 'UNKNOWN_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v' }), 400, 3, 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"');
    const r = await post({ type: 'FANCY_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'v' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
  });

  it('operators are lower-cased before checking and storing; the error echoes the text sent', async () => {
    expect((await createConstraint(ctx.api, 'default', 'table', { type: STRING, property: 'p', operator: 'EQ', value: 'x' })).operator).toBe('eq');
    expect((await createConstraint(ctx.api, 'default', 'table', { type: NUMBER, property: 'p', operator: 'GtE', value: '1' })).operator).toBe('gte');
    expect((await createConstraint(ctx.api, 'default', 'table', { type: STRING, property: 'p', operator: 'IsOneOf', value: '["a"]' })).operator).toBe('isoneof');
    expectError(await post({ type: STRING, property: 'p', operator: 'LT', value: '1' }), 400, 3, 'constraint operator "LT" is not valid for type string');
  });

  it('no-value operators clear any value sent', async () => {
    for (const [type, operator] of [[STRING, 'empty'], [STRING, 'notempty'], [NUMBER, 'present'], [NUMBER, 'notpresent'], [BOOLEAN, 'true'], [BOOLEAN, 'false'], [DATETIME, 'present'], [BOOLEAN, 'NotPresent']]) {
      const body = await createConstraint(ctx.api, 'default', 'table', { type, property: 'p', operator, value: 'something' });
      expect(body).toMatchObject({ operator: operator.toLowerCase(), value: '' });
    }
  });

  it('other operators need a value', async () => {
    for (const [type, operator] of [[STRING, 'eq'], [NUMBER, 'lt'], [DATETIME, 'gt'], [ENTITY_ID, 'eq'], [STRING, 'isoneof']]) {
      const property = type === ENTITY_ID ? 'entityId' : 'p';
      expectError(await post({ type, property, operator }), 400, 3, 'invalid field value: must not be empty');
      expectError(await post({ type, property, operator, value: '' }), 400, 3, 'invalid field value: must not be empty');
    }
  });

  it('property and operator are required', async () => {
    expectError(await post({ type: STRING, operator: 'eq', value: 'v' }), 400, 3, 'invalid field property: must not be empty');
    expectError(await post({ type: STRING, property: 'p', value: 'v' }), 400, 3, 'invalid field operator: must not be empty');
  });

  it('entity-id constraints must be on the property "entityId"', async () => {
    expectError(await post({ type: ENTITY_ID, property: 'user', operator: 'eq', value: 'u' }), 400, 3, 'property is user instead of "entityId"');
    expectError(await post({ type: ENTITY_ID, property: 'EntityId', operator: 'eq', value: 'u' }), 400, 3, 'property is EntityId instead of "entityId"');
  });

  it('datetime values must parse; a bad one is 400, never 500', async () => {
    for (const value of ['yesterday', '2024-13-01', '2024-05-01 10:00:00', '2024-05-01T10:00:00', '1714557600']) {
      expectError(await post({ type: DATETIME, property: 'at', operator: 'gt', value }), 400, 3, `parsing datetime from ${JSON.stringify(value)}`);
    }
  });

  it('datetime isoneof fails the datetime parse (Flipt parses the list as one datetime)', async () => {
    const value = '["2024-05-01"]';
    expectError(await post({ type: DATETIME, property: 'at', operator: 'isoneof', value }), 400, 3, `parsing datetime from ${JSON.stringify(value)}`);
  });

  describe('isoneof / isnotoneof lists', () => {
    it('string and entityId lists must be JSON arrays of strings', async () => {
      for (const value of ['pro', '["pro", 1]', '[1]', '{"a":"b"}', '"pro"', '[["a"]]']) {
        expectError(await post({ type: STRING, property: 'plan', operator: 'isoneof', value }), 400, 3, 'invalid value provided for property "plan" of type string');
      }
      expectError(await post({ type: ENTITY_ID, property: 'entityId', operator: 'isnotoneof', value: '[1, 2]' }), 400, 3, 'invalid value provided for property "entityId" of type entityId');
    });

    it('number lists must be JSON arrays of numbers', async () => {
      for (const value of ['1', '["1"]', '[1, "2"]', '[true]']) {
        expectError(await post({ type: NUMBER, property: 'age', operator: 'isoneof', value }), 400, 3, 'invalid value provided for property "age" of type number');
      }
    });

    it('hold at most 100 items', async () => {
      const strings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `v${i}`));
      const numbers = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i));
      expect((await createConstraint(ctx.api, 'default', 'table', { type: STRING, property: 'plan', operator: 'isoneof', value: strings(100) })).value).toBe(strings(100));
      expectError(await post({ type: STRING, property: 'plan', operator: 'isoneof', value: strings(101) }), 400, 3,
        'too many values provided for property "plan" of type string (maximum 100)');
      expectError(await post({ type: NUMBER, property: 'age', operator: 'isnotoneof', value: numbers(101) }), 400, 3,
        'too many values provided for property "age" of type number (maximum 100)');
      expectError(await post({ type: ENTITY_ID, property: 'entityId', operator: 'isoneof', value: strings(101) }), 400, 3,
        'too many values provided for property "entityId" of type entityId (maximum 100)');
    });
  });

  it('creating on a missing segment is 404', async () => {
    expectError(
      await ctx.api.post(`${N('default')}/segments/nope/constraints`, { type: STRING, property: 'p', operator: 'eq', value: 'v' }),
      404, 5, 'segment "default/nope" not found',
    );
  });

  describe('update', () => {
    let c: any;
    beforeAll(async () => {
      c = await createConstraint(ctx.api, 'default', 'everyone', { type: STRING, property: 'fizz', operator: 'neq', value: 'buzz' });
    });

    it('replaces value and description and applies the same rules', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const body = ok(await ctx.api.put(`${constraints}/${c.id}`, { type: STRING, property: 'fizz', operator: 'EQ', value: 'baz', description: 'newdesc' }));
      expect(body).toEqual({ ...c, operator: 'eq', value: 'baz', description: 'newdesc', updatedAt: TIMESTAMP });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(c.updatedAt));
    });

    it('can change type, property and operator; datetime values are normalised, no-value operators cleared', async () => {
      const dt = ok(await ctx.api.put(`${constraints}/${c.id}`, { type: DATETIME, property: 'at', operator: 'lt', value: '2024-05-01T12:00:00.5+02:00' }));
      expect(dt).toMatchObject({ id: c.id, type: DATETIME, property: 'at', operator: 'lt', value: '2024-05-01T10:00:00Z' });
      const bool = ok(await ctx.api.put(`${constraints}/${c.id}`, { type: BOOLEAN, property: 'beta', operator: 'TRUE', value: 'x' }));
      expect(bool).toMatchObject({ id: c.id, type: BOOLEAN, property: 'beta', operator: 'true', value: '' });
    });

    it('validates like create', async () => {
      expectError(await ctx.api.put(`${constraints}/${c.id}`, { type: BOOLEAN, property: 'beta', operator: 'eq', value: 'x' }), 400, 3,
        'constraint operator "eq" is not valid for type boolean');
      expectError(await ctx.api.put(`${constraints}/${c.id}`, { type: STRING, property: 'p', operator: 'eq' }), 400, 3, 'invalid field value: must not be empty');
      expectError(await ctx.api.put(`${constraints}/${c.id}`, { type: DATETIME, property: 'at', operator: 'eq', value: 'soon' }), 400, 3, 'parsing datetime from "soon"');
    });

    it('a missing constraint is 404, also when the id belongs to another segment', async () => {
      const body = { type: STRING, property: 'p', operator: 'eq', value: 'v' };
      expectError(await ctx.api.put(`${constraints}/no-such-id`, body), 404, 5, 'constraint "no-such-id" not found');
      expectError(await ctx.api.put(`${N('default')}/segments/table/constraints/${c.id}`, body), 404, 5, `constraint "${c.id}" not found`);
    });
  });

  it('GetSegment lists constraints in creation order', async () => {
    const a = await createConstraint(ctx.api, 'default', 'everyone', { type: STRING, property: 'a', operator: 'eq', value: '1' });
    const b = await createConstraint(ctx.api, 'default', 'everyone', { type: STRING, property: 'b', operator: 'eq', value: '2' });
    const segment = ok(await ctx.api.get(`${N('default')}/segments/everyone`));
    const ids = segment.constraints.map((x: { id: string }) => x.id);
    expect(ids.slice(-2)).toEqual([a.id, b.id]);
    expect(segment.constraints.map((x: { property: string }) => x.property)).toEqual(['plan', 'beta', 'a', 'b']);
  });

  it('deletes a constraint (200 {}); deleting a missing one also succeeds', async () => {
    const c = await createConstraint(ctx.api, 'default', 'everyone', { type: STRING, property: 'gone', operator: 'eq', value: '1' });
    const r = await ctx.api.delete(`${constraints}/${c.id}`);
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    const segment = ok(await ctx.api.get(`${N('default')}/segments/everyone`));
    expect(segment.constraints.map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect(ok(await ctx.api.delete(`${constraints}/${c.id}`))).toEqual({});
  });

  it('a very long property is refused with 400 naming the field, never 500', async () => {
    expectInvalidNaming(await post({ type: STRING, property: 'p'.repeat(300), operator: 'eq', value: 'v' }), 'property');
  });
});
