import {
  compileConstraint,
  compileSegment,
  matchConstraint,
  matchSegment,
  parseNumberList,
  parseStringList,
} from './constraints';
import { EvaluationError } from './errors';
import { BOOLEAN, DATETIME, ENTITY_ID, NUMBER, STRING, constraint, segment } from './testdata/builders';

/** [operator, constraint value, context value (undefined = property absent), expected] */
type Row = [string, string, string | undefined, boolean];

function check(type: number, [operator, value, contextValue, expected]: Row): void {
  const c = compileConstraint(constraint(type, 'p', operator, value));
  const context: Record<string, string> = contextValue === undefined ? {} : { p: contextValue };
  expect(matchConstraint(c, context, 'some-entity')).toBe(expected);
}

describe('STRING constraints', () => {
  it.each<Row>([
    ['eq', 'pro', 'pro', true],
    ['eq', 'pro', 'Pro', false],
    ['eq', 'pro', ' pro', false], // no trimming
    ['eq', 'pro', undefined, false],
    ['neq', 'pro', 'free', true],
    ['neq', 'pro', 'pro', false],
    ['neq', 'pro', undefined, false], // every value op is false for a missing property
    ['neq', 'pro', '', false],
    ['empty', '', undefined, true],
    ['empty', '', '', true],
    ['empty', '', ' \t\n', true],
    ['empty', '', '\u00a0\u0085', true],
    ['empty', '', '\ufeff', false], // not a space to Go
    ['empty', '', 'x', false],
    ['notempty', '', 'x', true],
    ['notempty', '', '  ', false],
    ['notempty', '', undefined, false],
    ['prefix', 'ab', 'abc', true],
    ['prefix', 'ab', '  abc', true], // the context value is trimmed
    ['prefix', 'ab', 'xab', false],
    ['prefix', 'ab', 'a', false],
    ['prefix', 'ab', undefined, false],
    ['prefix', ' a', ' ab', false], // the constraint value is not
    ['suffix', 'yz', 'xyz', true],
    ['suffix', 'yz', 'xyz \n', true],
    ['suffix', 'yz', 'yzx', false],
    ['suffix', 'yz', ' z', false],
    ['suffix', 'yz', undefined, false],
    ['contains', 'ell', 'hello', true],
    ['contains', 'ell', 'HELLO', false],
    ['contains', ' ', 'a b', true],
    ['contains', ' b', ' b ', true], // no trimming
    ['contains', 'ell', undefined, false],
    ['notcontains', 'ell', 'world', true],
    ['notcontains', 'ell', 'hello', false],
    ['notcontains', 'ell', undefined, false],
    ['isoneof', '["a","b"]', 'a', true],
    ['isoneof', '["a","b"]', 'c', false],
    ['isoneof', '["a","b"]', 'A', false],
    ['isoneof', '["a","b"]', undefined, false],
    ['isoneof', ' [ "a" ] ', 'a', true],
    ['isoneof', '["a",', 'a', false], // bad JSON
    ['isoneof', '"a"', 'a', false], // not an array
    ['isoneof', '["a",1]', 'a', false], // Go fails the whole unmarshal
    ['isoneof', 'null', 'a', false],
    ['isnotoneof', '["a","b"]', 'c', true],
    ['isnotoneof', '["a","b"]', 'a', false],
    ['isnotoneof', '["a","b"]', undefined, false],
    ['isnotoneof', '["a",', 'c', false], // bad JSON is false both ways
    ['isnotoneof', 'null', 'c', true], // Go reads null as an empty list
    ['EQ', 'pro', 'pro', true], // operators are matched lower-cased
    ['present', '', 'x', false], // not a string operator
    ['lt', 'b', 'a', false],
  ])('%s %j with %j → %p', (...row) => check(STRING, row));
});

