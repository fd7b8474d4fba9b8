/**
 * The audit trail against a hostile tenant (issue 38, items 1, 4, 5, 6 and 17), with authorization on, the stored
 * trail, a webhook receiver on loopback and a log file, as an operator runs them:
 *  - a refused write leaves exactly one small record in each of them, whatever the request sent;
 *  - a token mint refused for outgranting its creator is recorded as denied, like every other refused write;
 *  - history (`before`) is kept per namespace: ids sent through another namespace's path neither see nor cut it;
 *  - a receiver that hangs while large writes go on costs a bounded number of bytes, the rest dropped and counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, sleep } from '../auth/support';
import { policyFile, startAuthorized, tokenWithRole } from '../authorization/support';
import { client, http, type RunningFlagpole } from '../support/flagpole';
import { metricFamily } from '../support/metric-family';
import { Receiver } from './support/receiver';

jest.setTimeout(120_000);

const POLICY = `
roles:
  admin: [{ resources: "*", actions: "*" }]
  production-editor:
    - { resources: [flag, segment], actions: "*", namespaces: [production] }
    - { resources: [namespace, audit], actions: [read], namespaces: [production] }
  issuer:
    - { resources: [authentication], actions: "*" }
    - { resources: [flag], actions: [read], namespaces: [production] }
bindings:
  - role: admin
    token: { metadata: { io.flagpole.auth.token.name: initial_bootstrap_token } }
`;

interface StoredEvent {
  type: string;
  action: string;
  status: string;
  payload: Record<string, unknown>;
  before: Record<string, unknown> | null;
}

describe('the audit trail against a hostile tenant', () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };
  let rx: Receiver;
  let dir: string;
  let logFile: string;
  const as = (token: string) => client(fp.url, bearer(token));

  beforeAll(async () => {
    rx = await Receiver.start();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-hostile-audit-'));
    logFile = join(dir, 'audit.log');
    fp = await startAuthorized(policyFile(POLICY), {
      FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: rx.url,
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s',
      FLAGPOLE_AUDIT_SINKS_LOG_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_LOG_FILE: logFile,
    });
    for (const key of ['production', 'staging']) {
      expect((await fp.admin.post('/api/v1/namespaces', { key, name: key })).status).toBe(200);
      expect((await fp.admin.post(`/api/v1/namespaces/${key}/flags`, { key: 'f', name: 'f', type: 'VARIANT_FLAG_TYPE', enabled: true })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await fp?.close();
    await rx?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Stored events matching `query` (newest first), once `until` holds of them (the trail stores in batches, 100 ms
   * apart, later on a busy machine), and then once more after a moment, so that an event stored late counts too.
   */
  async function stored(query: string, until: (events: StoredEvent[]) => boolean): Promise<StoredEvent[]> {
    const read = async () => {
      const r = await fp.admin.get(`/api/v1/audit/events?limit=100&${query}`);
      expect(r.status).toBe(200);
      return r.body.events as StoredEvent[];
    };
    for (let i = 0; i < 100 && !until(await read()); i++) await sleep(100);
    await sleep(300);
    return read();
  }
  const deniedCreations = (events: StoredEvent[]) => events.filter((e) => e.status === 'denied' && e.action === 'created');

  /** The log file's audit lines, parsed. */
  const logged = (): any[] => readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));

  it('a refused write with a 3.9 MiB key leaves one small record in the trail, the webhook and the log (items 1, 4)', async () => {
    const nobody = as(await tokenWithRole(fp.admin, 'no-such-role'));
    const key = 'k'.repeat(3.9 * 1024 * 1024);
    await rx.until((accepted) => expect(accepted.length).toBeGreaterThan(0)); // the token's creation
    await sleep(200);
    rx.clear();
    const logBefore = logged().length;
    for (let i = 0; i < 3; i++) {
      const r = await nobody.post('/api/v1/namespaces/production/flags', { key, name: 'x', type: 'BOOLEAN_FLAG_TYPE' });
      expect(r.status).toBe(403);
    }
    const events = deniedCreations(await stored('namespaceKey=production&type=flag', (e) => deniedCreations(e).length >= 3));
    expect(events).toHaveLength(3);
    for (const e of events) {
      expect(JSON.stringify(e).length).toBeLessThan(2048);
      expect(e.payload.key).toMatch(/^k{64}… \(4089446 characters, cut\)$/);
      expect(e.before).toBeNull();
    }
    const hooks = await rx.until((accepted) => {
      expect(accepted.filter((e) => e.status === 'denied')).toHaveLength(3);
      return rx.requests;
    });
    await sleep(200);
    expect(rx.requests).toHaveLength(3);
    for (const h of hooks) expect(h.raw.length).toBeLessThan(2048);
    const lines = logged().slice(logBefore);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(JSON.stringify(line).length).toBeLessThan(2048);
  });

  it('a token mint refused for outgranting its creator is recorded as denied (item 17)', async () => {
    const issuer = as(await tokenWithRole(fp.admin, 'issuer'));
    const r = await issuer.post('/auth/v1/method/token', { name: 'too-strong', metadata: { 'io.flagpole.auth.role': 'admin' } });
    expect(r.status).toBe(403);
    const denied = (await stored('type=token', (e) => e.some((x) => x.status === 'denied'))).filter((e) => e.status === 'denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ type: 'token', action: 'created', payload: { name: 'too-strong' } });
  });

  it('history is per namespace: a delete of a staging id through a production path neither shows nor cuts staging\'s (item 5)', async () => {
    const staging = await fp.admin.post('/api/v1/namespaces/staging/flags/f/variants', { key: 'secret', attachment: '{"price":42}' });
    expect(staging.status).toBe(200);
    const id = staging.body.id as string;
    const editor = as(await tokenWithRole(fp.admin, 'production-editor'));
    // Through production's path, the staging variant is not production's: nothing is deleted.
    expect((await editor.delete(`/api/v1/namespaces/production/flags/f/variants/${id}`)).status).toBe(200);
    expect((await fp.admin.get('/api/v1/namespaces/staging/flags/f')).body.variants.map((v: { id: string }) => v.id)).toContain(id);
    const productionEvents = await editor.get('/api/v1/audit/events?namespaceKey=production&type=variant');
    expect(productionEvents.status).toBe(200);
    for (const e of productionEvents.body.events as StoredEvent[]) expect(JSON.stringify(e.before)).not.toContain('price');
    // Staging's next change still names the state before it.
    expect((await fp.admin.put(`/api/v1/namespaces/staging/flags/f/variants/${id}`, { key: 'secret', attachment: '{"price":43}' })).status).toBe(200);
    const [update] = (await stored('namespaceKey=staging&type=variant', (e) => e.some((x) => x.action === 'updated'))).filter((e) => e.action === 'updated');
    expect(update.before).toMatchObject({ id, attachment: '{"price":42}' });
  });

  it('a hanging receiver and large writes hold a bounded number of bytes; the rest is dropped and counted (item 6)', async () => {
    // Its own server: the byte bound set low, and a receiver that never answers.
    const hanging = await Receiver.start();
    hanging.delayMs = 600_000;
    const small = await startAuthorized(policyFile(POLICY), {
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: hanging.url,
      FLAGPOLE_LIMITS_MAX_AUDIT_BACKLOG_BYTES: String(1024 * 1024),
    });
    try {
      expect((await small.admin.post('/api/v1/namespaces/default/flags', { key: 'big', name: 'big', type: 'VARIANT_FLAG_TYPE' })).status).toBe(200);
      const v = await small.admin.post('/api/v1/namespaces/default/flags/big/variants', { key: 'v' });
      for (let i = 0; i < 12; i++) {
        const attachment = JSON.stringify({ blob: `${i}`.padEnd(200 * 1024, 'x') });
        expect((await small.admin.put(`/api/v1/namespaces/default/flags/big/variants/${v.body.id}`, { key: 'v', attachment })).status).toBe(200);
      }
      // 13 events of ~200 KB each: with one in flight and at most 1 MiB waiting, at least 7 were dropped.
      const metrics = await http(small.url, 'GET', '/metrics', undefined, bearer('s3cret-bootstrap'));
      const family = metricFamily(metrics.text, 'flagpole_audit_events_dropped_total') ?? '';
      const dropped = Number(/sink="webhook"} (\d+)/.exec(family)?.[1] ?? 0);
      expect(dropped).toBeGreaterThanOrEqual(7);
      expect((await http(small.url, 'GET', '/health')).status).toBe(200);
    } finally {
      await small.close();
      await hanging.stop();
    }
  });
});
