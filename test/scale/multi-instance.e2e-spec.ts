/**
 * Scale-out as operators run it: two built Flagpole processes on one PostgreSQL database (reached through a loopback
 * TCP proxy, so the test can cut it) and one Redis (a private redis-server, so the test can stop it).
 *   - both start together on an empty database and migrate once;
 *   - a write on one instance reaches the other's evaluations as a delta over Redis (how long it took is printed);
 *   - 100 parallel creates of one flag key across both: one success, Flipt's duplicate error for the rest;
 *   - Redis goes away: no 5xx, /health says so, writes still reach the other instance (version poll); it returns:
 *     broadcast resumes without a restart;
 *   - the database goes away: evaluations keep answering, writes get 503, all recovers without a restart.
 * Runs once per CI run (the default SQLite run), against the machine's PostgreSQL; skipped, saying so, without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { FRESH_MS, REFRESH_MS } from '../../src/auth/authentication.store';
import { ACQUIRE_TIMEOUT_MS, ormOptions } from '../../src/storage/orm-options';
import { freshDatabaseUrl } from '../support/databases';
import { BOOTSTRAP, bearer, eventually } from '../auth/support';
import { client } from '../support/flagpole';
import { buildOnce, FlagpoleProcess, ROOT } from '../ops/support/process';
import { TcpProxy } from '../ops/support/tcp-proxy';
import { dropPostgresDatabase, POSTGRES_ADMIN, scaleOutDescribe, scaleOutEnv } from './support/scale-out';
import { freePort, RedisServer } from './support/redis-server';
import { type Api, convergence, percentile, propagation } from './support/convergence';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const suite = scaleOutDescribe('multi-instance');

suite('two instances on one PostgreSQL and one Redis', () => {
  let dir: string;
  let dbUrl = '';
  /** Each instance reaches the database through its own proxy, so one can lose it alone. */
  let proxyA: TcpProxy;
  let proxyB: TcpProxy;
  let redis: RedisServer;
  let a: FlagpoleProcess;
  let b: FlagpoleProcess;
  let apiA: Api;
  let apiB: Api;
  let skipped = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-scale-'));
    try {
      dbUrl = await freshDatabaseUrl(dir, 'postgres');
    } catch (e) {
      skipped = true;
      console.warn(`multi-instance suite skipped: no PostgreSQL answers at ${POSTGRES_ADMIN} (${(e as Error).message})`);
      return;
    }
    await buildOnce();
    const target = new URL(dbUrl);
    const through = async (proxy: TcpProxy) => {
      await proxy.start();
      const proxied = new URL(dbUrl);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      return proxied.toString();
    };
    proxyA = new TcpProxy(target.hostname, Number(target.port || 5432));
    proxyB = new TcpProxy(target.hostname, Number(target.port || 5432));
    const [urlA, urlB] = [await through(proxyA), await through(proxyB)];
    redis = new RedisServer(await freePort());
    await redis.start();
    const env = scaleOutEnv(redis.url);
    // Started together against the empty database: the migration lock lets one migrate while the other waits.
    a = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DB_URL: urlA, FLAGPOLE_DATA_DIR: join(dir, 'a') });
    b = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DB_URL: urlB, FLAGPOLE_DATA_DIR: join(dir, 'b') });
    await Promise.all([a.ready(60_000), b.ready(60_000)]);
    apiA = client(a.url, bearer(BOOTSTRAP));
    apiB = client(b.url, bearer(BOOTSTRAP));
  }, 120_000);

  afterAll(async () => {
    a?.kill();
    b?.kill();
    await Promise.all([a?.exit, b?.exit]);
    await redis?.stop();
    await proxyA?.stop();
    await proxyB?.stop();
    if (dbUrl) await dropPostgresDatabase(dbUrl).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const it_ = (name: string, fn: () => Promise<void>, timeout = 60_000) => it(name, async () => (skipped ? undefined : fn()), timeout);

  /**
   * How many times B has loaded a namespace's state: every load goes through the cache (a hit or a miss), a delta
   * applied needs none. A write that reached B over Redis leaves it unchanged; one found by the version poll does not.
   */
  const loadsOnB = async () => {
    const text = (await client(b.url).get('/metrics')).text;
    return [...text.matchAll(/^flagpole_cache_(?:hit|miss)_total\{cache="redis"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  it_('both came up on the one schema, each logging the shared cache it uses', async () => {
    for (const p of [a, b]) {
      expect((await client(p.url).get('/health')).body).toEqual({ status: 'SERVING' });
      expect(p.lines.some((l) => /cache: redis redis:\/\/127\.0\.0\.1:\d+/.test(l.M))).toBe(true);
    }
    const migrated = [a, b].flatMap((p) => p.lines.filter((l) => /^applied migrations: /.test(l.M)));
    expect(migrated).toHaveLength(1);
  });

  it_('a write on one instance reaches the other as a delta over Redis; the namespace state is shared through Redis', async () => {
    expect((await apiA.post('/api/v1/namespaces/default/flags', { key: 'conv', name: 'Conv', type: 'BOOLEAN_FLAG_TYPE', enabled: false })).status).toBe(200);
    await convergence(apiB, 'conv', false);
    const loadsBefore = await loadsOnB();
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const enabled = i % 2 === 0;
      const [writer, reader] = i % 4 < 2 ? [apiA, apiB] : [apiB, apiA];
      times.push(await propagation(writer, reader, 'conv', enabled));
    }
    // Printed, not asserted: how long is speed, and a loaded machine stretches it.
    console.log(
      `convergence between two instances over Redis: p50 ${percentile(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (n=${times.length})`,
    );
    // The writes reached B as deltas over Redis: B did not load the namespace again for any of them.
    expect(await loadsOnB()).toBe(loadsBefore);
    // The loaded namespace state sits in Redis under the configured prefix, once per version.
    expect(await redis.command('KEYS', 'flagpole::snapshot:default:*')).toMatch(/^\*[1-9]/);
  });

  it_('a write nobody announced (made straight in the database) is found by the version poll on both instances', async () => {
    await propagation(apiA, apiB, 'conv', false);
    await convergence(apiA, 'conv', false);
    const orm = await MikroORM.init({ ...ormOptions({ url: dbUrl }), entities: [], discovery: { warnWhenNoEntities: false } });
    const start = performance.now();
    try {
      await orm.em.getConnection().execute(
        "update flags set enabled = true where namespace_key = 'default' and key = 'conv'; update namespaces set state_modified_at = now() + interval '1 second' where key = 'default'",
      );
    } finally {
      await orm.close(true);
    }
    // Nothing announced it, so only the version poll can find it. With Redis up a poll first gives the delta on its
    // way one interval, then loads: about two intervals on an idle machine (printed, not asserted).
    await Promise.all([convergence(apiA, 'conv', true), convergence(apiB, 'conv', true)]);
    console.log(`a write without a message was found by the version poll in ${(performance.now() - start).toFixed(0)} ms`);
    // The instances took it up as a whole: deltas apply on top of the version they found.
    await propagation(apiB, apiA, 'conv', false);
  });

  it_('a token deleted on one instance is refused by the other at once (Redis), not after its freshness window', async () => {
    const tokens = await apiA.get('/auth/v1/tokens');
    expect(tokens.body.authentications.filter((t: { metadata: Record<string, string> }) => t.metadata['io.flagpole.auth.token.name'] === 'initial_bootstrap_token')).toHaveLength(1);
    const created = await apiA.post('/auth/v1/method/token', { name: 'short-lived', description: 'revoked in the test' });
    expect(created.status).toBe(200);
    const viaB = client(b.url, bearer(created.body.clientToken));
    const verified = performance.now();
    expect((await viaB.get('/api/v1/namespaces')).status).toBe(200); // B has verified and remembers it now
    expect((await apiA.delete(`/auth/v1/tokens/${created.body.authentication.id}`)).status).toBe(200);
    const start = performance.now();
    await eventually(async () => expect((await viaB.get('/api/v1/namespaces')).status).toBe(401), 15_000, 5);
    const refusedAfter = performance.now() - start;
    console.log(`a token deleted on one instance was refused by the other after ${refusedAfter.toFixed(0)} ms`);
    // Here the time is the behaviour: B serves a verification it remembers, asking nothing, until it is REFRESH_MS
    // old (authentication.store.ts). A refusal before then, counted from before B verified, can only be the Redis
    // broadcast; without it the refusal comes from B's own check again, later.
    expect(performance.now() - verified).toBeLessThan(REFRESH_MS);
  });

  it_('100 parallel creates of one key across both instances: one success, Flipt duplicate errors, no 5xx, no orphans', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? apiA : apiB).post('/api/v1/namespaces/default/flags', { key: 'race', name: `Race ${i}`, type: 'VARIANT_FLAG_TYPE', enabled: true }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r).toMatchObject({ status: 400, body: { code: 3, message: 'flag "default/race" is not unique', details: [] } });
    }
    const listed = await apiB.get('/api/v1/namespaces/default/flags?limit=1000');
    expect(listed.body.flags.filter((f: { key: string }) => f.key === 'race')).toHaveLength(1);
  });

  it_('Redis goes away: no 5xx, health says so, writes still converge; it comes back: broadcast resumes', async () => {
    await redis.stop();
    const down = Date.now();
    for (const p of [a, b]) {
      await eventually(async () => {
        const h = await client(p.url).get('/health');
        expect(h).toMatchObject({ status: 503, body: { code: 14, message: expect.stringContaining('redis') } });
      });
    }
    const withoutRedis = await propagation(apiA, apiB, 'conv', true);
    const flags = await apiB.post('/evaluate/v1/batch', { requests: [{ flagKey: 'conv', entityId: 'x', context: {} }, { flagKey: 'race', entityId: 'x', context: {} }] });
    expect(flags.status).toBe(200);
    expect(a.lines.some((l) => /redis .* unavailable/.test(l.M))).toBe(true);
    // It converged (the version poll being the only way left); how long it took is printed, not asserted.
    console.log(`without Redis: health 503 within ${Date.now() - down} ms; a write converged in ${withoutRedis.toFixed(0)} ms (version poll)`);

    await redis.start();
    for (const p of [a, b]) {
      await eventually(async () => expect((await client(p.url).get('/health')).body).toEqual({ status: 'SERVING' }), 15_000);
    }
    expect(a.lines.some((l) => /redis .* reachable again/.test(l.M))).toBe(true);
    // Broadcast resumed: a write reaches B as a delta again, B loading nothing (the version poll would have it load).
    // The first writes after the reconnection may still be found by the poll: this waits for one that is not.
    const times: number[] = [];
    let enabled = true;
    await eventually(async () => {
      const loadsBefore = await loadsOnB();
      enabled = !enabled;
      times.push(await propagation(apiA, apiB, 'conv', enabled));
      expect(await loadsOnB()).toBe(loadsBefore);
    }, 30_000, 0);
    console.log(`after Redis returned: convergence ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
  }, 90_000);

  it_('the database goes away: evaluations answer, writes get 503; it returns: writes work without a restart', async () => {
    // Both instances have loaded the current state before the cut.
    await propagation(apiA, apiB, 'conv', true);
    await convergence(apiA, 'conv', true);
    // A loses the database first; a write through B reaches A as a delta over Redis: A needs no database for it.
    await proxyA.stop();
    expect((await apiB.put('/api/v1/namespaces/default/flags/conv', { key: 'conv', name: 'conv', enabled: false })).status).toBe(200);
    // However long the delta takes to arrive (it used to be given 100 ms): A evaluates it, 200 all along.
    await convergence(apiA, 'conv', false);
    await proxyB.stop();
    for (const api of [apiA, apiB]) {
      const r = await api.post('/evaluate/v1/boolean', { flagKey: 'conv', entityId: 'e1', context: {} });
      expect(r).toMatchObject({ status: 200, body: { enabled: false } });
      const w = await api.post('/api/v1/namespaces/default/flags', { key: 'during-outage', name: 'x', type: 'BOOLEAN_FLAG_TYPE' });
      expect(w.status).toBe(503);
      expect(w.body).toMatchObject({ code: 14 });
    }
    await Promise.all([proxyA.start(), proxyB.start()]);
    await eventually(async () => {
      const w = await apiA.post('/api/v1/namespaces/default/flags', { key: 'after-outage', name: 'x', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
      expect(w.status).toBe(200);
    }, 20_000);
    // The writer sees its own write at once, although its last reloads failed during the outage.
    expect(await apiA.post('/evaluate/v1/boolean', { flagKey: 'after-outage', entityId: 'e1', context: {} })).toMatchObject({
      status: 200,
      body: { enabled: true },
    });
    await convergence(apiB, 'after-outage', true);
  }, 90_000);

  it_('one instance\'s database stops answering: it keeps evaluating without waiting, and catches up when it answers', async () => {
    await propagation(apiA, apiB, 'conv', true);
    proxyB.setBlackHole(true);
    // A write elsewhere reaches B as a delta over Redis: B applies it without asking its database.
    expect((await apiA.put('/api/v1/namespaces/default/flags/conv', { key: 'conv', name: 'conv', enabled: false })).status).toBe(200);
    // Past the time a remembered token verification is served without asking the database (FRESH_MS, 5 s): B's
    // check of the client token now hangs on that database too, and must not hold the evaluations.
    await sleep(FRESH_MS + 500);
    const took: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      const r = await apiB.post('/evaluate/v1/boolean', { flagKey: 'conv', entityId: 'e1', context: {} });
      took.push(performance.now() - start);
      expect(r).toMatchObject({ status: 200, body: { enabled: false } }); // the delta, applied without the database
    }
    console.log(`evaluations while the database hangs: first ${took[0].toFixed(0)} ms, then at most ${Math.max(...took.slice(1)).toFixed(0)} ms`);
    // Here the time is the behaviour: an evaluation that waited on the hung database would take the pool's acquire
    // timeout. Below it, each one did not wait (the later ones measured 8–22 ms idle, 201 ms once under CI).
    for (const ms of took) expect(ms).toBeLessThan(ACQUIRE_TIMEOUT_MS);
    proxyB.setBlackHole(false);
    // The hung reload gives up within the pool's acquire timeout (10 s); the next one succeeds.
    const caughtUp = await convergence(apiB, 'conv', false, 20_000);
    console.log(`caught up ${caughtUp.toFixed(0)} ms after the database answered again`);
  }, 70_000);
});