describe('NUMBER constraints', () => {
  it.each<Row>([
    ['eq', '10', '10', true],
    ['eq', '10', '10.0', true],
    ['eq', '10', '1e1', true],
    ['eq', '10', '0xAp0', true],
    ['eq', '1000', '1_000', true],
    ['eq', '10', ' 10', false], // Go does not trim before parsing
    ['eq', '10', 'ten', false],
    ['eq', '10', '', false],
    ['eq', '10', undefined, false],
    ['eq', 'abc', '1', false], // unparsable constraint value
    ['eq', '0', '-0', true],
    ['eq', 'NaN', 'NaN', false],
    ['neq', '10', '11', true],
    ['neq', '10', '10', false],
    ['neq', '10', 'x', false],
    ['neq', '10', undefined, false],
    ['neq', '10', 'NaN', true],
    ['lt', '10', '9', true],
    ['lt', '10', '10', false],
    ['lt', '10', '-Inf', true],
    ['lt', '10', 'NaN', false],
    ['lt', 'Inf', '1e308', true],
    ['lt', '10', undefined, false],
    ['lte', '10', '10', true],
    ['lte', '10', '10.000001', false],
    ['gt', '10', '11', true],
    ['gt', '10', '+Inf', true],
    ['gt', '10', '10', false],
    ['gt', '-1', undefined, false],
    ['gte', '10', '10', true],
    ['gte', '10', '9.99', false],
    ['gte', '10', '1e400', false], // overflow is a parse error
    ['present', '', '1', true],
    ['present', '', 'not a number', true], // presence does not parse
    ['present', '', ' ', false],
    ['present', '', undefined, false],
    ['notpresent', '', undefined, true],
    ['notpresent', '', '\t', true],
    ['notpresent', '', '0', false],
    ['isoneof', '[1, 2.5]', '2.5', true],
    ['isoneof', '[1, 2.5]', '1.0', true],
    ['isoneof', '[1, 2.5]', '3', false],
    ['isoneof', '[1, 2.5]', 'x', false],
    ['isoneof', '[1, 2.5]', undefined, false],
    ['isoneof', '[1,', '1', false],
    ['isoneof', '["1"]', '1', false],
    ['isoneof', '[1e400]', '1', false], // Go rejects out-of-range numbers
    ['isoneof', '[1, null]', '0', true], // Go keeps 0 for a null element
    ['isnotoneof', '[1, 2]', '3', true],
    ['isnotoneof', '[1, 2]', '1', false],
    ['isnotoneof', '[1, 2]', 'x', false],
    ['isnotoneof', '[1, 2]', undefined, false],
    ['isnotoneof', '[1,', '3', false],
    ['contains', '1', '10', false],
  ])('%s %j with %j → %p', (...row) => check(NUMBER, row));
});

describe('BOOLEAN constraints', () => {
  it.each<Row>([
    ...['1', 't', 'T', 'TRUE', 'true', 'True'].map((v): Row => ['true', '', v, true]),
    ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((v): Row => ['true', '', v, false]),
    ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((v): Row => ['false', '', v, true]),
    ...['1', 't', 'T', 'TRUE', 'true', 'True'].map((v): Row => ['false', '', v, false]),
    ['true', '', 'tRUE', false],
    ['true', '', 'yes', false],
    ['true', '', ' true', false],
    ['true', '', undefined, false],
    ['false', '', 'no', false], // unparsable is not "false"
    ['false', '', undefined, false],
    ['present', '', 'anything', true],
    ['present', '', undefined, false],
    ['notpresent', '', undefined, true],
    ['notpresent', '', 'false', false],
    ['eq', 'true', 'true', false],
  ])('%s %j with %j → %p', (...row) => check(BOOLEAN, row));
});

describe('DATETIME constraints', () => {
  it.each<Row>([
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', true],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T01:00:00+01:00', true],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01', true], // date-only is midnight UTC
    ['eq', '2024-01-01', '2024-01-01T00:00:00Z', true],
    ['eq', '2024-01-01T01:00:00Z', '2024-01-01T1:00:00Z', true],
    ['eq', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000001Z', false], // nanosecond precision
    ['eq', '2024-01-01T00:00:00Z', 'garbage', false],
    ['eq', '2024-01-01T00:00:00Z', undefined, false],
    ['eq', 'tomorrow', '2024-01-01', false], // unparsable constraint value
    ['neq', '2024-01-01', '2024-01-02', true],
    ['neq', '2024-01-01', '2024-01-01T00:00:00Z', false],
    ['neq', '2024-01-01', 'garbage', false],
    ['neq', '2024-01-01', undefined, false],
    ['lt', '2024-06-01', '2024-05-31T23:59:59Z', true],
    ['lt', '2024-06-01', '2024-06-01', false],
    ['lte', '2024-06-01', '2024-06-01T00:00:00Z', true],
    ['lte', '2024-06-01', '2024-06-01T00:00:00.001Z', false],
    ['gt', '2024-06-01', '2024-06-01T00:00:00.5Z', true],
    ['gt', '2024-06-01', '2024-06-01', false],
    ['gte', '2024-06-01', '2024-06-01', true],
    ['gte', '2024-06-01', '2024-05-31', false],
    ['gte', '2024-06-01', undefined, false],
    ['isoneof', '["2024-01-01"]', '2024-01-01', false], // allowed by validation, never matches
    ['isnotoneof', '["2024-01-01"]', '2024-01-02', false],
    ['present', '', 'not a date', true],
    ['present', '', undefined, false],
    ['notpresent', '', undefined, true],
    ['notpresent', '', '2024-01-01', false],
  ])('%s %j with %j → %p', (...row) => check(DATETIME, row));
});

