import { validateConstraint } from './constraint.validation';

const ok = (req: Parameters<typeof validateConstraint>[1]) => validateConstraint('seg', req);

describe('constraint validation (Flipt §4.3)', () => {
  it.each([
    [{ type: 1, property: 'p', operator: 'EQ', value: 'v' }, { operator: 'eq', value: 'v' }],
    [{ type: 1, property: 'p', operator: 'empty', value: 'ignored' }, { operator: 'empty', value: '' }],
    [{ type: 3, property: 'p', operator: 'true' }, { operator: 'true', value: '' }],
    [{ type: 2, property: 'p', operator: 'isoneof', value: '[1, 2.5]' }, { value: '[1, 2.5]' }],
    [{ type: 4, property: 'p', operator: 'gt', value: '2024-05-01T10:00:00.123+02:00' }, { value: '2024-05-01T08:00:00Z' }],
    [{ type: 4, property: 'p', operator: 'lt', value: '2024-05-01' }, { value: '2024-05-01' }],
    [{ type: 5, property: 'entityId', operator: 'isoneof', value: '["a","b"]' }, { property: 'entityId' }],
  ])('accepts %j', (req, expected) => {
    expect(ok(req)).toMatchObject(expected);
  });

  it.each([
    [{ type: 1, operator: 'eq', value: 'v' }, 'invalid field property: must not be empty'],
    [{ type: 1, property: 'p', value: 'v' }, 'invalid field operator: must not be empty'],
    [{ type: 0, property: 'p', operator: 'eq', value: 'v' }, 'invalid constraint type: "UNKNOWN_COMPARISON_TYPE"'],
    [{ type: 1, property: 'p', operator: 'GT', value: 'v' }, 'constraint operator "GT" is not valid for type string'],
    [{ type: 3, property: 'p', operator: 'eq', value: 'v' }, 'constraint operator "eq" is not valid for type boolean'],
    [{ type: 5, property: 'user', operator: 'eq', value: 'v' }, 'property is user instead of "entityId"'],
    [{ type: 1, property: 'p', operator: 'eq' }, 'invalid field value: must not be empty'],
    [{ type: 4, property: 'p', operator: 'eq', value: 'yesterday' }, 'parsing datetime from "yesterday"'],
    [{ type: 1, property: 'p', operator: 'isoneof', value: '[1]' }, 'invalid value provided for property "p" of type string'],
    [{ type: 2, property: 'p', operator: 'isnotoneof', value: '["1"]' }, 'invalid value provided for property "p" of type number'],
    [
      { type: 5, property: 'entityId', operator: 'isoneof', value: JSON.stringify(Array.from({ length: 101 }, (_, i) => `e${i}`)) },
      'too many values provided for property "entityId" of type entityId (maximum 100)',
    ],
  ])('refuses %j: %s', (req, message) => {
    expect(() => ok(req)).toThrow(message);
  });

  it('requires the segment key', () => {
    expect(() => validateConstraint('', { type: 1, property: 'p', operator: 'eq', value: 'v' })).toThrow('invalid field segmentKey: must not be empty');
  });
});
