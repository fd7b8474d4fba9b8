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

  it(`caps each level: values past maxKeys share the ${OVERFLOW_LABEL} child`, () => {
    const cache = new ChildCache((values) => values.join('/'), 2);
    expect(cache.get('ns', 'a')).toBe('ns/a');
    expect(cache.get('ns', 'b')).toBe('ns/b');
    expect(cache.get('ns', 'c')).toBe(`ns/${OVERFLOW_LABEL}`);
    expect(cache.get('ns', 'd')).toBe(`ns/${OVERFLOW_LABEL}`);
    expect(cache.get('ns', 'a')).toBe('ns/a');
  });
});