describe('ENTITY_ID constraints test the entity id, not the context', () => {
  it.each<[string, string, string, boolean]>([
    // operator, value, entity id, expected
    ['eq', 'user@flipt.io', 'user@flipt.io', true],
    ['eq', 'user@flipt.io', 'other@flipt.io', false],
    ['eq', 'user@flipt.io', '', false],
    ['neq', 'user@flipt.io', 'other', true],
    ['neq', 'user@flipt.io', '', false],
    ['contains', '@flipt.io', 'user@flipt.io', true],
    ['notcontains', '@flipt.io', 'user@example.com', true],
    ['isoneof', '["a","b"]', 'b', true],
    ['isnotoneof', '["a","b"]', 'c', true],
    ['isnotoneof', '["a","b"]', '', false],
  ])('%s %j with entity %j → %p', (operator, value, entityId, expected) => {
    const c = compileConstraint(constraint(ENTITY_ID, 'entityId', operator, value));
    expect(matchConstraint(c, { entityId: 'user@flipt.io' }, entityId)).toBe(expected);
  });
});

describe('context lookup', () => {
  it.each<[string, Record<string, string>]>([
    ['toString', {}],
    ['constructor', {}],
    ['__proto__', {}],
    ['hasOwnProperty', {}],
    ['n', { n: 5 as unknown as string }], // a non-string from a sloppy caller reads as missing
  ])('property %j reads as missing', (property, context) => {
    expect(matchConstraint(compileConstraint(constraint(STRING, property, 'empty')), context, 'e')).toBe(true);
  });
});

describe('constraints of unknown type', () => {
  it.each([0, 6, -1])('type %p fails with INVALID "unknown constraint type"', (type) => {
    const c = compileConstraint(constraint(type, 'p', 'eq', 'x'));
    expect(() => matchConstraint(c, { p: 'x' }, 'e')).toThrow(
      expect.objectContaining({ kind: 'INVALID', message: 'unknown constraint type' }),
    );
  });
});

describe('matchSegment', () => {
  const yes = () => constraint(STRING, 'a', 'eq', 'yes');
  const no = () => constraint(STRING, 'a', 'eq', 'no');
  const context = { a: 'yes' };

  it.each<[string, number, (() => ReturnType<typeof yes>)[], boolean]>([
    ['ALL, all match', 0, [yes, yes], true],
    ['ALL, one fails', 0, [yes, no], false],
    ['ALL, no constraints', 0, [], true],
    ['ANY, one matches', 1, [no, yes], true],
    ['ANY, none match', 1, [no, no], false],
    ['ANY, no constraints', 1, [], true],
    ['unknown match type', 7, [yes], false],
    ['unknown match type, no constraints', 7, [], false],
  ])('%s → %p', (_, matchType, constraints, expected) => {
    const seg = compileSegment(segment('s', constraints.map((make) => make()), matchType));
    expect(matchSegment(seg, context, 'e')).toBe(expected);
  });

  it('fails on an unknown constraint type even when another constraint already decided the match', () => {
    const seg = compileSegment(segment('s', [yes(), constraint(0, 'a', 'eq', 'yes')], 1));
    expect(seg.hasUnknownType).toBe(true);
    expect(() => matchSegment(seg, context, 'e')).toThrow(EvaluationError);
  });
});

describe('list parsing', () => {
  it.each<[string, string[] | null]>([
    ['["a","b"]', ['a', 'b']],
    ['[]', []],
    ['null', []],
    ['["a",null]', ['a', '']],
    ['[1]', null],
    ['{}', null],
    ['', null],
    ['["a"] x', null],
  ])('strings %j → %j', (text, expected) => {
    const set = parseStringList(text);
    expect(set === null ? null : [...set]).toEqual(expected);
  });

  it.each<[string, number[] | null]>([
    ['[1, 2.5, -3e2]', [1, 2.5, -300]],
    ['[]', []],
    ['null', []],
    ['[null]', [0]],
    ['["1"]', null],
    ['[1e999]', null],
    ['[true]', null],
  ])('numbers %j → %j', (text, expected) => {
    const set = parseNumberList(text);
    expect(set === null ? null : [...set]).toEqual(expected);
  });
});
