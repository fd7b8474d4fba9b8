/**
 * The attacks of issue 15 items 1, 4, 5 and 8, run together for a bounded time against the built server (a child
 * process, as operators run it, authentication required) while a paced evaluation load with a static token runs beside
 * them. The server must stay alive, keep /health answering, keep its RSS under a stated bound and answer every paced
 * evaluation. The numbers (the paced p50 and p99 among them) are printed so that docs/security.md can quote them;
 * latencies are not asserted, as they follow the machine's speed and load (speed is bench's).
 *
 * Runs on SQLite only: what it measures is the server's own memory and event loop, not the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DIALECT } from '../support/databases';
import { buildOnce, FlagpoleProcess, ROOT } from '../ops/support/process';
import { healthClient, Watcher } from '../ops/support/grpc-health-client';
import { loadReport, pacedInChild, post, rssMb } from './support/attack-load';

const onSqlite = TEST_DIALECT === 'sqlite' ? describe : describe.skip;
jest.setTimeout(180_000);

const TOKEN = 'resource-test-bootstrap-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const ATTACK_MS = 15_000;
/** Bounds asserted (measured values are printed; see docs/security.md for the numbers of a run). */
const RSS_BOUND_MB = 450;
const REQUEST_TIMEOUT_MS = 5000;
/**
 * A /health check not answered in this long counts as failed. It only stops a check that would never end: /health
 * took 0.5–1.2 s at worst here under the attacks on an idle 2-core machine, and a loaded one stretches that.
 */
const HEALTH_GIVE_UP_MS = 30_000;
const WATCH_STREAMS = 1200; // above the cap configured below (1000)

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * The attack bodies, built before the clock starts so that building them does not stall this process (which also
 * runs the health probe): item 1 (unknown flags with the longest keys allowed, and keys far over it), item 4 (as many
 * distinct unknown namespaces as allowed, and batches far over both caps).
 */
function attackBodies(): string[] {
  const bodies: string[] = [];
  for (let b = 0; b < 20; b++) {
    bodies.push(JSON.stringify({ requests: Array.from({ length: 200 }, () => ({ namespaceKey: 'default', flagKey: hex(127), entityId: 'e' })) }));
    const ten = Array.from({ length: 10 }, () => `unknown-${hex(6)}`);
    bodies.push(JSON.stringify({ requests: Array.from({ length: 1000 }, (_, i) => ({ namespaceKey: ten[i % 10], flagKey: 'f', entityId: 'e' })) }));
    bodies.push(JSON.stringify({ requests: Array.from({ length: 1000 }, (_, i) => ({ namespaceKey: `n${i}-${hex(4)}`, flagKey: 'f', entityId: 'e' })) }));
  }
  bodies.push(JSON.stringify({ requests: Array.from({ length: 20 }, () => ({ namespaceKey: hex(50_000), flagKey: hex(50_000), entityId: 'e' })) }));
  bodies.push(JSON.stringify({ requests: Array.from({ length: 62_000 }, (_, i) => ({ namespaceKey: `n${i}`, flagKey: 'f', entityId: 'e' })) }));
  return bodies;
}

async function flood(url: string, bodies: string[], until: number, statuses: number[]): Promise<void> {
  for (let i = 0; Date.now() < until; i++) statuses.push(await post(`${url}/evaluate/v1/batch`, bodies[i % bodies.length]));
}

/** Item 5: connections that announce a 4 MiB body and trickle it, with and without a credential. */
function trickle(port: number, path: string, headers: string, sockets: Socket[]): void {
  const s = connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  s.on('connect', () => {
    s.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${4 * 1024 * 1024}\r\n${headers}\r\n`);
    const timer = setInterval(() => (s.destroyed ? clearInterval(timer) : s.write('[' + ' '.repeat(1023))), 100);
    s.on('close', () => clearInterval(timer));
  });
  sockets.push(s);
}

onSqlite('resource bounds under attack (built server, authentication required)', () => {
  let dir: string;
  let fp: FlagpoleProcess;

  beforeAll(async () => {
    await buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-resource-'));
    fp = new FlagpoleProcess(ROOT, {
      FLAGPOLE_DATA_DIR: dir,
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_EXCLUDE_EVALUATION: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: TOKEN,
      FLAGPOLE_LIMITS_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS / 1000}s`,
      FLAGPOLE_LIMITS_MAX_GRPC_WATCH_STREAMS: '1000',
    });
    await fp.ready();
    for (const [path, body] of [
      ['/api/v1/namespaces/default/flags', { key: 'on', name: 'On', type: 'BOOLEAN_FLAG_TYPE', enabled: true }],
    ] as const) {
      expect(await post(fp.url + path, body, AUTH)).toBe(200);
    }
  });

  afterAll(() => {
    fp?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays alive and healthy, within its memory bound, answering every paced evaluation', async () => {
    const bodies = attackBodies();
    const baseline = rssMb(fp.pid);
    let peak = baseline;
    let healthWorst = 0;
    let healthFailures = 0;
    const until = Date.now() + ATTACK_MS;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(fp.pid))), 200);
    const healthLoop = (async () => {
      while (Date.now() < until) {
        const t = performance.now();
        const ok = await fetch(`${fp.url}/health`, { signal: AbortSignal.timeout(HEALTH_GIVE_UP_MS) }).then((r) => r.status === 200, () => false);
        healthWorst = Math.max(healthWorst, performance.now() - t);
        if (!ok) healthFailures++;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const sockets: Socket[] = [];
    for (let i = 0; i < 150; i++) trickle(fp.httpPort, i % 2 ? '/api/v1/namespaces' : '/evaluate/v1/boolean', '', sockets);
    const grpc = healthClient(fp.grpcPort);
    const watchers = Array.from({ length: WATCH_STREAMS }, () => new Watcher(grpc));
    const statuses: number[] = [];
    const attacks = [flood(fp.url, bodies, until, statuses), flood(fp.url, bodies.slice().reverse(), until, statuses)];
    const steady = await pacedInChild(`${fp.url}/evaluate/v1/boolean`, 200, ATTACK_MS / 1000, AUTH);
    await Promise.all(attacks);
    await healthLoop;
    clearInterval(sampler);

    const exhausted = watchers.filter((w) => w.ended === 8).length;
    const openTrickles = sockets.filter((s) => !s.destroyed).length;
    const metrics = await fetch(`${fp.url}/metrics`).then((r) => r.text());
    watchers.forEach((w) => w.cancel());
    grpc.close();
    sockets.forEach((s) => s.destroy());

    const report = {
      ...loadReport({ baseline, peak }, steady, healthWorst),
      attackStatuses: Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])),
      watchStreamsRefused: exhausted,
      trickleConnectionsStillOpen: openTrickles,
      metricsBytes: metrics.length,
    };
    console.log(`resource test: ${JSON.stringify(report)}`);

    expect(fp.running).toBe(true);
    expect(healthFailures).toBe(0);
    expect(peak).toBeLessThan(RSS_BOUND_MB);
    // No evaluation starved: every one of them was answered, 200. Its p50 and p99 are printed above, not asserted.
    expect(steady.errors).toBe(0);
    expect(statuses.filter((s) => s >= 500 || s < 0)).toEqual([]);
    expect(exhausted).toBeGreaterThanOrEqual(WATCH_STREAMS - 1000);
    // The request timeout (5 s here) closed every trickling connection within the 15 s of the attack.
    expect(openTrickles).toBe(0);
    expect(metrics.length).toBeLessThan(5 * 1024 * 1024);
  });
});
