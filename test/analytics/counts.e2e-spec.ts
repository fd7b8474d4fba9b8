/**
 * Evaluation analytics on one instance (docs/api.md, Analytics), on the dialect under test: every evaluation that
 * passes through the server counts once whatever its route (REST v2 single and batch items, the legacy v1 routes,
 * OFREP single and bulk), failed and client-side evaluations count nothing; Flipt's route answers each step with
 * empty steps 0, for each of Flipt's step sizes; breakdowns by variant and reason; the batch route with
 * lastEvaluatedAt; Flipt's errors; the routes exist only with analytics on.
 */
import { AnalyticsRepository } from '../../src/analytics/analytics.repository';
import { buildNamespace, type FlagSpec } from '../evaluation/fixtures';
import { expectError, ok, useFlagpole } from '../management/support';
import { TEST_DIALECT } from '../support/databases';
import { client, startFlagpole } from '../support/flagpole';
import { ANALYTICS_ON, batchOf, countsOf, flush, iso, lastHour, MINUTE, store, sum, totals } from './support';

jest.setTimeout(120_000);

const GOLD = { tier: 'gold' };
const SEGMENTS = [{ key: 'gold', constraints: [{ type: 'STRING_COMPARISON_TYPE' as const, property: 'tier', operator: 'eq', value: 'gold' }] }];
/** `color`: gold → red (MATCH), others → blue (DEFAULT); `beta`: gold → false (MATCH), others → true (DEFAULT); `off`: disabled. */
const FLAGS: FlagSpec[] = [
  { key: 'color', enabled: true, variants: [{ key: 'red' }, { key: 'blue' }], defaultVariant: 'blue', rules: [{ segments: ['gold'], distributions: [['red', 100]] }] },
  { key: 'beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ segment: { segments: ['gold'], value: false } }] },
  { key: 'off', enabled: false, variants: [{ key: 'red' }] },
];
const KEYS = ['color', 'beta', 'off'];

describe(`analytics counts (${TEST_DIALECT})`, () => {
  const ctx = useFlagpole(ANALYTICS_ON);

  beforeAll(async () => {
    await buildNamespace(ctx.api, { key: 'team', segments: SEGMENTS, flags: FLAGS });
    await buildNamespace(ctx.api, { key: 'split', segments: SEGMENTS, flags: FLAGS });
  });

  it('counts every server-side evaluation once, whatever its route; failures, unchanged bulk answers and snapshots count nothing', async () => {
    const { api, fp } = ctx;
    const expected: Record<string, number> = { color: 0, beta: 0, off: 0 };
    const ns = { namespaceKey: 'team' };
    const OFREP = { 'x-flipt-namespace': 'team' };
    for (let i = 0; i < 30; i++) {
      const context = i % 3 === 0 ? GOLD : {};
      ok(await api.post('/evaluate/v1/variant', { ...ns, flagKey: 'color', entityId: `e${i}`, context }));
      ok(await api.post('/evaluate/v1/boolean', { ...ns, flagKey: 'beta', entityId: `e${i}`, context }));
      ok(await api.post('/evaluate/v1/variant', { ...ns, flagKey: 'off', entityId: `e${i}` }));
      expected.color++;
      expected.beta++;
      expected.off++;
    }
    for (let i = 0; i < 5; i++) {
      const body = ok(await api.post('/evaluate/v1/batch', { requests: ['color', 'beta', 'off', 'nope'].map((flagKey) => ({ ...ns, flagKey, entityId: `b${i}` })) }));
      expect(body.responses.map((r: { type: string }) => r.type)).toEqual(['VARIANT_EVALUATION_RESPONSE_TYPE', 'BOOLEAN_EVALUATION_RESPONSE_TYPE', 'VARIANT_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE']);
      expected.color++;
      expected.beta++;
      expected.off++;
    }
    for (let i = 0; i < 7; i++) {
      ok(await api.post('/api/v1/namespaces/team/evaluate', { flagKey: 'color', entityId: `l${i}`, context: GOLD }));
      expected.color++;
    }
    for (let i = 0; i < 3; i++) {
      const body = ok(await api.post('/api/v1/namespaces/team/batch-evaluate', { requests: [{ flagKey: 'color', entityId: 'x' }, { flagKey: 'off', entityId: 'x' }] }));
      expect(body.responses).toHaveLength(2);
      expected.color++;
      expected.off++;
    }
    for (let i = 0; i < 4; i++) {
      ok(await api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: `o${i}`, ...GOLD } }, OFREP));
      ok(await api.post('/ofrep/v1/evaluate/flags/beta', { context: { targetingKey: `o${i}` } }, OFREP));
      expected.color++;
      expected.beta++;
    }
    let etag = '';
    for (let i = 0; i < 3; i++) {
      const r = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'bulk' } }, OFREP);
      etag = r.headers.get('etag') ?? '';
      for (const item of ok(r).flags as Array<{ key: string; errorCode?: string }>) if (!item.errorCode) expected[item.key]++;
    }
    // Listed by default: the boolean flag and the enabled variant flag.
    expect(expected).toEqual({ color: 30 + 5 + 7 + 3 + 4 + 3, beta: 30 + 5 + 4 + 3, off: 30 + 5 + 3 });
    // Not evaluated, not counted: an unchanged bulk answer, unknown flags, a flag of the other type, snapshots.
    expect((await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'bulk' } }, { ...OFREP, 'if-none-match': etag })).status).toBe(304);
    expect((await api.post('/evaluate/v1/variant', { ...ns, flagKey: 'nope', entityId: 'x' })).status).toBe(404);
    expect((await api.post('/ofrep/v1/evaluate/flags/nope', { context: { targetingKey: 'x' } }, OFREP)).status).toBe(404);
    expect((await api.post('/evaluate/v1/variant', { ...ns, flagKey: 'beta', entityId: 'x' })).status).toBe(400);
    ok(await api.get('/internal/v1/evaluation/snapshot/namespace/team'));

    await flush(fp);
    expect(await totals(api, 'team', KEYS)).toEqual(expected);
    const minute = Math.floor(Date.now() / MINUTE);
    expect(await fp.app.get(AnalyticsRepository).counts('team', ['nope'], minute - 60, minute + 1)).toEqual([]);
    // Flushed counts are not written twice.
    await flush(fp);
    expect(await totals(api, 'team', KEYS)).toEqual(expected);
  });

  it('breaks a flag down by variant (boolean flags: true, false) or by reason; lastEvaluatedAt names the latest minute', async () => {
    const { api, fp } = ctx;
    const start = Math.floor(Date.now() / MINUTE) * MINUTE;
    for (let i = 0; i < 10; i++) {
      const context = i < 6 ? GOLD : {};
      ok(await api.post('/evaluate/v1/variant', { namespaceKey: 'split', flagKey: 'color', entityId: `e${i}`, context }));
      if (i < 5) ok(await api.post('/evaluate/v1/boolean', { namespaceKey: 'split', flagKey: 'beta', entityId: `e${i}`, context: i < 3 ? GOLD : {} }));
    }
    await flush(fp);
    const { from, to } = lastHour();
    const totalsOf = (series: Record<string, number[]>) => Object.fromEntries(Object.entries(series).map(([name, values]) => [name, sum(values)]));

    const byVariant = ok(await countsOf(api, 'split', 'color', from, to, '&groupBy=variant'));
    expect(totalsOf(byVariant.series)).toEqual({ red: 6, blue: 4 });
    expect(byVariant.values).toEqual(byVariant.values.map((_: number, i: number) => byVariant.series.red[i] + byVariant.series.blue[i]));
    const byReason = ok(await countsOf(api, 'split', 'color', from, to, '&groupBy=reason'));
    expect(totalsOf(byReason.series)).toEqual({ MATCH_EVALUATION_REASON: 6, DEFAULT_EVALUATION_REASON: 4 });
    const plain = ok(await countsOf(api, 'split', 'color', from, to));
    expect(Object.keys(plain).sort()).toEqual(['timestamps', 'values']);
    expect(plain.values).toEqual(byVariant.values);

    const batch = ok(await batchOf(api, 'split', { flagKeys: ['beta', 'off'], from, to, groupBy: 'variant' })).flagEvaluations;
    expect(totalsOf(batch.beta.series)).toEqual({ false: 3, true: 2 });
    expect(batch.off).toEqual({ timestamps: plain.timestamps, values: plain.values.map(() => 0), series: {}, lastEvaluatedAt: null });
    const last = Date.parse(batch.beta.lastEvaluatedAt);
    expect(iso(last)).toBe(batch.beta.lastEvaluatedAt);
    expect(last % MINUTE).toBe(0);
    // The counter moves to a new minute by a timer: counts in the moment it is late go to the minute before.
    expect(last).toBeGreaterThanOrEqual(start - MINUTE);
    expect(last).toBeLessThanOrEqual(Date.now());
  });

  describe("Flipt's steps, with empty steps 0", () => {
    // Counts stored at known minutes of a past day, aligned to 30 minutes.
    const base = Math.floor((Date.now() - 3 * 24 * 60 * MINUTE) / (30 * MINUTE)) * 30;
    const at = (minutes: number) => iso((base + minutes) * MINUTE);
    const steps = (first: number, step: number, n: number) => Array.from({ length: n }, (_, i) => at(first + i * step));
    const valuesAt = (n: number, set: Record<number, number>) => Array.from({ length: n }, (_, i) => set[i] ?? 0);

    beforeAll(async () => {
      await buildNamespace(ctx.api, { key: 'chart', flags: [{ key: 'f', enabled: true, variants: [{ key: 'v' }] }] });
      await store(ctx.fp, [
        { flagKey: 'f', minute: base, count: 2 },
        { flagKey: 'f', minute: base + 1, count: 3 },
        { flagKey: 'f', minute: base + 7, count: 5 },
        { flagKey: 'f', minute: base + 29, count: 7 },
        { flagKey: 'f', minute: base + 30, count: 11 },
        { flagKey: 'f', minute: base + 300, count: 13 },
      ].map((r) => ({ ...r, namespaceKey: 'chart' })));
    });

    it('1 minute under 4 hours: the steps from the one holding from to the one holding to', async () => {
      const r = ok(await countsOf(ctx.api, 'chart', 'f', iso((base * 60 + 30) * 1000), at(10)));
      expect(r).toEqual({ timestamps: steps(0, 1, 11), values: [2, 3, 0, 0, 0, 0, 0, 5, 0, 0, 0] });
    });

    it('5 minutes from 4 hours', async () => {
      const r = ok(await countsOf(ctx.api, 'chart', 'f', at(0), at(240)));
      expect(r).toEqual({ timestamps: steps(0, 5, 49), values: valuesAt(49, { 0: 5, 1: 5, 5: 7, 6: 11 }) });
    });

    it('15 minutes from 12 hours', async () => {
      const r = ok(await countsOf(ctx.api, 'chart', 'f', at(0), at(720)));
      expect(r).toEqual({ timestamps: steps(0, 15, 49), values: valuesAt(49, { 0: 10, 1: 7, 2: 11, 20: 13 }) });
    });

    it('30 minutes from 24 hours; `2006-01-02 15:04:05` times are UTC', async () => {
      const plain = (t: string) => t.replace('T', ' ').replace('Z', '');
      const r = ok(await countsOf(ctx.api, 'chart', 'f', plain(at(0)), plain(at(1440))));
      expect(r).toEqual({ timestamps: steps(0, 30, 49), values: valuesAt(49, { 0: 17, 1: 11, 10: 13 }) });
    });
  });

  describe("Flipt's errors", () => {
    const { from, to } = lastHour();

    it.each([
      ['a bad from', `from=yesterday&to=${to}`, 'invalid field from: "yesterday" is neither an RFC 3339 time (2006-01-02T15:04:05Z) nor 2006-01-02 15:04:05 (UTC)'],
      ['no to', `from=${from}`, 'invalid field to: "" is neither an RFC 3339 time (2006-01-02T15:04:05Z) nor 2006-01-02 15:04:05 (UTC)'],
      ['to before from', `from=${to}&to=${from}`, 'invalid field to: must not be before from'],
      ['an unknown groupBy', `from=${from}&to=${to}&groupBy=segment`, 'invalid field groupBy: must be variant or reason'],
    ])('%s → 400', async (_, query, message) => {
      expectError(await ctx.api.get(`/internal/v1/analytics/namespaces/team/flags/color?${query}`), 400, 3, message);
    });

    it('an unknown flag or namespace → 404 with Flipt\'s message', async () => {
      expectError(await countsOf(ctx.api, 'team', 'nope', from, to), 404, 5, 'flag "team/nope" not found');
      expectError(await countsOf(ctx.api, 'nowhere', 'color', from, to), 404, 5, 'namespace "nowhere" not found');
      expectError(await batchOf(ctx.api, 'team', { flagKeys: ['color', 'nope'], from, to }), 404, 5, 'flag "team/nope" not found');
    });

    it('a batch names 1 to 100 flags, as a list of strings', async () => {
      expectError(await batchOf(ctx.api, 'team', { flagKeys: [], from, to }), 400, 3, 'invalid field flagKeys: must name at least one flag');
      const many = Array.from({ length: 101 }, (_, i) => `f${i}`);
      expectError(await batchOf(ctx.api, 'team', { flagKeys: many, from, to }), 400, 3, 'invalid field flagKeys: must name at most 100 flags');
      const r = await batchOf(ctx.api, 'team', { flagKeys: 'color', from, to });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
    });
  });
});

describe('analytics off (the default)', () => {
  it('serves neither route (an unknown route\'s answer) and /meta/info says nothing of analytics', async () => {
    const off = await startFlagpole();
    const on = await startFlagpole(ANALYTICS_ON);
    try {
      const api = client(off.url);
      const unknown = await api.get('/internal/v1/nothing-here');
      const { from, to } = lastHour();
      for (const r of [await countsOf(api, 'default', 'f', from, to), await batchOf(api, 'default', { flagKeys: ['f'], from, to })]) {
        expect({ status: r.status, body: r.body }).toEqual({ status: unknown.status, body: unknown.body });
      }
      expect(unknown.status).toBe(404);
      expect(ok(await api.get('/meta/info')).analytics).toEqual({});
      expect(ok(await client(on.url).get('/meta/info')).analytics).toEqual({ enabled: true });
    } finally {
      await off.close();
      await on.close();
    }
  });
});
