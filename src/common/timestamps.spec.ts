import { formatPreciseTimestamp, formatTimestamp } from './timestamps';

describe('formatTimestamp', () => {
  it.each([
    ['2024-03-01T10:20:30.000Z', '2024-03-01T10:20:30Z'],
    ['2024-03-01T10:20:30.120Z', '2024-03-01T10:20:30.120Z'],
  ])('%s → %s', (iso, text) => expect(formatTimestamp(new Date(iso))).toBe(text));
});

describe('formatPreciseTimestamp', () => {
  const base = Date.parse('2024-03-01T10:20:30Z');

  it.each([
    [0, '2024-03-01T10:20:30.000000000Z'],
    // Near 2024, a double resolves 2^-12 ms (about 244 ns).
    [2 ** -12, '2024-03-01T10:20:30.000000244Z'],
    [1.5, '2024-03-01T10:20:30.001500000Z'],
    [999.25, '2024-03-01T10:20:30.999250000Z'],
    [1000 - 2 ** -12, '2024-03-01T10:20:30.999999756Z'],
    [1000, '2024-03-01T10:20:31.000000000Z'],
  ])('base + %p ms → %s', (offset, text) => expect(formatPreciseTimestamp(base + offset)).toBe(text));

  it('formats each second anew, forwards and backwards', () => {
    expect(formatPreciseTimestamp(base + 1)).toBe('2024-03-01T10:20:30.001000000Z');
    expect(formatPreciseTimestamp(base + 86_400_000)).toBe('2024-03-02T10:20:30.000000000Z');
    expect(formatPreciseTimestamp(base - 1)).toBe('2024-03-01T10:20:29.999000000Z');
  });

  it('agrees with Date for whole milliseconds', () => {
    for (let ms = base; ms < base + 5000; ms += 37) {
      expect(formatPreciseTimestamp(ms)).toBe(new Date(ms).toISOString().replace('Z', '000000Z'));
    }
  });
});
