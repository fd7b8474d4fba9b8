import { ValidationError } from '../common/errors';
import { bucketsOf, minuteTimestamp, parseAnalyticsTime, stepMinutes } from './analytics-range';

const HOUR = 3_600_000;

describe('parseAnalyticsTime', () => {
  it.each([
    ['2026-12-07T09:30:00Z', Date.UTC(2026, 11, 7, 9, 30)],
    ['2026-12-07T09:30:00.5Z', Date.UTC(2026, 11, 7, 9, 30, 0, 500)],
    ['2026-12-07T10:30:00+01:00', Date.UTC(2026, 11, 7, 9, 30)],
    ['2026-12-07T08:00:00-01:30', Date.UTC(2026, 11, 7, 9, 30)],
    ['2026-12-07 09:30:00', Date.UTC(2026, 11, 7, 9, 30)],
  ])('%s', (text, ms) => {
    expect(parseAnalyticsTime('from', text)).toBe(ms);
  });

  it.each(['', 'yesterday', '2026-12-07', '2026-02-30T00:00:00Z', '2026-12-07T24:00:00Z', '2026-12-07T09:30:00', '1701939600'])('refuses %j', (text) => {
    expect(() => parseAnalyticsTime('from', text)).toThrow(ValidationError);
    expect(() => parseAnalyticsTime('from', text)).toThrow(/^invalid field from: /);
  });
});

describe('steps and buckets', () => {
  it.each([
    [HOUR, 1],
    [4 * HOUR - 1, 1],
    [4 * HOUR, 5],
    [12 * HOUR, 15],
    [24 * HOUR - 1, 15],
    [24 * HOUR, 30],
    [7 * 24 * HOUR, 30],
  ])('a range of %d ms has %d-minute steps', (ms, step) => {
    expect(stepMinutes(ms)).toBe(step);
  });

  it('cuts buckets on multiples of the step, from the one holding from to the one holding to', () => {
    const from = Date.UTC(2026, 11, 7, 9, 7, 30);
    const b = bucketsOf(from, from + 5 * HOUR, 1000);
    expect(b.step).toBe(5);
    expect(minuteTimestamp(b.firstMinute)).toBe('2026-12-07T09:05:00Z');
    expect(minuteTimestamp(b.lastMinute)).toBe('2026-12-07T14:05:00Z');
    expect(b.count).toBe(61);
  });

  it('refuses a range that ends before it starts, or one of too many steps', () => {
    expect(() => bucketsOf(2 * HOUR, HOUR, 1000)).toThrow('invalid field to: must not be before from');
    expect(() => bucketsOf(0, 400 * 24 * HOUR, 10_000)).toThrow(/at most 10000/);
  });
});
