/**
 * The Prometheus analytics mode (docs/api.md, Analytics) against a real Prometheus (Debian's package) that scrapes two
 * Flagpole instances' /metrics every second: Flipt's route and the batch route answer exactly the evaluations made on
 * both, in each step size, with breakdowns by variant and reason and lastEvaluatedAt; the lifecycle's usage reads the
 * same; the database keeps no counts; Flipt's errors; and whatever goes wrong with Prometheus (down, an error, not
 * JSON, too slow, too large) is a clear 503. Skips with a warning where prometheus is not installed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { AnalyticsUsage } from '../../src/analytics/analytics-usage';
import { AnalyticsRepository } from '../../src/analytics/analytics.repository';
import { EvaluationCounts } from '../../src/analytics/evaluation-counts.service';
import { buildNamespace, type FlagSpec } from '../evaluation/fixtures';
import { expectError, ok } from '../management/support';
import { CONFIG } from '../../src/config/config.tokens';
import type { FlagpoleConfig } from '../../src/config/config.types';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { freePort } from '../scale/support/redis-server';
import { PrometheusServer, prometheusInstalled } from './prometheus-server';
import { batchOf, countsOf, iso, lastHour, MINUTE, sum, type Api } from './support';

jest.setTimeout(180_000);

const installed = prometheusInstalled();
if (!installed) console.warn('prometheus is not installed (apt-get install prometheus): the Prometheus analytics suite is skipped');

const GOLD = { tier: 'gold' };
const SEGMENTS = [{ key: 'gold', constraints: [{ type: 'STRING_COMPARISON_TYPE' as const, property: 'tier', operator: 'eq', value: 'gold' }] }];
const FLAGS: FlagSpec[] = [
  { key: 'color', enabled: true, variants: [{ key: 'red' }, { key: 'blue' }], defaultVariant: 'blue', rules: [{ segments: ['gold'], distributions: [['red', 100]] }] },
  { key: 'beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ segment: { segments: ['gold'], value: false } }] },
  { key: 'off', enabled: false, variants: [{ key: 'red' }] },
];
const prometheusEnv = (url: string, extra: Record<string, string> = {}) => ({
  FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_ENABLED: 'true',
  FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_URL: url,
  ...extra,
});
const totalsOf = (series: Record<string, number[]>) => Object.fromEntries(Object.entries(series).map(([name, values]) => [name, sum(values)]));

/** Polls the route until its values add up to `total` (Prometheus scrapes every second), then returns its answer. */
async function countsOnce(api: Api, flag: string, range: { from: string; to: string }, total: number, extra = '') {
  const until = Date.now() + 30_000;
  for (;;) {
    const body = ok(await countsOf(api, 'team', flag, range.from, range.to, extra));
    if (sum(body.values) === total || Date.now() > until) return body;
    await new Promise((r) => setTimeout(r, 250));
  }
}

