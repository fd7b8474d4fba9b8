/**
 * Analytics counts across instances and outages, on the dialect under test: two instances on one database sum
 * exactly (each flush adds to the rows the other wrote); an instance that stops flushes what it holds; a flush while the database is unreachable keeps the counts,
 * evaluations answer meanwhile, and the next flush writes them (PostgreSQL and MySQL, through a TCP proxy the test
 * cuts; SQLite is a file); the retention deletes counts older than analytics.retention, and only those.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG } from '../../src/config/config.tokens';
import type { FlagpoleConfig } from '../../src/config/config.types';
import { buildNamespace } from '../evaluation/fixtures';
import { eventually } from '../auth/support';
import { ok } from '../management/support';
import { TcpProxy } from '../ops/support/tcp-proxy';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { ANALYTICS_ON, type Api, batchOf, flush, iso, MINUTE, store, sum, totals } from './support';

jest.setTimeout(120_000);

const FLAGS = [
  { key: 'color', enabled: true, variants: [{ key: 'red' }, { key: 'blue' }], defaultVariant: 'blue' },
  { key: 'beta', type: 'BOOLEAN_FLAG_TYPE' as const, enabled: true },
];

async function evaluate(api: Api, n: number, tag: string): Promise<void> {
  const requests = (i: number) => ['color', 'beta'].map((flagKey) => ({ namespaceKey: 'shared', flagKey, entityId: `${tag}${i}` }));
  for (let i = 0; i < n; i++) ok(await api.post('/evaluate/v1/batch', { requests: requests(i) }));
}

describe(`two instances on one ${TEST_DIALECT} database`, () => {
  let a: RunningFlagpole;
  let b: RunningFlagpole;

  beforeAll(async () => {
    a = await startFlagpole(ANALYTICS_ON);
    b = await startFlagpole({ ...ANALYTICS_ON, FLAGPOLE_DB_URL: a.app.get<FlagpoleConfig>(CONFIG).db.url });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('sum exactly: every flush adds to the rows the other instance wrote, flushing at once or in turn', async () => {
    const apiA = client(a.url);
    const apiB = client(b.url);
    await buildNamespace(apiA, { key: 'shared', flags: FLAGS });
    await evaluate(apiA, 40, 'a');
    await evaluate(apiB, 27, 'b');
    await Promise.all([flush(a), flush(b)]);
    expect(await totals(apiB, 'shared', ['color', 'beta'])).toEqual({ color: 67, beta: 67 });
    await evaluate(apiB, 5, 'b');
    await flush(b);
    await evaluate(apiA, 8, 'a');
    await flush(a);
    expect(await totals(apiA, 'shared', ['color', 'beta'])).toEqual({ color: 80, beta: 80 });
  });
});

describe(`shutdown (${TEST_DIALECT})`, () => {
  it('flushes what the instance holds once, before the database closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-analytics-'));
    const dbUrl = await freshDatabaseUrl(dir);
    // No periodic flush within the test: only the one at shutdown can write the counts.
    const env = { ...ANALYTICS_ON, FLAGPOLE_ANALYTICS_BUFFER_FLUSH_PERIOD: '1h', FLAGPOLE_DB_URL: dbUrl };
    try {
      const first = await startFlagpole(env);
      await buildNamespace(client(first.url), { key: 'shared', flags: FLAGS });
      await evaluate(client(first.url), 12, 's');
      await first.close();
      const second = await startFlagpole(env);
      try {
        expect(await totals(client(second.url), 'shared', ['color', 'beta'])).toEqual({ color: 12, beta: 12 });
      } finally {
        await second.close();
      }
    } finally {
      await dropDatabase(dbUrl);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

(TEST_DIALECT === 'sqlite' ? describe.skip : describe)(`a ${TEST_DIALECT} outage`, () => {
  let dir: string;
  let dbUrl: string;
  let proxy: TcpProxy;
  let fp: RunningFlagpole;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-analytics-'));
    dbUrl = await freshDatabaseUrl(dir);
    const target = new URL(dbUrl);
    proxy = new TcpProxy(target.hostname, Number(target.port));
    await proxy.start();
    const proxied = new URL(dbUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    // Only the test's flushes: a periodic one just after the outage would write the held counts before it looks.
    fp = await startFlagpole({ ...ANALYTICS_ON, FLAGPOLE_ANALYTICS_BUFFER_FLUSH_PERIOD: '1h', FLAGPOLE_DB_URL: proxied.toString() });
  });

  afterAll(async () => {
    await proxy.start().catch(() => undefined);
    await fp?.close();
    await proxy.stop();
    await dropDatabase(dbUrl);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the counts of a failed flush while evaluations answer, and writes them with the next flush', async () => {
    const api = client(fp.url);
    await buildNamespace(api, { key: 'ops', flags: FLAGS });
    const evaluateOps = async (n: number, tag: string) => {
      for (let i = 0; i < n; i++) ok(await api.post('/evaluate/v1/variant', { namespaceKey: 'ops', flagKey: 'color', entityId: `${tag}${i}` }));
    };
    await evaluateOps(10, 'a');
    await flush(fp);

    await proxy.stop();
    await evaluateOps(15, 'b');
    await flush(fp);
    await evaluateOps(4, 'c');
    await flush(fp);

    await proxy.start();
    // Nothing of the outage was written: the route reads 10.
    await eventually(async () => expect(await totals(api, 'ops', ['color'])).toEqual({ color: 10 }), 20_000, 200);
    await evaluateOps(3, 'd');
    await flush(fp);
    expect(await totals(api, 'ops', ['color'])).toEqual({ color: 32 });
  });
});

describe(`analytics.retention (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole;

  beforeAll(async () => {
    fp = await startFlagpole({ ...ANALYTICS_ON, FLAGPOLE_ANALYTICS_RETENTION: '1h', FLAGPOLE_ANALYTICS_CLEANUP_INTERVAL: '300ms' });
  });

  afterAll(() => fp?.close());

  it('the scheduled cleanup deletes counts of minutes older than the retention, and only those', async () => {
    const api = client(fp.url);
    await buildNamespace(api, { key: 'kept', flags: FLAGS });
    const now = Math.floor(Date.now() / MINUTE);
    await store(fp, [
      { namespaceKey: 'kept', flagKey: 'color', minute: now - 150, count: 3 },
      { namespaceKey: 'kept', flagKey: 'color', minute: now - 62, count: 5 },
      { namespaceKey: 'kept', flagKey: 'color', minute: now - 30, count: 7 },
      { namespaceKey: 'kept', flagKey: 'beta', minute: now - 2, count: 11 },
    ]);
    const range = { from: iso((now - 180) * MINUTE), to: iso(now * MINUTE) };
    const read = async () => {
      const answer = ok(await batchOf(api, 'kept', { flagKeys: ['color', 'beta'], ...range })).flagEvaluations;
      return { color: sum(answer.color.values), beta: sum(answer.beta.values) };
    };
    // A round may run between the store and any read: only the outcome is certain (15 and 11 were stored).
    await eventually(async () => expect(await read()).toEqual({ color: 7, beta: 11 }), 10_000, 100);
  });
});
