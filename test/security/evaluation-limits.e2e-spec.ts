/**
 * Issue 15, items 1 and 4: what evaluation requests may ask for. Keys longer than storage holds are refused at parse
 * time, batches are capped in items and distinct namespaces, request-supplied keys that name nothing never become
 * metric labels and the evaluation metrics hold a bounded number of series, and unknown namespaces are remembered
 * briefly — yet a namespace created on this instance evaluates at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, freshDatabaseUrl } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { type Api, buildNamespace } from '../evaluation/fixtures';

const INVALID = 3;
/** Long enough that creating a namespace and asking again fit in it on a busy machine. */
const TTL_B = 4000;
const long = (n: number, c = 'k') => c.repeat(n);

function expectInvalid(res: { status: number; body: any }, ...fragments: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: INVALID, message: expect.any(String), details: [] });
  for (const f of fragments) expect(res.body.message).toContain(f);
}

describe('evaluation input limits', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_MAX_BATCH_REQUESTS: '5', FLAGPOLE_LIMITS_MAX_BATCH_NAMESPACES: '3' });
    api = client(fp.url);
    await buildNamespace(api, { key: 'default', flags: [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
  });
  afterAll(() => fp?.close());

  it('refuses a batch with more items than limits.max_batch_requests, naming the limit and its value', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ flagKey: 'on', entityId: `e${i}` }));
    expectInvalid(await api.post('/evaluate/v1/batch', { requests: items }), 'max_batch_requests', '5');
    expectInvalid(await api.post('/api/v1/batch-evaluate', { requests: items }), 'max_batch_requests', '5');
    // At the cap it is served.
    const res = await api.post('/evaluate/v1/batch', { requests: items.slice(0, 5) });
    expect(res.status).toBe(200);
    expect(res.body.responses).toHaveLength(5);
  });

  it('refuses a batch over more distinct namespaces than limits.max_batch_namespaces', async () => {
    const items = ['default', 'a', 'b', 'c'].map((namespaceKey) => ({ namespaceKey, flagKey: 'on', entityId: 'e' }));
    expectInvalid(await api.post('/evaluate/v1/batch', { requests: items }), 'max_batch_namespaces', '3');
    // An omitted namespace is `default`: still four namespaces.
    const implicit = [{ flagKey: 'on', entityId: 'e' }, ...items.slice(1)];
    expectInvalid(await api.post('/evaluate/v1/batch', { requests: implicit }), 'max_batch_namespaces', '3');
    const res = await api.post('/evaluate/v1/batch', { requests: items.slice(0, 3) });
    expect(res.status).toBe(200);
    expect(res.body.responses.map((r: any) => r.type)).toEqual([
      'BOOLEAN_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE', 'ERROR_EVALUATION_RESPONSE_TYPE',
    ]);
  });

  it('refuses keys longer than storage holds (255) with a 400 naming the field, on every evaluation route', async () => {
    const key = long(256);
    for (const path of ['/evaluate/v1/variant', '/evaluate/v1/boolean', '/api/v1/evaluate']) {
      expectInvalid(await api.post(path, { flagKey: key, entityId: 'e' }), 'flagKey', '255');
      expectInvalid(await api.post(path, { namespaceKey: key, flagKey: 'on', entityId: 'e' }), 'namespaceKey', '255');
    }
    expectInvalid(await api.post('/evaluate/v1/batch', { requests: [{ flagKey: key, entityId: 'e' }] }), 'flagKey', '255');
    expectInvalid(await api.post('/evaluate/v1/batch', { requests: [{ namespaceKey: key, flagKey: 'on', entityId: 'e' }] }), 'namespaceKey', '255');
    expectInvalid(await api.post('/api/v1/batch-evaluate', { requests: [{ flagKey: key, entityId: 'e' }] }), 'flagKey', '255');
    expectInvalid(await api.post('/api/v1/batch-evaluate', { namespaceKey: key, requests: [{ flagKey: 'on', entityId: 'e' }] }), 'namespaceKey', '255');
    expectInvalid(await api.post(`/api/v1/namespaces/${key}/evaluate`, { flagKey: 'on', entityId: 'e' }), 'namespaceKey', '255');
    expectInvalid(await api.post(`/api/v1/namespaces/${key}/batch-evaluate`, { requests: [{ flagKey: 'on', entityId: 'e' }] }), 'namespaceKey', '255');
    // Characters, not UTF-16 units: 255 astral characters are 510 units and still fit.
    expect((await api.post('/evaluate/v1/boolean', { flagKey: long(255, '😀'), entityId: 'e' })).status).toBe(404);
    expect((await api.post('/evaluate/v1/boolean', { flagKey: long(255), entityId: 'e' })).status).toBe(404);
    expect((await api.post('/evaluate/v1/boolean', { flagKey: 'on', entityId: 'e' })).status).toBe(200);
  });

  it('refuses keys no database can store (NUL) with the same 400 on every dialect', async () => {
    for (const path of ['/evaluate/v1/variant', '/evaluate/v1/boolean', '/api/v1/evaluate']) {
      expectInvalid(await api.post(path, '{"flagKey":"o\\u0000n","entityId":"e"}'), 'flagKey', 'NUL');
      expectInvalid(await api.post(path, '{"namespaceKey":"d\\u0000","flagKey":"on","entityId":"e"}'), 'namespaceKey', 'NUL');
    }
    expectInvalid(await api.post('/evaluate/v1/batch', '{"requests":[{"namespaceKey":"\\u0000","flagKey":"on","entityId":"e"}]}'), 'namespaceKey', 'NUL');
  });

  it('a namespace key no namespace can have is not found without a query, on every dialect (MySQL pads spaces)', async () => {
    for (const namespaceKey of ['default   ', 'default\t', 'de fault']) {
      expect(await api.post('/evaluate/v1/boolean', { namespaceKey, flagKey: 'on', entityId: 'e' })).toMatchObject({ status: 404 });
    }
    expect(await api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'on', entityId: 'e' })).toMatchObject({ status: 200 });
  });
});

