/**
 * The audit trail with two instances, as operators scale them out: two built Flagpole processes on one PostgreSQL
 * database and one Redis, both with the same webhook sink. Writes alternate between the instances:
 *   - each event reaches the webhook exactly once (delivered by the instance that committed it, not once per instance);
 *   - the stored trail read on either instance holds every write's event, with the actor of the token that made it.
 * Runs once per CI run (the SQLite pass), against the machine's PostgreSQL; skipped, saying so, without it or
 * without redis-server. The set-up is event-streams-fanout.e2e-spec.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOOTSTRAP, bearer, eventually, sleep } from '../auth/support';
import { buildNamespace, nsPath, ok } from '../evaluation/fixtures';
import { freshDatabaseUrl } from '../support/databases';
import { client } from '../support/flagpole';
import { buildOnce, FlagpoleProcess, ROOT } from '../ops/support/process';
import { dropPostgresDatabase, POSTGRES_ADMIN, scaleOutDescribe, scaleOutEnv } from './support/scale-out';
import { freePort, RedisServer } from './support/redis-server';

const NS = 'audited';

const suite = scaleOutDescribe('audit scale-out');

suite('audit events with two instances on one PostgreSQL and one Redis', () => {
  let dir: string;
  let dbUrl = '';
  let redis: RedisServer;
  let a: FlagpoleProcess;
  let b: FlagpoleProcess;
  let receiver: Server;
  const received: Array<{ type: string; action: string; payload: { name?: string } }> = [];
  let skipped = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-audit-scale-'));
    try {
      dbUrl = await freshDatabaseUrl(dir, 'postgres');
    } catch (e) {
      skipped = true;
      console.warn(`audit scale-out suite skipped: no PostgreSQL answers at ${POSTGRES_ADMIN} (${(e as Error).message})`);
      return;
    }
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    await buildOnce();
    redis = new RedisServer(await freePort());
    await redis.start();
    const env = {
      ...scaleOutEnv(redis.url),
      FLAGPOLE_DB_URL: dbUrl,
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: hook,
      FLAGPOLE_AUDIT_EVENTS: 'flag:updated',
    };
    a = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DATA_DIR: join(dir, 'a') });
    b = new FlagpoleProcess(ROOT, { ...env, FLAGPOLE_DATA_DIR: join(dir, 'b') });
    await Promise.all([a.ready(60_000), b.ready(60_000)]).catch((e: Error) => {
      throw new Error(`${e.message}\n--- A:\n${a.raw.join('\n')}\n--- B:\n${b.raw.join('\n')}`);
    });
    await buildNamespace(client(a.url, bearer(BOOTSTRAP)), { key: NS, flags: [{ key: 'f', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
  }, 120_000);

  afterAll(async () => {
    a?.kill();
    b?.kill();
    await Promise.all([a?.exit, b?.exit]);
    await redis?.stop();
    receiver?.close();
    if (dbUrl) await dropPostgresDatabase(dbUrl).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('each write is delivered once, by the instance that made it, and stored once for both', async () => {
    if (skipped) return;
    const apiA = client(a.url, bearer(BOOTSTRAP));
    const apiB = client(b.url, bearer(BOOTSTRAP));
    const names = Array.from({ length: 20 }, (_, i) => `write ${i}`);
    for (const [i, name] of names.entries()) {
      ok(await (i % 2 ? apiB : apiA).put(`${nsPath(NS)}/flags/f`, { key: 'f', name, description: '', enabled: i % 2 === 0 }), name);
    }
    await eventually(() => expect(received.length).toBeGreaterThanOrEqual(names.length), 10_000, 50);
    // Anything delivered twice would arrive within this wait too.
    await sleep(500);
    expect(received.map((e) => `${e.type}:${e.action}`)).toEqual(names.map(() => 'flag:updated'));
    expect(received.map((e) => e.payload.name).sort()).toEqual([...names].sort());
    for (const api of [apiA, apiB]) {
      await eventually(async () => {
        const page = await api.get(`/api/v1/audit/events?namespaceKey=${NS}&type=flag&action=updated&limit=100`);
        expect(page.status).toBe(200);
        const stored = page.body.events as Array<{ payload: { name: string }; metadata: { actor: { authentication: string; name?: string } } }>;
        expect(stored.map((e) => e.payload.name).sort()).toEqual([...names].sort());
        expect(new Set(stored.map((e) => `${e.metadata.actor.authentication}/${e.metadata.actor.name}`))).toEqual(new Set(['token/initial_bootstrap_token']));
      }, 5_000, 50);
    }
  }, 60_000);
});
