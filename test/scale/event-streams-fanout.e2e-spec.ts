/**
 * Event streams across instances, as operators scale them out: two built Flagpole processes on one PostgreSQL
 * database and one Redis (a private redis-server, so the test can stop it), authentication required (static tokens).
 *   - a write on A reaches every stream on B (OFREP's and the snapshot change stream), once per write, with the same
 *     ids and etags as A's own streams; commit→event latency on B is measured and printed;
 *   - a client that reconnects to the other instance resumes with its Last-Event-ID (versions are the same everywhere);
 *   - a token deleted on A ends its streams on B (the Redis broadcast: nothing on B checks an open stream's token again);
 *   - Redis gone: a write on A still reaches B's streams, through the version poll.
 * Runs once per CI run (the default SQLite run), against the machine's PostgreSQL; skipped, saying so, without it or
 * without redis-server. The pattern is test/scale/multi-instance.e2e-spec.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP, bearer, createToken, eventually, sleep } from '../auth/support';
import { buildNamespace, nsPath, ok } from '../evaluation/fixtures';
import { freshDatabaseUrl } from '../support/databases';
import { client } from '../support/flagpole';
import { openSse, type SseConnection, type SseEvent } from '../support/sse';
import { buildOnce, FlagpoleProcess, ROOT } from '../ops/support/process';
import { dropPostgresDatabase, POSTGRES_ADMIN, scaleOutDescribe, scaleOutEnv } from './support/scale-out';
import { freePort, RedisServer } from './support/redis-server';

type Api = ReturnType<typeof client>;

const NS = 'fanout';
const ofrepStream = (ns: string) => `/ofrep/v1/_stream/${encodeURIComponent(ns)}/events`;
const snapshotStream = (ns: string) => `/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(ns)}/stream`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** The refetch event every change sends; its etag is the namespace's tag at the event's version. */
function refetchOf(event: SseEvent): { type: string; etag?: string } {
  expect(event.event).toBe('message');
  return JSON.parse(event.data) as { type: string; etag?: string };
}

/** Toggles the namespace's one flag; resolves when the writer has answered (the write is committed). */
async function toggle(api: Api, enabled: boolean): Promise<number> {
  ok(await api.put(`${nsPath(NS)}/flags/on`, { key: 'on', name: 'on', description: '', enabled }), 'update flag');
  return performance.now();
}

/** Waits for the stream's opening position (`id: <version>` without an event) and returns it. */
async function positionOf(stream: SseConnection): Promise<string> {
  await eventually(() => expect(stream.lastEventId).toMatch(/^\d+$/), 10_000, 5);
  return stream.lastEventId;
}

const suite = scaleOutDescribe('event stream fan-out');

