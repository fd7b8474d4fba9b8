import { compareInstants, normalizeDateTimeValue, parseFliptDateTime, parseInstant } from './datetime';

describe('parseFliptDateTime / normalizeDateTimeValue', () => {
  it.each<[string, string, string]>([
    // input, instant (ISO, ms), normalised stored form
    ['2024-01-02', '2024-01-02T00:00:00.000Z', '2024-01-02'],
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05+02:00', '2024-01-02T01:04:05.000Z', '2024-01-02T01:04:05Z'],
    ['2024-01-02T03:04:05-05:30', '2024-01-02T08:34:05.000Z', '2024-01-02T08:34:05Z'],
    ['2024-01-02T03:04:05.999Z', '2024-01-02T03:04:05.999Z', '2024-01-02T03:04:05Z'], // fraction truncated
    ['2024-01-02T03:04:05.123456789123Z', '2024-01-02T03:04:05.123Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05,5Z', '2024-01-02T03:04:05.500Z', '2024-01-02T03:04:05Z'], // Go accepts a comma
    ['2024-01-02T3:04:05Z', '2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05Z'], // and a one-digit hour
    ['2024-01-01T00:30:00+01:00', '2023-12-31T23:30:00.000Z', '2023-12-31T23:30:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z', '2024-02-29'],
    ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z', '2000-02-29T12:00:00Z'],
    ['0050-06-01', '0050-06-01T00:00:00.000Z', '0050-06-01'], // not 1950
    ['2024-01-01T00:00:00+24:00', '2023-12-31T00:00:00.000Z', '2023-12-31T00:00:00Z'],
  ])('%j', (input, instant, normalised) => {
    expect(parseFliptDateTime(input)?.toISOString()).toBe(instant);
    expect(normalizeDateTimeValue(input)).toBe(normalised);
  });

  it.each([
    '',
    'now',
    '2024',
    '2024-1-02',
    '2024-01-2',
    '2024/01/02',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '2023-02-29',
    '2024-04-31',
    '2024-01-02 03:04:05Z',
    '2024-01-02t03:04:05Z',
    '2024-01-02T03:04:05z',
    '2024-01-02T03:04:05',
    '2024-01-02T03:04Z',
    '2024-01-02T24:00:00Z',
    '2024-01-02T03:60:00Z',
    '2024-01-02T03:04:60Z',
    '2024-01-02T03:04:05.Z',
    '2024-01-02T03:04:05+0100',
    '2024-01-02T03:04:05+25:00',
    '2024-01-02T03:04:05Z ',
    ' 2024-01-02',
    '2024-01-02Z',
    '2024-01-02T03:04:05.5',
  ])('rejects %j', (input) => {
    expect(parseFliptDateTime(input)).toBeNull();
    expect(normalizeDateTimeValue(input)).toBeNull();
  });

  it('formats years outside 0000–9999 the way Go does after conversion to UTC', () => {
    expect(normalizeDateTimeValue('0000-01-01T00:00:00+01:00')).toBe('-0001-12-31T23:00:00Z');
    expect(normalizeDateTimeValue('9999-12-31T23:00:00-01:00')).toBe('10000-01-01T00:00:00Z');
  });

  it('compares instants at nanosecond precision', () => {
    const a = parseInstant('2024-01-01T00:00:00Z')!;
    const b = parseInstant('2024-01-01T00:00:00.000000001Z')!;
    expect(compareInstants(a, b)).toBeLessThan(0);
    expect(compareInstants(b, a)).toBeGreaterThan(0);
    expect(compareInstants(a, parseInstant('2024-01-01')!)).toBe(0);
    expect(compareInstants(a, parseInstant('2024-01-01T01:00:00+01:00')!)).toBe(0);
  });
});