(installed ? describe : describe.skip)('analytics read from Prometheus', () => {
  let fp: RunningFlagpole;
  let other: RunningFlagpole;
  let api: Api;
  let prometheus: PrometheusServer;
  /** A stand-in exporter whose counter the test sets: an instance that restarts (Flagpole's own only grow). */
  let exporter: Server;
  let exported: number | null = null;

  beforeAll(async () => {
    exporter = createServer((_, res) => {
      const series = 'flagpole_evaluations_results_total{namespace="team",flag="restarts",type="variant",reason="MATCH_EVALUATION_REASON",match="true",value="on"}';
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(exported === null ? '' : `# TYPE flagpole_evaluations_results_total counter\n${series} ${exported}\n`);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    const env = prometheusEnv(`http://127.0.0.1:${port}`, { FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_X_SCOPE_ORGID: 'flagpole' });
    fp = await startFlagpole(env);
    other = await startFlagpole({ ...env, FLAGPOLE_DB_URL: fp.app.get<FlagpoleConfig>(CONFIG).db.url });
    api = client(fp.url);
    const exporterHost = `127.0.0.1:${(exporter.address() as { port: number }).port}`;
    prometheus = new PrometheusServer(port, [new URL(fp.url).host, new URL(other.url).host, exporterHost]);
    await prometheus.start();
    await buildNamespace(api, { key: 'team', segments: SEGMENTS, flags: [...FLAGS, { key: 'restarts', enabled: true, variants: [{ key: 'on' }] }] });
  });

  afterAll(async () => {
    await prometheus?.remove();
    await other?.close();
    await fp?.close();
    await new Promise((resolve) => exporter?.close(resolve));
  });

  async function evaluate(colors: number, betas: number, on = api): Promise<void> {
    for (let i = 0; i < colors; i++) {
      ok(await on.post('/evaluate/v1/variant', { namespaceKey: 'team', flagKey: 'color', entityId: `c${i}`, context: i % 3 === 0 ? GOLD : {} }));
    }
    for (let i = 0; i < betas; i++) {
      ok(await on.post('/evaluate/v1/boolean', { namespaceKey: 'team', flagKey: 'beta', entityId: `b${i}`, context: i % 2 === 0 ? GOLD : {} }));
    }
  }

  it('answers exactly the evaluations made, in Flipt\'s shape, each step 0 until then', async () => {
    const range = lastHour();
    const before = ok(await countsOf(api, 'team', 'color', range.from, range.to));
    expect(before.values.every((v: number) => v === 0)).toBe(true);

    await evaluate(9, 4);
    const color = await countsOnce(api, 'color', range, 9);
    expect(Object.keys(color).sort()).toEqual(['timestamps', 'values']);
    expect(color.timestamps).toEqual(before.timestamps);
    expect(color.values).toHaveLength(before.timestamps.length);
    expect(sum(color.values)).toBe(9);
    expect(color.values.every((v: number) => Number.isInteger(v) && v >= 0)).toBe(true);
    expect(sum((await countsOnce(api, 'beta', range, 4)).values)).toBe(4);
    expect(sum(ok(await countsOf(api, 'team', 'off', range.from, range.to)).values)).toBe(0);

    // More evaluations on the same series add to them; another instance's add to both.
    await evaluate(3, 0);
    expect(sum((await countsOnce(api, 'color', range, 12)).values)).toBe(12);
    await evaluate(5, 0, client(other.url));
    expect(sum((await countsOnce(api, 'color', range, 17)).values)).toBe(17);

    // The database keeps nothing in this mode.
    expect(fp.app.get(EvaluationCounts).on).toBe(false);
    const minute = Math.floor(Date.now() / MINUTE);
    expect(await fp.app.get(AnalyticsRepository).counts('team', ['color', 'beta'], minute - 60, minute + 1)).toEqual([]);
  });

  it('sums the same counts in each of Flipt\'s step sizes', async () => {
    const now = Date.now();
    for (const [hours, step] of [[5, 5], [13, 15], [48, 30]]) {
      const from = iso(now - hours * 60 * MINUTE);
      const body = ok(await countsOf(api, 'team', 'color', from, iso(now + MINUTE)));
      expect(sum(body.values)).toBe(17);
      expect(Date.parse(body.timestamps[1]) - Date.parse(body.timestamps[0])).toBe(step * MINUTE);
    }
  });

  it('breaks the counts down by variant and reason, and answers many flags at once with lastEvaluatedAt', async () => {
    const range = lastHour();
    const byVariant = ok(await countsOf(api, 'team', 'color', range.from, range.to, '&groupBy=variant'));
    expect(totalsOf(byVariant.series)).toEqual({ red: 6, blue: 11 });
    expect(byVariant.values).toEqual(byVariant.values.map((_: number, i: number) => byVariant.series.red[i] + byVariant.series.blue[i]));
    const byReason = ok(await countsOf(api, 'team', 'color', range.from, range.to, '&groupBy=reason'));
    expect(totalsOf(byReason.series)).toEqual({ MATCH_EVALUATION_REASON: 6, DEFAULT_EVALUATION_REASON: 11 });

    const batch = ok(await batchOf(api, 'team', { flagKeys: ['color', 'beta', 'off'], ...range, groupBy: 'variant' })).flagEvaluations;
    expect(Object.keys(batch).sort()).toEqual(['beta', 'color', 'off']);
    expect(sum(batch.color.values)).toBe(17);
    expect(totalsOf(batch.beta.series)).toEqual({ false: 2, true: 2 });
    expect(batch.off).toEqual({ timestamps: byVariant.timestamps, values: byVariant.values.map(() => 0), series: {}, lastEvaluatedAt: null });
    for (const key of ['color', 'beta']) {
      const at = Date.parse(batch[key].lastEvaluatedAt);
      // The start of the 5-minute step (30 days at most 10,000 steps) it was scraped in.
      expect(at % (5 * MINUTE)).toBe(0);
      expect(Date.now() - at).toBeLessThan(15 * MINUTE);
    }
  });

  it('tells the flag lifecycle when each flag was last evaluated and which values it returned', async () => {
    const usage = fp.app.get(AnalyticsUsage);
    expect(usage.counted).toBe(true);
    const last = await usage.lastEvaluated('team', ['color', 'beta', 'off']);
    expect([...last.keys()].sort()).toEqual(['beta', 'color']);
    expect(Date.now() - last.get('color')!.getTime()).toBeLessThan(15 * MINUTE);
    expect(await usage.valuesSince('team', ['color', 'beta', 'off'], new Date(Date.now() - 60 * MINUTE))).toEqual(new Map([
      ['color', new Map([['red', 6], ['blue', 11]])],
      ['beta', new Map([['false', 2], ['true', 2]])],
    ]));
  });

  it('says analytics is on in /meta/info, and never shows the URL or the headers in /meta/config', async () => {
    expect(ok(await api.get('/meta/info')).analytics).toEqual({ enabled: true });
    const shown = JSON.stringify(ok(await api.get('/meta/config')));
    expect(shown).not.toContain(`127.0.0.1:${prometheus.port}`);
    expect(shown.toLowerCase()).not.toContain('orgid');
  });

  it('counts a new series from 0, and one that went down (a restart) from the restart, minute by minute', async () => {
    // Scraped values: 5 (a series first seen), then in a later minute 2 (its instance restarted and counted 2 since).
    exported = 5;
    await scraped(5);
    const minute = Math.floor(Date.now() / MINUTE);
    await new Promise((r) => setTimeout(r, (minute + 1) * MINUTE - Date.now() + 50));
    exported = 2;
    await scraped(2);
    expect(sum((await countsOnce(api, 'restarts', lastHour(), 7)).values)).toBe(7);
    // In 5-minute steps too, where both minutes may fall in one step: each step sums its minutes' growth.
    const fiveHours = { from: iso(Date.now() - 5 * 60 * MINUTE), to: iso(Date.now() + MINUTE) };
    expect(sum((await countsOnce(api, 'restarts', fiveHours, 7)).values)).toBe(7);
    const usage = fp.app.get(AnalyticsUsage);
    expect(await usage.valuesSince('team', ['restarts'], new Date(Date.now() - 60 * MINUTE))).toEqual(new Map([['restarts', new Map([['on', 7]])]]));
  });

  /** Waits until Prometheus holds `value` as the stand-in exporter's latest sample. */
  async function scraped(value: number): Promise<void> {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const r = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent('flagpole_evaluations_results_total{flag="restarts"}')}`);
      const result = ((await r.json()) as { data: { result: Array<{ value: [number, string] }> } }).data.result;
      if (result.length === 1 && Number(result[0].value[1]) === value) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`Prometheus did not scrape ${value}`);
  }

  it("answers Flipt's errors for unknown flags and namespaces and bad times", async () => {
    const { from, to } = lastHour();
    expectError(await countsOf(api, 'team', 'nope', from, to), 404, 5, 'flag "team/nope" not found');
    expectError(await countsOf(api, 'nowhere', 'color', from, to), 404, 5, 'namespace "nowhere" not found');
    expectError(await batchOf(api, 'team', { flagKeys: ['color', 'nope'], from, to }), 404, 5, 'flag "team/nope" not found');
    expect((await countsOf(api, 'team', 'color', 'yesterday', to)).status).toBe(400);
  });

  it('answers 503 saying so while Prometheus is down; evaluations go on', async () => {
    await prometheus.stop();
    const { from, to } = lastHour();
    const r = await countsOf(api, 'team', 'color', from, to);
    expectError(r, 503, 14, 'analytics are read from Prometheus (analytics.storage.prometheus), which could not be reached (ECONNREFUSED)');
    expect((await batchOf(api, 'team', { flagKeys: ['color'], from, to })).status).toBe(503);
    ok(await api.post('/evaluate/v1/variant', { namespaceKey: 'team', flagKey: 'color', entityId: 'x' }));
  });
});

(installed ? describe : describe.skip)('a Prometheus that answers badly', () => {
  let server: Server;
  let fp: RunningFlagpole;
  let api: Api;
  let mode = 'error';
  const seen: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers });
      req.resume();
      if (mode === 'error') res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', errorType: 'execution', error: 'query processing would load too many samples into memory' }));
      else if (mode === 'html') res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
      else if (mode === 'huge') res.writeHead(200, { 'content-type': 'application/json' }).end(`{"status":"success","data":{"resultType":"matrix","result":[${'{"metric":{},"values":[]},'.repeat(400_000)}{}]}}`);
      // 'slow': never answers
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    fp = await startFlagpole(prometheusEnv(`http://127.0.0.1:${port}/prefix`, {
      // Long enough for the 'huge' answer's 8 MiB to be read on a busy machine (this process serves it too); the
      // 'slow' case waits it out.
      FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_TIMEOUT: '10s',
      FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_AUTHORIZATION: 'Bearer s3cret',
      FLAGPOLE_ANALYTICS_STORAGE_PROMETHEUS_HEADERS_X_SCOPE_ORGID: 'tenant-1',
    }));
    api = client(fp.url);
    await buildNamespace(api, { key: 'team', segments: SEGMENTS, flags: FLAGS });
  });

  afterAll(async () => {
    await fp?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it.each([
    ['error', "answered 422: query processing would load too many samples into memory"],
    ['html', 'answered 502 with a body that is not JSON'],
    ['huge', 'answered with more than 8 MiB; ask for fewer flags or a shorter range'],
    ['slow', 'did not answer within 10 s'],
  ])('%s → 503 saying what went wrong', async (m, what) => {
    mode = m;
    const { from, to } = lastHour();
    expectError(await countsOf(api, 'team', 'color', from, to), 503, 14, `analytics are read from Prometheus (analytics.storage.prometheus), which ${what}`);
  });

  it("sends the configured headers (underscores as dashes), under the URL's path", () => {
    // The routes above asked for ranges; the lifecycle check (at start, then every check_interval) may have asked
    // instant queries of its own, before or between them: every query carries the headers.
    expect(seen.some((s) => s.url === '/prefix/api/v1/query_range')).toBe(true);
    for (const s of seen) {
      expect(s.url).toMatch(/^\/prefix\/api\/v1\/query(?:_range)?$/);
      expect(s.headers.authorization).toBe('Bearer s3cret');
      expect(s.headers['x-scope-orgid']).toBe('tenant-1');
      expect(s.headers['content-type']).toBe('application/x-www-form-urlencoded');
    }
  });

  it('is refused at start beside analytics.enabled or without metrics', async () => {
    await expect(startFlagpole(prometheusEnv('http://127.0.0.1:1', { FLAGPOLE_ANALYTICS_ENABLED: 'true' }))).rejects.toThrow(/choose one storage/);
    await expect(startFlagpole(prometheusEnv('http://127.0.0.1:1', { FLAGPOLE_METRICS_ENABLED: 'false' }))).rejects.toThrow(/needs metrics.enabled/);
  });
});
