import { goTrimSpace, isGoBlank, parseGoBool, parseGoFloat } from './go-parsing';

describe('parseGoFloat (strconv.ParseFloat(s, 64))', () => {
  it.each<[string, number | null]>([
    ['1', 1],
    ['-2.5', -2.5],
    ['+3', 3],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1e+3', 1000],
    ['2.5e-3', 0.0025],
    ['.5', 0.5],
    ['5.', 5],
    ['007', 7],
    ['-0', -0],
    ['1e-400', 0], // underflow is not an error in Go
    ['Inf', Infinity],
    ['+Inf', Infinity],
    ['-Inf', -Infinity],
    ['inf', Infinity],
    ['INFINITY', Infinity],
    ['-infinity', -Infinity],
    ['NaN', NaN],
    ['nan', NaN],
    ['0x1p-2', 0.25],
    ['0X1P+2', 4],
    ['0x1.8p1', 3],
    ['-0x10p0', -16],
    ['0x.8p1', 1],
    ['0x1p-1074', 5e-324],
    ['0x1.fffffffffffff7p1023', 1.7976931348623157e308],
    // Go accepts underscores between digits (its own tests: "1_23.50_0_0e+1_2" → 1.235e14)
    ['1_000', 1000],
    ['1_23.50_0_0e+1_2', 1.235e14],
    ['0x_1_2.3_4_5p+1_2', 74565],
  ])('accepts %j as %p', (input, expected) => {
    expect(parseGoFloat(input)).toBe(expected);
  });

  it.each([
    '',
    ' ',
    ' 1',
    '1 ',
    '1\n',
    'abc',
    '1.5x',
    '1,5',
    '.',
    '+',
    '-',
    '1e',
    '1e+',
    'e5',
    '1..2',
    '+nan',
    '-NaN',
    'infin',
    'infinityx',
    'Infinit',
    '0x',
    '0x1', // hex floats need a binary exponent
    '0x1.8',
    '0xp1',
    '0x1e3', // 'e' is a hex digit, the exponent is still missing
    '1e400', // overflow is ErrRange in Go, a failure for Flipt
    '-1e400',
    '0x1p1024',
    '0x1.fffffffffffff8p1023', // rounds up past the largest double
    '_1',
    '1_',
    '1__0',
    '+_1',
    '1_.5',
    '1._5',
    '1_e5',
    '1e_5',
    '0b101',
    '0o17',
    '١', // Arabic-Indic digit one
  ])('rejects %j', (input) => {
    expect(parseGoFloat(input)).toBeNull();
  });
});

describe('parseGoBool (strconv.ParseBool)', () => {
  it.each<[string, boolean | null]>([
    ['1', true],
    ['t', true],
    ['T', true],
    ['TRUE', true],
    ['true', true],
    ['True', true],
    ['0', false],
    ['f', false],
    ['F', false],
    ['FALSE', false],
    ['false', false],
    ['False', false],
    ['', null],
    ['tRUE', null],
    ['yes', null],
    ['on', null],
    [' true', null],
    ['2', null],
  ])('%j → %p', (input, expected) => {
    expect(parseGoBool(input)).toBe(expected);
  });
});

describe('goTrimSpace (strings.TrimSpace)', () => {
  it.each<[string, string]>([
    ['', ''],
    ['abc', 'abc'],
    ['  abc  ', 'abc'],
    ['\t\n\v\f\r abc \r\n', 'abc'],
    ['\u0085abc\u00a0', 'abc'], // NEL and NBSP are spaces to Go
    ['\u2003abc\u3000', 'abc'],
    ['\u2028\u2029\u202f\u205f\u1680abc', 'abc'],
    ['\ufeffabc', '\ufeffabc'], // BOM is not (String.prototype.trim would strip it)
    ['\u200babc', '\u200babc'], // zero-width space is not White_Space
    ['a b', 'a b'],
    ['   ', ''],
  ])('%j → %j', (input, expected) => {
    expect(goTrimSpace(input)).toBe(expected);
    expect(isGoBlank(input)).toBe(expected === '');
  });
});
