/**
 * HTTP health (/health, /health/live, /health/ready) and the gRPC health service (grpc.health.v1.Health Check and
 * Watch, with a real @grpc/grpc-js client), through start, a database outage and shutdown; and who sees `/health`'s
 * details when authentication is required.
 *
 * The outage: on PostgreSQL and MySQL the application reaches its database through a loopback TCP proxy that the
 * test stops (connections reset, new ones refused) and starts again. SQLite has no network to cut, so there the
 * test closes the application's own ORM connection pool and reopens it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { HealthService } from '../../src/health/health.service';
import { bearer, BOOTSTRAP } from '../auth/support';
import { authorizationEnv, policyFile, tokenWithRole } from '../authorization/support';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { check, eventually, healthClient, Watcher } from './support/grpc-health-client';
import { TcpProxy } from './support/tcp-proxy';

const SERVING = { status: 'SERVING' };

describe('health', () => {
  let fp: RunningFlagpole;
  let grpc: ReturnType<typeof healthClient>;

  beforeAll(async () => {
    fp = await startFlagpole();
    grpc = healthClient(fp.grpcPort);
  });
  afterAll(async () => {
    grpc?.close();
    await fp?.close();
  });

  it('answers /health with Flipt body and content type', async () => {
    const r = await client(fp.url).get('/health');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body).toEqual(SERVING);
  });

  it('answers liveness and readiness', async () => {
    const api = client(fp.url);
    expect(await api.get('/health/live')).toMatchObject({ status: 200, body: SERVING });
    expect(await api.get('/health/ready')).toMatchObject({ status: 200, body: SERVING });
  });

  it('relays ?service= like grpc-gateway: "" is the server, anything else is unknown', async () => {
    const api = client(fp.url);
    expect(await api.get('/health?service=')).toMatchObject({ status: 200, body: SERVING });
    expect(await api.get('/health?service=flipt.Flipt')).toMatchObject({
      status: 404,
      body: { code: 5, message: 'unknown service', details: [] },
    });
  });

  it('serves grpc.health.v1.Health Check: "" SERVING, an unknown service NOT_FOUND', async () => {
    expect(await check(grpc, '')).toBe('SERVING');
    expect(await check(grpc, 'no.such.Service')).toBe(5);
  });

  it('streams the current status on Watch, and SERVICE_UNKNOWN for an unknown service', async () => {
    const overall = new Watcher(grpc, '');
    const unknown = new Watcher(grpc, 'no.such.Service');
    await eventually(() => overall.statuses.length > 0 && unknown.statuses.length > 0, 5000, 'first Watch messages');
    expect(overall.statuses).toEqual(['SERVING']);
    expect(unknown.statuses).toEqual(['SERVICE_UNKNOWN']);
    overall.cancel();
    unknown.cancel();
  });

  it('is never behind authentication', async () => {
    const secured = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    });
    try {
      const api = client(secured.url);
      for (const path of ['/health', '/health/live', '/health/ready']) expect((await api.get(path)).status).toBe(200);
    } finally {
      await secured.close();
    }
  });
});

// Hardening issue 12: the policy file's path, the role names and why a change was refused are not for anyone.
describe('health details with authentication required', () => {
  let fp: RunningFlagpole;
  let policy: string;

  beforeAll(async () => {
    policy = policyFile();
    fp = await startFlagpole(authorizationEnv(policy));
  });
  afterAll(() => fp?.close());

  it('a caller without a credential gets the status only, from every route, with the same codes', async () => {
    const api = client(fp.url);
    for (const path of ['/health', '/health/live', '/health/ready']) expect(await api.get(path)).toMatchObject({ status: 200, body: SERVING });
    // A refused credential is no credential: still 200, still the status only (a probe is never turned away).
    expect(await api.get('/health', undefined, bearer('not-a-token'))).toMatchObject({ status: 200, body: SERVING });
    const r = await api.get('/health');
    expect(r.body).toEqual(SERVING);
    expect(r.text).not.toContain(policy);
    expect(await api.get('/health?service=flipt.Flipt')).toMatchObject({ status: 404, body: { code: 5, message: 'unknown service' } });
  });

  it('a caller with a valid credential gets the details: the policy file, its roles, and a refused change', async () => {
    const admin = client(fp.url, bearer(BOOTSTRAP));
    expect(await admin.get('/health')).toMatchObject({
      status: 200,
      body: { status: 'SERVING', authorization: { policy, roles: ['admin', 'production-editor', 'team-editor', 'viewer', 'evaluator'] } },
    });
    // Any valid credential, whatever its roles: a viewer too.
    const viewer = client(fp.url, bearer(await tokenWithRole(admin, 'viewer')));
    expect((await viewer.get('/health')).body.authorization).toMatchObject({ policy });

    writeFileSync(policy, 'roles: [unclosed\n');
    await eventually(async () => String((await admin.get('/health')).body.authorization?.error).includes(policy), 10_000, 'the refused change in /health');
    expect((await client(fp.url).get('/health')).body).toEqual(SERVING);
  });
});

describe('health during a database outage', () => {
  let fp: RunningFlagpole;
  let grpc: ReturnType<typeof healthClient>;
  let cut: () => Promise<void>;
  let restore: () => Promise<void>;
  let cleanup: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (TEST_DIALECT === 'sqlite') {
      fp = await startFlagpole();
      const orm = fp.app.get(MikroORM);
      cut = () => orm.close(true);
      restore = () => orm.connect().then(() => undefined);
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'flagpole-outage-'));
      const realUrl = await freshDatabaseUrl(dir);
      const target = new URL(realUrl);
      const proxy = new TcpProxy(target.hostname, Number(target.port));
      await proxy.start();
      const proxied = new URL(realUrl);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      fp = await startFlagpole({ FLAGPOLE_DB_URL: proxied.toString() });
      cut = () => proxy.stop();
      restore = () => proxy.start().then(() => undefined);
      cleanup = async () => {
        await proxy.stop();
        await dropDatabase(realUrl);
        rmSync(dir, { recursive: true, force: true });
      };
    }
    grpc = healthClient(fp.grpcPort);
  });
  let isCut = false;
  afterAll(async () => {
    grpc?.close();
    if (isCut) await restore().catch(() => undefined);
    await fp?.close();
    await cleanup();
  });

  it('turns NOT_SERVING (gRPC within one check interval, /health at once), keeps evaluating, and recovers', async () => {
    const api = client(fp.url);
    expect((await api.post('/api/v1/namespaces/default/flags', { key: 'f', name: 'F', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    const evaluate = () => api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e1', context: {} });
    expect((await evaluate()).body).toMatchObject({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' });

    const watch = new Watcher(grpc, '');
    await eventually(() => watch.last === 'SERVING', 5000, 'Watch SERVING');

    await cut();
    isCut = true;
    // Nothing but the periodic check (every 5 s) runs: the Watch stream must turn by itself.
    await eventually(() => watch.last === 'NOT_SERVING', 9000, 'Watch NOT_SERVING');
    expect(await check(grpc, '')).toBe('NOT_SERVING');
    expect(await api.get('/health')).toMatchObject({
      status: 503,
      body: { code: 14, message: 'NOT_SERVING: database unreachable', details: [] },
    });
    // Not a reason to restart or to leave the load balancer: evaluations still answer from the loaded snapshot.
    expect(await api.get('/health/live')).toMatchObject({ status: 200, body: SERVING });
    expect(await api.get('/health/ready')).toMatchObject({ status: 200, body: SERVING });
    expect(await evaluate()).toMatchObject({ status: 200, body: { enabled: true, reason: 'DEFAULT_EVALUATION_REASON' } });

    await restore();
    isCut = false;
    // /health checks now, and its result reaches the gRPC service at once.
    await eventually(async () => (await api.get('/health')).status === 200, 9000, '/health 200 again');
    expect(await check(grpc, '')).toBe('SERVING');
    await eventually(() => watch.last === 'SERVING', 2000, 'Watch SERVING again');
    expect(watch.statuses).toEqual(['SERVING', 'NOT_SERVING', 'SERVING']);
    watch.cancel();
  });
});

describe('health at shutdown', () => {
  it('turns readiness 503 and gRPC NOT_SERVING first, then closes the gRPC port', async () => {
    const fp = await startFlagpole();
    const grpc = healthClient(fp.grpcPort);
    try {
      const watch = new Watcher(grpc, '');
      await eventually(() => watch.last === 'SERVING', 5000, 'Watch SERVING');

      fp.app.get(HealthService).startShutdown(); // what SIGTERM does first (graceful-shutdown.ts)
      const api = client(fp.url);
      expect(await api.get('/health/ready')).toMatchObject({
        status: 503,
        body: { code: 14, message: 'NOT_SERVING: shutting down', details: [] },
      });
      expect(await api.get('/health')).toMatchObject({ status: 503, body: { code: 14, message: 'NOT_SERVING: shutting down' } });
      expect(await api.get('/health/live')).toMatchObject({ status: 200 });
      expect(await check(grpc, '')).toBe('NOT_SERVING');
      await eventually(() => watch.last === 'NOT_SERVING', 2000, 'Watch NOT_SERVING');

      await fp.close();
      await eventually(() => watch.ended !== null, 3000, 'Watch stream to end');
      expect(watch.statuses).toEqual(['SERVING', 'NOT_SERVING']);
      expect(await check(grpc, '')).toBe(14); // UNAVAILABLE: nothing listens any more
    } finally {
      grpc.close();
    }
  });
});
