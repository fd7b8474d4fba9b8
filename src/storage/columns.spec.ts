import { toDate } from './columns';

describe('toDate reads every driver\'s timestamp spelling as UTC', () => {
  const expected = '2026-11-22T02:56:32.814Z';
  it.each([
    ['Date (pg, mysql2)', new Date(expected)],
    ['epoch ms (sqlite)', Date.parse(expected)],
    ['epoch ms as text', String(Date.parse(expected))],
    ['PostgreSQL text with +00', '2026-11-22 02:56:32.814+00'],
    ['PostgreSQL text with +00:00', '2026-11-22 02:56:32.814+00:00'],
    ['MySQL text without zone', '2026-11-22 02:56:32.814'],
    ['ISO with Z', expected],
  ])('%s', (_, value) => {
    expect(toDate(value).toISOString()).toBe(expected);
  });

  it('honours a non-UTC offset', () => {
    expect(toDate('2026-11-22 04:56:32.814+02').toISOString()).toBe(expected);
  });
});
