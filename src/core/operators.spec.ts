import { ComparisonType } from '../wire';
import {
  isOperatorAllowed,
  NO_VALUE_OPERATORS,
  OPERATORS_BY_TYPE,
  parseGoFloat,
  normalizeDateTimeValue,
} from './operators';

describe('operator tables (facts §4.3)', () => {
  it.each<[number, string[]]>([
    [ComparisonType.STRING, ['eq', 'neq', 'empty', 'notempty', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains']],
    [ComparisonType.NUMBER, ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof']],
    [ComparisonType.BOOLEAN, ['true', 'false', 'present', 'notpresent']],
    [ComparisonType.DATETIME, ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof']],
    [ComparisonType.ENTITY_ID, ['eq', 'neq', 'isoneof', 'isnotoneof', 'contains', 'notcontains']],
  ])('type %p allows exactly %j', (type, operators) => {
    expect([...OPERATORS_BY_TYPE.get(type)!].sort()).toEqual([...operators].sort());
  });

  it.each<[number, string, boolean]>([
    [ComparisonType.STRING, 'EQ', true],
    [ComparisonType.STRING, 'NotEmpty', true],
    [ComparisonType.STRING, 'lt', false],
    [ComparisonType.STRING, 'present', false],
    [ComparisonType.NUMBER, 'contains', false],
    [ComparisonType.BOOLEAN, 'eq', false],
    [ComparisonType.BOOLEAN, 'TRUE', true],
    [ComparisonType.DATETIME, 'gte', true],
    [ComparisonType.ENTITY_ID, 'prefix', false],
    [ComparisonType.ENTITY_ID, 'empty', false],
    [ComparisonType.UNKNOWN, 'eq', false],
    [42, 'eq', false],
  ])('isOperatorAllowed(%p, %j) is %p', (type, operator, allowed) => {
    expect(isOperatorAllowed(type, operator)).toBe(allowed);
  });

  it('lists the operators that take no value', () => {
    expect([...NO_VALUE_OPERATORS].sort()).toEqual(['empty', 'false', 'notempty', 'notpresent', 'present', 'true']);
  });

  it('re-exports the value parsers write-side validation needs', () => {
    expect(parseGoFloat('')).toBeNull();
    expect(normalizeDateTimeValue('2024-06-01T12:00:00.75+02:00')).toBe('2024-06-01T10:00:00Z');
  });
});
