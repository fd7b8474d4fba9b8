import { isPlainPathPrefix } from './forwarded-prefix';

describe('isPlainPathPrefix', () => {
  it.each([
    ['', true],
    ['/flagpole', true],
    ['/a/b', true],
    ['/a/b/', true],
    ['/flags-1.2_~', true],
    ['/%7Eme', true],
    ['/', false],
    ['//evil.example', false],
    ['/\\evil.example', false],
    ['https://evil.example', false],
    ['flagpole', false],
    ['/a//b', false],
    ['/a;Domain=evil', false],
    ['/a,/b', false],
    ['/a b', false],
    ['/a\r\nSet-Cookie: x', false],
    ['/a?x', false],
    ['/a#x', false],
    ['/%zz', false],
  ])('%j → %s', (prefix, expected) => {
    expect(isPlainPathPrefix(prefix)).toBe(expected);
  });
});
