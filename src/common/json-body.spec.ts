import { jsonDepthExceeds } from './json-body';

describe('jsonDepthExceeds', () => {
  it.each([
    ['{}', 1, false],
    ['{}', 0, true],
    ['[[[]]]', 3, false],
    ['[[[]]]', 2, true],
    ['{"a":{"b":[1,{"c":2}]}}', 4, false],
    ['{"a":{"b":[1,{"c":2}]}}', 3, true],
    // Brackets inside strings, escaped quotes and escaped backslashes are text, not nesting.
    ['{"a":"[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a":"\\\\","b":[[]]}', 2, true],
    ['[1],[2],[3]', 1, false],
    // Malformed text is measured all the same; JSON.parse refuses it next.
    ['[[[', 2, true],
    ['"unterminated [[[[', 1, false],
  ])('%s with max %d → %s', (text, max, exceeds) => {
    expect(jsonDepthExceeds(text, max)).toBe(exceeds);
  });

  it('measures 100,000 levels without recursion', () => {
    expect(jsonDepthExceeds('['.repeat(100_000) + ']'.repeat(100_000), 64)).toBe(true);
  });
});
