/**
 * `server.write_worker: true` on the built server (`node dist/main.js`, the only way the worker runs): the REST API's
 * writes run in a worker thread and answer exactly as on the main thread (bodies, errors, authentication, audit),
 * evaluations read a write back as soon as it has answered, and evaluations of another namespace are answered while a
 * long write (a 3,000-flag import) runs. How long the import holds them up, with the worker and without it (the
 * control), is printed, not asserted: a loaded machine stretches both (`npm run bench` measures it,
 * BENCH_CHURN_WRITE_WORKER=off,on).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TEST_DIALECT } from '../support/databases';
import { client } from '../support/flagpole';
import { buildOnce, FlagpoleProcess, ROOT } from './support/process';

/** The child process uses its own SQLite file whatever the dialect under test: run it once, in the SQLite pass. */
const onSqlite = TEST_DIALECT === 'sqlite' ? describe : describe.skip;

jest.setTimeout(180_000);

const TOKEN = 'write-worker-test-token';
const IMPORTED_FLAGS = 3000;

function startFlagpole(dir: string, writeWorker: boolean): FlagpoleProcess {
  return new FlagpoleProcess(ROOT, {
    FLAGPOLE_DATA_DIR: dir,
    FLAGPOLE_SERVER_WRITE_WORKER: String(writeWorker),
    FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: TOKEN,
  });
}

/** A Flipt document of `count` flags, each with two variants and a rule on one segment. */
function importDocument(count: number): string {
  const lines = ['version: "1.4"', 'namespace: bulk', 'segments:', '- key: everyone', '  name: everyone', '  match_type: ALL_MATCH_TYPE', 'flags:'];
  for (let i = 0; i < count; i++) {
    lines.push(`- key: f${i}`, `  name: f${i}`, '  type: VARIANT_FLAG_TYPE', '  enabled: true', '  variants:', '  - key: a', '  - key: b',
      '  rules:', '  - segment: everyone', '    distributions:', '    - variant: a', '      rollout: 50', '    - variant: b', '      rollout: 50');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Evaluations of the `default` namespace one after another while `work` runs: the longest one, how many ran, and how
 * many were answered before `work` was.
 */
async function evaluationsDuring(
  api: ReturnType<typeof client>,
  work: Promise<unknown>,
): Promise<{ longestMs: number; count: number; beforeWork: number }> {
  let done = false;
  void work.finally(() => (done = true));
  let longestMs = 0;
  let count = 0;
  let beforeWork = 0;
  while (!done) {
    const start = performance.now();
    const res = await api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'probe', entityId: 'u', context: {} });
    expect(res.status).toBe(200);
    longestMs = Math.max(longestMs, performance.now() - start);
    count++;
    if (!done) beforeWork++;
  }
  await work;
  return { longestMs, count, beforeWork };
}