describe('evaluation metrics stay bounded', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let text: string;
  const unknownFlags = Array.from({ length: 40 }, (_, i) => `secret-flag-${i}-${long(200, 'x')}`);
  const unknownNamespaces = Array.from({ length: 8 }, (_, i) => `secret-ns-${i}`);

  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_MAX_METRIC_SERIES: '4', FLAGPOLE_LIMITS_MAX_BATCH_NAMESPACES: '10' });
    api = client(fp.url);
    await buildNamespace(api, {
      key: 'default',
      flags: Array.from({ length: 6 }, (_, i) => ({ key: `known-${i}`, type: 'BOOLEAN_FLAG_TYPE' as const, enabled: true })),
    });
    // Unknown flags in a namespace that exists, and anything in namespaces that do not.
    for (const flagKey of unknownFlags.slice(0, 10)) expect((await api.post('/evaluate/v1/variant', { flagKey, entityId: 'e' })).status).toBe(404);
    for (const flagKey of unknownFlags.slice(10, 20)) expect((await api.post('/evaluate/v1/boolean', { flagKey, entityId: 'e' })).status).toBe(404);
    for (const namespaceKey of unknownNamespaces) {
      expect((await api.post('/evaluate/v1/variant', { namespaceKey, flagKey: unknownFlags[0], entityId: 'e' })).status).toBe(404);
    }
    const batch = await api.post('/evaluate/v1/batch', {
      requests: unknownFlags.slice(20).map((flagKey, i) => ({ namespaceKey: i % 2 ? unknownNamespaces[i % 8] : 'default', flagKey, entityId: 'e' })),
    });
    expect(batch.status).toBe(200);
    expect((await api.post('/api/v1/evaluate', { namespaceKey: 'secret-ns-legacy', flagKey: unknownFlags[1], entityId: 'e' })).status).toBe(404);
    // More existing flags than the metrics may hold.
    for (let i = 0; i < 6; i++) expect((await api.post('/evaluate/v1/boolean', { flagKey: `known-${i}`, entityId: 'e' })).status).toBe(200);
    const res = await api.get('/metrics');
    expect(res.status).toBe(200);
    text = res.text;
  });
  afterAll(() => fp?.close());

  /** The distinct label sets of one metric (histogram buckets counted once per series). */
  function series(name: string): string[] {
    const sets = new Set<string>();
    for (const line of text.split('\n')) {
      const m = /^(\w+)\{([^}]*)\} /.exec(line);
      if (!m) continue;
      const [, metric, labels] = m;
      if (metric === name || metric === `${name}_count`) sets.add(labels.replace(/,?le="[^"]*"/, ''));
    }
    return [...sets];
  }

  it('never prints a request-supplied key that names nothing', () => {
    expect(text).not.toContain('secret-');
  });

  it('counts unknown namespaces and unknown flags under `_unknown`', () => {
    const errors = series('flagpole_evaluations_errors_total');
    expect(errors).toEqual(expect.arrayContaining(['namespace="default",flag="_unknown"', 'namespace="_unknown",flag="_unknown"']));
    const value = (labels: string) => Number(new RegExp(`^flagpole_evaluations_errors_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1]);
    // 10 variant + 10 boolean + 10 batch items in default; 8 single + 10 batch items + 1 legacy in unknown namespaces.
    expect(value('namespace="default",flag="_unknown"')).toBe(30);
    expect(value('namespace="_unknown",flag="_unknown"')).toBe(19);
  });

  it('holds at most limits.max_metric_series series per evaluation metric, the rest under `_other`', () => {
    for (const name of [
      'flagpole_evaluations_requests_total', 'flagpole_evaluations_errors_total', 'flagpole_evaluations_results_total',
      'flagpole_evaluations_latency_milliseconds',
    ]) {
      expect(series(name).length).toBeGreaterThan(0);
      expect(series(name).length).toBeLessThanOrEqual(4);
    }
    expect(series('flagpole_evaluations_results_total')).toContainEqual(expect.stringContaining('flag="_other"'));
    expect(series('flagpole_evaluations_results_total')).toContainEqual(expect.stringContaining('flag="known-0"'));
  });
});

describe('unknown namespaces are remembered briefly', () => {
  let dir: string;
  let dbUrl: string;
  let a: RunningFlagpole;
  let b: RunningFlagpole;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-limits-'));
    dbUrl = await freshDatabaseUrl(dir);
    // Two instances on one database without a shared bus, as two replicas without Redis.
    a = await startFlagpole({ FLAGPOLE_DB_URL: dbUrl, FLAGPOLE_LIMITS_UNKNOWN_NAMESPACE_TTL: '1h' });
    b = await startFlagpole({ FLAGPOLE_DB_URL: dbUrl, FLAGPOLE_LIMITS_UNKNOWN_NAMESPACE_TTL: `${TTL_B}ms` });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await dropDatabase(dbUrl);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a namespace created on this instance evaluates at once, on every evaluation route', async () => {
    const api = client(a.url);
    const routes: Array<[string, (ns: string) => [string, unknown]]> = [
      ['variant', (ns) => ['/evaluate/v1/variant', { namespaceKey: ns, flagKey: 'v', entityId: 'e' }]],
      ['boolean', (ns) => ['/evaluate/v1/boolean', { namespaceKey: ns, flagKey: 'b', entityId: 'e' }]],
      ['batch', (ns) => ['/evaluate/v1/batch', { requests: [{ namespaceKey: ns, flagKey: 'b', entityId: 'e' }] }]],
      ['legacy', (ns) => [`/api/v1/namespaces/${ns}/evaluate`, { flagKey: 'v', entityId: 'e' }]],
      ['legacy-body', (ns) => ['/api/v1/evaluate', { namespaceKey: ns, flagKey: 'v', entityId: 'e' }]],
      ['legacy-batch', (ns) => [`/api/v1/namespaces/${ns}/batch-evaluate`, { requests: [{ flagKey: 'v', entityId: 'e' }] }]],
    ];
    for (const [name, request] of routes) {
      const ns = `late-${name}`;
      const before = await api.post(...request(ns));
      if (name === 'batch') expect(before.body.responses[0].type).toBe('ERROR_EVALUATION_RESPONSE_TYPE');
      else expect(before.status).toBe(404);
      // Asked twice: the second answer comes from what was remembered.
      expect((await api.post(...request(ns))).status).toBe(before.status);
      await buildNamespace(api, {
        key: ns,
        segments: [{ key: 'all' }],
        flags: [
          { key: 'v', variants: [{ key: 'on' }], rules: [{ segments: ['all'], distributions: [['on', 100]] }] },
          { key: 'b', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
        ],
      });
      const after = await api.post(...request(ns));
      expect({ name, status: after.status }).toEqual({ name, status: 200 });
      if (name === 'batch') expect(after.body.responses[0].booleanResponse.enabled).toBe(true);
      else if (name === 'boolean') expect(after.body.enabled).toBe(true);
      else if (name === 'variant') expect(after.body.variantKey).toBe('on');
      else if (name === 'legacy-batch') expect(after.body.responses[0].value).toBe('on');
      else expect(after.body.value).toBe('on');
    }
  });

  it('another instance without a shared bus remembers it as unknown for limits.unknown_namespace_ttl, then sees it', async () => {
    const ask = () => client(b.url).post('/evaluate/v1/boolean', { namespaceKey: 'elsewhere', flagKey: 'b', entityId: 'e' });
    expect((await ask()).status).toBe(404);
    const rememberedAt = Date.now();
    await buildNamespace(client(a.url), { key: 'elsewhere', flags: [{ key: 'b', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
    // Remembered: no query, so the write made elsewhere is not seen yet.
    expect((await ask()).status).toBe(404);
    await new Promise((r) => setTimeout(r, rememberedAt + TTL_B + 100 - Date.now()));
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(true);
  });
});
