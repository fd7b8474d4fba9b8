import { formatDuration, parseDuration, toNanoseconds } from './duration';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['30s', 30_000],
    ['500ms', 500],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['2h45m10s', 9_910_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['1.s', 1_000],
    ['1m30.5s', 90_500],
    ['250us', 0.25],
    ['250µs', 0.25],
    ['1500ns', 0.0015],
    ['-5m', -300_000],
    ['+5m', 300_000],
    ['  10s  ', 10_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '30', '1.5', 's', '1d', '1h 30m', '1H', 'm1', '1h-30m', 'abc', '--1s', '1hm'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [500, '500ms'],
    [1_500, '1s500ms'],
    [60_000, '1m'],
    [90_000, '1m30s'],
    [86_400_000, '24h'],
    [9_910_000, '2h45m10s'],
    [0.25, '250us'],
    [-300_000, '-5m'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });
});

describe('toNanoseconds', () => {
  it('gives Go time.Duration integers', () => {
    expect(toNanoseconds(60_000)).toBe(60_000_000_000);
    expect(toNanoseconds(0.0015)).toBe(1_500);
  });
});