suite('event streams across two instances on one PostgreSQL and one Redis', () => {
  let dir: string;
  let dbUrl = '';
  let redis: RedisServer;
  let a: FlagpoleProcess;
  let b: FlagpoleProcess;
  let apiA: Api;
  let skipped = false;
  /** Streams a test opened; closed after it, so that each test starts with none. */
  const open: SseConnection[] = [];
  const sse = async (p: FlagpoleProcess, path: string, headers: Record<string, string> = bearer(BOOTSTRAP)) => {
    const c = await openSse(p.url + path, headers);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-fanout-'));
    try {
      dbUrl = await freshDatabaseUrl(dir, 'postgres');
    } catch (e) {
      skipped = true;
      console.warn(`event stream fan-out suite skipped: no PostgreSQL answers at ${POSTGRES_ADMIN} (${(e as Error).message})`);
      return;
    }
    await buildOnce();
    redis = new RedisServer(await freePort());
    await redis.start();
    // Required authentication, so that streams belong to a token whose revocation must reach the other instance.
    const env = { ...scaleOutEnv(redis.url), FLAGPOLE_DB_URL: dbUrl };
    a = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DATA_DIR: join(dir, 'a') });
    b = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DATA_DIR: join(dir, 'b') });
    await Promise.all([a.ready(60_000), b.ready(60_000)]).catch((e: Error) => {
      // ready() names the output of the first that failed; the other's tells whether they were stuck on the same thing.
      throw new Error(`${e.message}\n--- A:\n${a.raw.join('\n')}\n--- B:\n${b.raw.join('\n')}`);
    });
    apiA = client(a.url, bearer(BOOTSTRAP));
    await buildNamespace(apiA, { key: NS, flags: [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
  }, 120_000);

  afterEach(() => open.splice(0).forEach((c) => c.close()));

  afterAll(async () => {
    open.splice(0).forEach((c) => c.close());
    a?.kill();
    b?.kill();
    await Promise.all([a?.exit, b?.exit]);
    await redis?.stop();
    if (dbUrl) await dropPostgresDatabase(dbUrl).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const it_ = (name: string, fn: () => Promise<void>, timeout = 60_000) => it(name, async () => (skipped ? undefined : fn()), timeout);

  it_('30 writes on A: each reaches all 20 streams on B and the one on A, in order, with the same id and etag', async () => {
    const onA = await sse(a, ofrepStream(NS));
    expect(onA.status).toBe(200);
    const opened = await positionOf(onA);
    // The namespace was just built on A: B may still be applying the last of those writes. Once a stream on B opens
    // at A's version, no event of the set-up is left to arrive.
    await eventually(async () => {
      const probe = await sse(b, ofrepStream(NS));
      expect(await positionOf(probe)).toBe(opened);
      probe.close();
    }, 15_000, 20);
    const onB = await Promise.all(Array.from({ length: 20 }, (_, i) => sse(b, i % 2 ? snapshotStream(NS) : ofrepStream(NS))));
    expect(onB.map((s) => s.status)).toEqual(onB.map(() => 200));
    // Every stream on B opened at A's version: the instances agree on it.
    expect(await Promise.all(onB.map(positionOf))).toEqual(onB.map(() => opened));
    const all = [onA, ...onB];
    let previous = Number(opened);

    const latencies: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answered = await toggle(apiA, i % 2 === 1);
      const events = await Promise.all(all.map((s) => s.next(10_000)));
      const [fromA, ...fromB] = events;
      const id = fromA.id!;
      // One version per write, announced the same on both instances (the etag is derived from it, not per instance).
      expect(Number(id)).toBeGreaterThan(previous);
      previous = Number(id);
      const { etag } = refetchOf(fromA);
      expect(etag).toMatch(/^[A-Za-z0-9_-]{16}$/);
      for (const e of fromB) {
        expect(e.id).toBe(id);
        expect(refetchOf(e)).toEqual({ type: 'refetchEvaluation', etag });
      }
      // Commit→event on B: the slowest of B's streams, from the moment A answered the write.
      latencies.push(Math.max(...fromB.map((e) => e.at)) - answered);
    }
    // Exactly one event per write: no duplicates trailing behind.
    await sleep(300);
    expect(all.map((s) => s.events.length)).toEqual(all.map(() => 30));
    // Printed, not asserted: the 100 ms target is the bench's to measure (bench/streams.js), not a timed test's.
    console.log(
      `stream fan-out, A's write answered → event on all 20 of B's streams: p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms, min ${Math.min(...latencies).toFixed(1)} ms (n=${latencies.length})`,
    );
  });

  it_('a client that reconnects to the other instance resumes from the id it heard on the first', async () => {
    const first = await sse(a, ofrepStream(NS));
    expect(first.status).toBe(200);
    const heard = await positionOf(first);
    first.close();
    // A stream already on B tells the test when B has the write, so that the resumed stream's event below comes from
    // the Last-Event-ID, not from the write arriving after it connected.
    const witness = await sse(b, snapshotStream(NS));
    await toggle(apiA, false);
    const current = (await witness.next(10_000)).id!;
    expect(Number(current)).toBeGreaterThan(Number(heard));

    const resumed = await sse(b, ofrepStream(NS), { ...bearer(BOOTSTRAP), 'last-event-id': heard });
    expect(resumed.status).toBe(200);
    const missed = await resumed.next(10_000);
    expect(missed.id).toBe(current);
    expect(refetchOf(missed).type).toBe('refetchEvaluation');
    // The version A announces is B's current one as well: resuming from it on B is up to date, nothing to tell.
    const upToDate = await sse(b, ofrepStream(NS), { ...bearer(BOOTSTRAP), 'last-event-id': current });
    expect(await positionOf(upToDate)).toBe(current);
    await sleep(300);
    expect(upToDate.events).toEqual([]);
  });

  it_('a token deleted on A ends its streams on B (Redis), and B refuses the reconnection', async () => {
    const { clientToken, authentication } = await createToken(apiA, { name: 'streamer' });
    const streams = await Promise.all([sse(b, ofrepStream(NS), bearer(clientToken)), sse(b, snapshotStream(NS), bearer(clientToken))]);
    const bystander = await sse(b, ofrepStream(NS));
    expect([...streams, bystander].map((s) => s.status)).toEqual([200, 200, 200]);
    ok(await apiA.delete(`/auth/v1/tokens/${authentication.id}`), 'delete token');
    const deleted = performance.now();
    // Only the broadcast can end them: B checks an open stream's token no more (its next check is the reconnection).
    await Promise.race([
      Promise.all(streams.map((s) => s.ended)),
      sleep(30_000).then(() => {
        throw new Error('the revoked token\'s streams on B were still open 30 s after the deletion on A');
      }),
    ]);
    console.log(`a token deleted on A ended its streams on B after ${(performance.now() - deleted).toFixed(0)} ms`);
    expect(bystander.isEnded()).toBe(false);
    await eventually(async () => expect((await sse(b, ofrepStream(NS), bearer(clientToken))).status).toBe(401), 10_000, 50);
  });

  // Last: Redis does not come back.
  it_('Redis gone: a write on A still reaches B\'s streams, through the version poll', async () => {
    const onB = await sse(b, ofrepStream(NS));
    const onA = await sse(a, snapshotStream(NS));
    expect([onA.status, onB.status]).toEqual([200, 200]);
    await redis.stop();
    // Both instances know the bus is gone before the write, so the poll is the only way left.
    for (const p of [a, b]) {
      await eventually(async () => expect((await client(p.url).get('/health')).status).toBe(503), 10_000);
    }
    const answered = await toggle(apiA, true);
    // With the bus gone, the version poll is the only way the write can reach B: that it arrives is the behaviour.
    const fromA = await onA.next(10_000);
    const fromB = await onB.next(20_000);
    console.log(`without Redis, A's write reached B's stream after ${(fromB.at - answered).toFixed(0)} ms (version poll)`);
    expect(fromB.id).toBe(fromA.id);
    expect(refetchOf(fromB)).toEqual(refetchOf(fromA));
  });

  // Still without Redis: B learns of A's writes only by its poll, once a second.
  it_('a refetch on B that carries the tag of A\'s event is answered with the write at once (flagConfigEtag)', async () => {
    const apiB = client(b.url, bearer(BOOTSTRAP));
    const onA = await sse(a, ofrepStream(NS));
    for (const enabled of [false, true, false]) {
      await toggle(apiA, enabled);
      const event = await onA.next(10_000);
      const refetch = await apiB.post(
        `/ofrep/v1/evaluate/flags?flagConfigEtag=${encodeURIComponent(refetchOf(event).etag!)}`,
        { context: { targetingKey: 'u' } },
        { 'x-flipt-namespace': NS },
      );
      expect(refetch.status).toBe(200);
      expect(refetch.body.flags.find((f: { key: string }) => f.key === 'on')).toMatchObject({ value: enabled });
      // B's poll catches up before the next write, and B may ask the database again.
      await sleep(1100);
    }
  });
});