onSqlite('the write worker (server.write_worker)', () => {
  let dir: string;
  let fp: FlagpoleProcess;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    await buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'flagpole-write-worker-'));
    fp = startFlagpole(join(dir, 'on'), true);
    await fp.ready();
    api = client(fp.url, { authorization: `Bearer ${TOKEN}` });
  });
  afterAll(() => {
    fp?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the worker before it listens', () => {
    expect(fp.lines.some((l) => /^write worker ready in \d+ ms/.test(l.M))).toBe(true);
    const listening = fp.lines.findIndex((l) => /^listening on /.test(l.M));
    expect(fp.lines.findIndex((l) => /^write worker ready/.test(l.M))).toBeLessThan(listening);
  });

  it('runs the worker\'s thread at nice 10 (server.write_worker_nice), every other thread at the process\'s own', () => {
    const niceOf = (task: string) => Number(readFileSync(`/proc/${fp.pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const own = niceOf(String(fp.pid));
    const worker = Math.max(own, 10);
    const nice = readdirSync(`/proc/${fp.pid}/task`).map(niceOf);
    expect(nice.length).toBeGreaterThan(2);
    if (own < worker) expect(nice.filter((n) => n === worker)).toHaveLength(1);
    expect(nice.filter((n) => n !== worker && n !== own)).toEqual([]);
    expect(fp.lines.some((l) => new RegExp(`^write worker thread at nice ${worker} \\(thread \\d+\\)$`).test(l.M))).toBe(true);
  });

  it('answers writes as the main thread does, and evaluations read each write back at once', async () => {
    const created = await api.post('/api/v1/namespaces/default/flags', { key: 'probe', name: 'Probe', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ key: 'probe', name: 'Probe', enabled: true, namespaceKey: 'default', type: 'BOOLEAN_FLAG_TYPE' });
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const evaluate = () => api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'probe', entityId: 'u', context: {} });
    expect((await evaluate()).body).toMatchObject({ enabled: true });
    for (const enabled of [false, true, false, true]) {
      expect((await api.put('/api/v1/namespaces/default/flags/probe', { name: 'Probe', enabled })).status).toBe(200);
      expect((await evaluate()).body).toMatchObject({ enabled });
    }
    // Variant flags: a segment, a rule, a distribution, each read back by the next evaluation.
    expect((await api.post('/api/v1/namespaces/default/flags', { key: 'colour', name: 'Colour', enabled: true })).status).toBe(200);
    const blue = (await api.post('/api/v1/namespaces/default/flags/colour/variants', { key: 'blue' })).body as { id: string };
    expect((await api.post('/api/v1/namespaces/default/segments', { key: 'all', name: 'All', matchType: 'ALL_MATCH_TYPE' })).status).toBe(200);
    const rule = (await api.post('/api/v1/namespaces/default/flags/colour/rules', { segmentKey: 'all', rank: 1 })).body as { id: string };
    expect((await api.post(`/api/v1/namespaces/default/flags/colour/rules/${rule.id}/distributions`, { variantId: blue.id, rollout: 100 })).status).toBe(200);
    const variant = await api.post('/evaluate/v1/variant', { namespaceKey: 'default', flagKey: 'colour', entityId: 'u', context: {} });
    expect(variant.body).toMatchObject({ match: true, variantKey: 'blue', segmentKeys: ['all'] });
  });

  it('gives the standard error bodies: not found, invalid, unauthenticated', async () => {
    const missing = await api.put('/api/v1/namespaces/default/flags/nope', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 5, message: 'flag "default/nope" not found', details: [] });
    const invalid = await api.post('/api/v1/namespaces/default/flags', { key: 'bad key!', name: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 3 });
    const malformed = await api.post('/api/v1/namespaces/default/flags', '{"key":');
    expect(malformed.status).toBe(400);
    const anonymous = await client(fp.url).post('/api/v1/namespaces/default/flags', { key: 'anon', name: 'anon' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 16 });
    expect((await api.get('/api/v1/namespaces/default/flags/anon')).status).toBe(404);
  });

  it('stores the audit events of the writes it ran; /metrics counts each write once', async () => {
    // Stored in the background, in batches (audit.md): read until the five writes of 'probe' are there.
    type Listed = { events: Array<{ type: string; action: string; payload: { key?: string } }> };
    let flags: Listed['events'] = [];
    for (const until = Date.now() + 10_000; flags.length < 5 && Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const events = await api.get('/api/v1/audit/events?namespaceKey=default&limit=100');
      expect(events.status).toBe(200);
      flags = (events.body as Listed).events.filter((e) => e.type === 'flag' && e.payload?.key === 'probe');
    }
    expect(flags.map((e) => e.action).sort()).toEqual(['created', 'updated', 'updated', 'updated', 'updated']);
    // Counted by the main thread, which answered them; the worker counts nothing.
    const metrics = (await api.get('/metrics')).text;
    const puts = metrics.split('\n').filter((line) => line.startsWith('flagpole_http_requests_total{')
      && line.includes('method="PUT"') && line.includes('route="/api/v1/namespaces/:namespaceKey/flags/:key"') && line.includes('status="200"'));
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/ 4$/);
    // The worker stored them and reports so after each batch: the main thread's backlog gauge (which counts the
    // worker's) comes back to 0, and nothing was dropped.
    let backlog = '';
    for (const until = Date.now() + 5_000; backlog !== '0' && Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      backlog = /^flagpole_audit_store_backlog (\d+)$/m.exec((await api.get('/metrics')).text)?.[1] ?? 'missing';
    }
    expect(backlog).toBe('0');
    expect(metrics).not.toMatch(/^flagpole_audit_events_dropped_total\{/m);
  });

  it('starts the process duties on the main thread only: a write the worker ran is logged once, by the main thread', async () => {
    // The request log is a process duty (common/process-duty.ts): the server's assembly starts it, the worker's leaves
    // it out. Started in both, each write would be logged twice; in neither, never.
    expect((await api.post('/api/v1/namespaces/default/flags', { key: 'logged-once', name: 'Logged once', type: 'BOOLEAN_FLAG_TYPE' })).status).toBe(200);
    expect((await api.put('/api/v1/namespaces/default/flags/logged-once', { name: 'Logged once', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    const logged = () => fp.lines.filter((l) => l.M.startsWith('PUT /api/v1/namespaces/default/flags/logged-once 200 '));
    for (const until = Date.now() + 5_000; logged().length === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500)); // time for a second line, were there one
    expect(logged()).toHaveLength(1);
  });

  it('writes on both threads at once: the worker\'s flag writes and the main thread\'s token writes all succeed', async () => {
    // Two SQLite connections on one file (WAL): each waits for the other's write lock, none fails.
    const flags = Array.from({ length: 40 }, (_, i) => api.post('/api/v1/namespaces/default/flags', { key: `busy-${i}`, name: `busy ${i}`, enabled: true }));
    const tokens = Array.from({ length: 10 }, (_, i) => api.post('/auth/v1/method/token', { name: `busy-${i}`, description: '' }));
    const results = await Promise.all([...flags, ...tokens]);
    expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const listed = await api.get('/api/v1/namespaces/default/flags?limit=100');
    expect((listed.body as { flags: Array<{ key: string }> }).flags.filter((f) => f.key.startsWith('busy-'))).toHaveLength(40);
  });

  it('evaluations of another namespace are answered while a 3,000-flag import runs (timings printed beside the control)', async () => {
    const document = importDocument(IMPORTED_FLAGS);
    const imported = (server: FlagpoleProcess, auth: ReturnType<typeof client>) =>
      auth.post('/api/v1/namespaces/bulk/import', document, { 'content-type': 'application/yaml' }).then((res) => {
        expect(res.status).toBe(200);
        return res;
      });

    const withWorker = await evaluationsDuring(api, imported(fp, api));
    expect((await api.post('/evaluate/v1/variant', { namespaceKey: 'bulk', flagKey: `f${IMPORTED_FLAGS - 1}`, entityId: 'u', context: {} })).body).toMatchObject({ match: true });

    const control = startFlagpole(join(dir, 'off'), false);
    try {
      await control.ready();
      const controlApi = client(control.url, { authorization: `Bearer ${TOKEN}` });
      expect((await controlApi.post('/api/v1/namespaces/default/flags', { key: 'probe', name: 'Probe', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
      const without = await evaluationsDuring(controlApi, imported(control, controlApi));
      console.log(`evaluations during a ${IMPORTED_FLAGS}-flag import: longest ${Math.round(withWorker.longestMs)} ms of ${withWorker.count} with the write worker, ${Math.round(without.longestMs)} ms of ${without.count} without`);
      // Every evaluation beside the imports was answered 200 (evaluationsDuring checks each), and some while the import
      // with the worker was still running; how long they took is speed, printed above.
      expect(withWorker.beforeWork).toBeGreaterThan(0);
    } finally {
      control.kill();
    }
  });

  it('SIGTERM: the worker finishes and the process exits 0', async () => {
    fp.signal('SIGTERM');
    const { code } = await fp.exit;
    expect(code).toBe(0);
    expect(fp.raw.join('\n')).not.toMatch(/FATAL|napi/);
    // The process's exit can be reported before the last of its output has been read.
    for (const until = Date.now() + 2_000; !fp.lines.some((l) => /^stopped in /.test(l.M)) && Date.now() < until;) await new Promise((r) => setTimeout(r, 25));
    expect(fp.lines.some((l) => /^stopped in /.test(l.M))).toBe(true);
  });
});
