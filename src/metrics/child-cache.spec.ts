import { ChildCache, OVERFLOW_LABEL } from './child-cache';

describe('ChildCache', () => {
  it('makes one child per distinct label values and hands it back after', () => {
    const made: string[][] = [];
    const cache = new ChildCache((values) => (made.push(values), { values }));
    const a = cache.get('default', 'flag-a', true);
    expect(cache.get('default', 'flag-a', true)).toBe(a);
    expect(cache.get('default', 'flag-a', false)).not.toBe(a);
    expect(made).toEqual([
      ['default', 'flag-a', 'true'],
      ['default', 'flag-a', 'false'],
    ]);
  });

  it(`caps the children in all, not per level: past maxChildren new values share the ${OVERFLOW_LABEL} child`, () => {
    const made: string[][] = [];
    const cache = new ChildCache((values) => (made.push(values), values.join('/')), 3);
    expect(cache.get('ns', 'a')).toBe('ns/a');
    expect(cache.get('ns', 'b')).toBe('ns/b');
    expect(cache.get('other', 'a')).toBe('other/a');
    // A new value at either level, or both, once the cap is reached.
    expect(cache.get('ns', 'c')).toBe(`${OVERFLOW_LABEL}/${OVERFLOW_LABEL}`);
    expect(cache.get('third', 'a')).toBe(`${OVERFLOW_LABEL}/${OVERFLOW_LABEL}`);
    expect(cache.get('third', 'z')).toBe(`${OVERFLOW_LABEL}/${OVERFLOW_LABEL}`);
    // Known values keep their child; the overflow child is made once.
    expect(cache.get('ns', 'a')).toBe('ns/a');
    expect(cache.get('other', 'a')).toBe('other/a');
    expect(made).toHaveLength(4);
  });
});
