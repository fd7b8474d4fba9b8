/**
 * `cache.redis.mode: cluster` against a real Redis Cluster: six redis-server processes started by the test (three
 * masters, three replicas, test/support/redis-cluster.ts) and two Flagpole instances on one SQLite file, one seeded
 * from a master by URL, the other from a replica by Flipt's host and port keys.
 *   - both converge over the cluster as over one Redis: a write reaches the other instance as a delta (it loads
 *     nothing), and the namespace states are cached across the masters;
 *   - a master holding a change subscription is killed: every write still reaches the other instance (moved
 *     subscription or version poll), /health says a master is away, the replica takes over, the instances learn the
 *     new layout by themselves, and writes reach the other instance as deltas again;
 *   - an instance whose seed node is down at start-up serves from memory and joins when the node returns;
 *   - an instance started while a dead master is still listed (before its replica took over) connects after it.
 * What it checks happens above storage: it runs in the SQLite pass (test/support/sqlite-only.js), and is skipped,
 * saying so, without redis-server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../auth/support';
import { freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { RedisClusterProcesses, redisClusterInstallable } from '../support/redis-cluster';
import { type Api, convergence, percentile, propagation } from './support/convergence';

const CHANNEL = 'flagpole:changes';
const usable = TEST_DIALECT === 'sqlite' && redisClusterInstallable();
if (!usable && TEST_DIALECT === 'sqlite') console.warn('redis-cluster suite skipped: redis-server or redis-cli is not installed');
const suite = usable ? describe : describe.skip;

suite('two instances on a three-master Redis Cluster', () => {
  let dir: string;
  let cluster: RedisClusterProcesses;
  let a: RunningFlagpole;
  let b: RunningFlagpole;
  let apiA: Api;
  let apiB: Api;
  let dbUrl = '';
  /** The master the failover test killed. */
  let downNode = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-redis-cluster-e2e-'));
    cluster = await RedisClusterProcesses.start();
    const masters = await cluster.masters();
    const replica = cluster.ports.find((p) => !masters.includes(p))!;
    dbUrl = await freshDatabaseUrl(dir);
    a = await startFlagpole(clusterEnv({ FLAGPOLE_CACHE_REDIS_URL: `redis://127.0.0.1:${masters[0]}` }));
    b = await startFlagpole(clusterEnv({ FLAGPOLE_CACHE_REDIS_HOST: '127.0.0.1', FLAGPOLE_CACHE_REDIS_PORT: String(replica) }));
    apiA = client(a.url);
    apiB = client(b.url);
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** An instance's settings: the shared SQLite file and the Redis cache in cluster mode, seeded by `seed`. */
  const clusterEnv = (seed: Record<string, string>) => ({
    FLAGPOLE_DB_URL: dbUrl,
    FLAGPOLE_CACHE_ENABLED: 'true',
    FLAGPOLE_CACHE_BACKEND: 'redis',
    FLAGPOLE_CACHE_REDIS_MODE: 'cluster',
    ...seed,
  });

  /** Loads of a namespace's state on an instance: each goes through the cache (hit, miss or error); a delta needs none. */
  const loadsOn = async (p: RunningFlagpole) => {
    const text = (await client(p.url).get('/metrics')).text;
    return [...text.matchAll(/^flagpole_cache_(?:hit|miss|error)_total\{cache="\w+"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  /** Toggles until a write reaches the other instance without it loading anything: a delta over the cluster. */
  const deltaArrives = async (writer: Api, reader: RunningFlagpole, timeoutMs: number) => {
    let enabled = false;
    await eventually(async () => {
      const before = await loadsOn(reader);
      enabled = !enabled;
      await propagation(writer, client(reader.url), 'conv', enabled);
      expect(await loadsOn(reader)).toBe(before);
    }, timeoutMs, 0);
  };

  const subscriptions = async () => (await Promise.all((await cluster.masters()).map((p) => cluster.subscribers(p, CHANNEL)))).reduce((x, y) => x + y, 0);

  it('both instances converge over the cluster as over one Redis; namespace states are cached across its masters', async () => {
    for (const p of [a, b]) expect((await client(p.url).get('/health')).body).toEqual({ status: 'SERVING' });
    await eventually(async () => expect(await subscriptions()).toBe(2));

    expect((await apiA.post('/api/v1/namespaces/default/flags', { key: 'conv', name: 'Conv', type: 'BOOLEAN_FLAG_TYPE', enabled: false })).status).toBe(200);
    await convergence(apiB, 'conv', false);
    const loadsBefore = await loadsOn(b);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) times.push(await propagation(apiA, apiB, 'conv', i % 2 === 0));
    console.log(`convergence over a Redis Cluster: p50 ${percentile(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (n=${times.length})`);
    expect(await loadsOn(b)).toBe(loadsBefore); // every write reached B as a delta
    for (let i = 0; i < 10; i++) await propagation(apiB, apiA, 'conv', i % 2 === 0); // and the other way

    // Twelve namespaces loaded on B: their cached states sit on the masters their keys' slots belong to.
    for (let i = 0; i < 12; i++) {
      const ns = `spread-${i}`;
      expect((await apiA.post('/api/v1/namespaces', { key: ns, name: ns })).status).toBe(200);
      expect((await apiA.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
      await eventually(async () => expect((await apiB.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'f', entityId: 'e', context: {} })).body).toMatchObject({ enabled: true }));
    }
    const perMaster = await Promise.all((await cluster.masters()).map(async (p) => (await cluster.cli(p, 'KEYS', 'flagpole::snapshot:spread-*')).split('\n').filter(Boolean).length));
    expect(perMaster.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(12);
    expect(perMaster.filter((n) => n > 0).length).toBeGreaterThan(1);
  }, 60_000);

  it('a master holding a change subscription dies: no write is lost, its replica takes over, deltas flow again', async () => {
    const masters = await cluster.masters();
    const counts = await Promise.all(masters.map((p) => cluster.subscribers(p, CHANNEL)));
    const killed = masters[counts.findIndex((n) => n > 0)];
    await propagation(apiA, apiB, 'conv', false);
    await propagation(apiB, apiA, 'conv', true);

    const start = performance.now();
    await cluster.kill(killed);
    // The instances say a master is away (until its replica has taken over, at least the node timeout).
    await eventually(async () => expect(await client(a.url).get('/health')).toMatchObject({ status: 503, body: { code: 14, message: expect.stringContaining('redis') } }), 3_000, 20);
    // Writes made while the master is gone reach the other instance: through the subscription moved to another
    // master, or, for a notice published before it moved, through the version poll.
    const during = [await propagation(apiA, apiB, 'conv', false), await propagation(apiB, apiA, 'conv', true)];

    await cluster.waitForFailover(killed);
    const failedOver = performance.now() - start;
    for (const p of [a, b]) await eventually(async () => expect((await client(p.url).get('/health')).body).toEqual({ status: 'SERVING' }), 20_000);
    await eventually(async () => expect(await subscriptions()).toBe(2), 20_000);
    await deltaArrives(apiA, b, 20_000);
    await deltaArrives(apiB, a, 20_000);
    // The cache is in use on the new layout: a namespace loaded now is stored on a live master.
    expect((await apiA.post('/api/v1/namespaces', { key: 'after-failover', name: 'after' })).status).toBe(200);
    expect((await apiA.post('/api/v1/namespaces/after-failover/flags', { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    await eventually(async () => expect((await apiB.post('/evaluate/v1/boolean', { namespaceKey: 'after-failover', flagKey: 'f', entityId: 'e', context: {} })).body).toMatchObject({ enabled: true }));
    const stored = await Promise.all((await cluster.masters()).map((p) => cluster.cli(p, 'KEYS', 'flagpole::snapshot:after-failover:*')));
    expect(stored.join('\n').trim()).not.toBe('');
    console.log(
      `master ${killed} killed: writes during the failover converged in ${during.map((t) => t.toFixed(0)).join(', ')} ms; replica took over after ${failedOver.toFixed(0)} ms; deltas flowing again after ${(performance.now() - start).toFixed(0)} ms`,
    );
    downNode = killed;
  }, 120_000);

  it('an instance whose seed node does not answer at start-up serves from memory, and joins when the node returns', async () => {
    expect(downNode).toBeGreaterThan(0);
    const c = await startFlagpole(clusterEnv({ FLAGPOLE_CACHE_REDIS_URL: `redis://127.0.0.1:${downNode}` }));
    try {
      const apiC = client(c.url);
      expect(await apiC.get('/health')).toMatchObject({ status: 503, body: { code: 14, message: expect.stringContaining('redis') } });
      // Evaluations and writes work meanwhile; the others hear of C's writes through the version poll.
      await propagation(apiC, apiA, 'conv', false);
      await propagation(apiA, apiC, 'conv', true);

      await cluster.restart(downNode);
      await eventually(async () => expect((await apiC.get('/health')).body).toEqual({ status: 'SERVING' }), 20_000);
      await eventually(async () => expect(await subscriptions()).toBe(3), 20_000);
      await deltaArrives(apiA, c, 20_000);
      await deltaArrives(apiC, b, 20_000);
    } finally {
      await c.close();
    }
  }, 90_000);

  it('an instance started while a dead master is not yet replaced connects once its replica has taken over', async () => {
    // A master other than the one the returned node now replicates (that one's replica was just restarted).
    const replicated = Number(/master_port:(\d+)/.exec(await cluster.cli(downNode, 'INFO', 'replication'))![1]);
    const victim = (await cluster.masters()).find((p) => p !== replicated)!;
    await cluster.kill(victim);
    // Seeded from a live node, it is told of the dead master too, and must not wait for it for ever.
    const seed = (await cluster.masters()).find((p) => p !== victim)!;
    const d = await startFlagpole(clusterEnv({ FLAGPOLE_CACHE_REDIS_URL: `redis://127.0.0.1:${seed}` }));
    try {
      await cluster.waitForFailover(victim);
      for (const p of [a, b, d]) await eventually(async () => expect((await client(p.url).get('/health')).body).toEqual({ status: 'SERVING' }), 20_000);
      await eventually(async () => expect(await subscriptions()).toBe(3), 20_000);
      await deltaArrives(apiA, d, 20_000);
      await deltaArrives(client(d.url), b, 20_000);
    } finally {
      await d.close();
    }
  }, 90_000);
});
