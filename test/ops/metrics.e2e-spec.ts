/** `GET /metrics`: Prometheus text with HTTP, evaluation, cache, database pool and process metrics. */
import { MetricsRegistry } from '../../src/metrics/metrics.registry';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { metricFamily } from '../support/metric-family';

/** The value of one sample line, e.g. `name{a="1",b="2"}`; undefined when absent. Labels are matched in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const brace = line.indexOf('{');
    const set = brace === -1 ? '' : line.slice(brace + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics', () => {
  let fp: RunningFlagpole;
  let text: string;

  beforeAll(async () => {
    fp = await startFlagpole();
    const api = client(fp.url);
    await api.post('/api/v1/namespaces/default/flags', { key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    await api.post('/api/v1/namespaces/default/flags', { key: 'color', name: 'Color', type: 'VARIANT_FLAG_TYPE', enabled: true });
    await api.post('/api/v1/namespaces/default/flags/color/variants', { key: 'blue' });
    for (let i = 0; i < 3; i++) await api.post('/evaluate/v1/boolean', { flagKey: 'checkout', entityId: `u${i}`, context: {} });
    await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: {} });
    await api.post('/evaluate/v1/variant', { flagKey: 'nope', entityId: 'u1', context: {} });
    await api.post('/evaluate/v1/batch', {
      requests: [
        { flagKey: 'checkout', entityId: 'u9', context: {} },
        { flagKey: 'missing', entityId: 'u9', context: {} },
      ],
    });
    await api.get('/api/v1/namespaces/default/flags/checkout');
    await api.get('/api/v1/namespaces/default/flags/color');
    await api.get('/no/such/route');
    const r = await api.get('/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    text = r.text;
  });
  afterAll(() => fp?.close());

  it('counts evaluations by namespace and flag, results by reason and match, errors', () => {
    // 3 single + 1 batch item.
    expect(sample(text, 'flagpole_evaluations_requests_total', { namespace: 'default', flag: 'checkout' })).toBe(4);
    expect(
      sample(text, 'flagpole_evaluations_results_total', {
        namespace: 'default', flag: 'checkout', type: 'boolean', reason: 'DEFAULT_EVALUATION_REASON', match: 'false', value: 'true',
      }),
    ).toBe(4);
    expect(
      sample(text, 'flagpole_evaluations_results_total', {
        namespace: 'default', flag: 'color', type: 'variant', reason: 'UNKNOWN_EVALUATION_REASON', match: 'false',
      }),
    ).toBe(1);
    // Flags that do not exist are not labels of their own (test/security/evaluation-limits.e2e-spec.ts).
    expect(sample(text, 'flagpole_evaluations_errors_total', { namespace: 'default', flag: '_unknown' })).toBe(2);
    // Latency of single evaluations only (batch items are not timed alone): 3 boolean + 1 variant.
    expect(sample(text, 'flagpole_evaluations_latency_milliseconds_count', { namespace: 'default' })).toBe(4);
  });

  it('counts HTTP requests by route pattern and status, with a latency histogram', () => {
    expect(sample(text, 'flagpole_http_requests_total', { method: 'POST', route: '/evaluate/v1/boolean', status: '200' })).toBe(3);
    const flagRoute = text.match(/flagpole_http_requests_total\{method="GET",route="(\/api\/v1\/namespaces\/[^"]*)",status="200"\} (\d+)/);
    expect(flagRoute?.[1]).toMatch(/^\/api\/v1\/namespaces\/:\w+\/flags\/:\w+$/);
    expect(Number(flagRoute?.[2])).toBe(2); // both flags, one series
    expect(text).not.toContain('/flags/checkout"');
    expect(sample(text, 'flagpole_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'flagpole_http_request_duration_seconds_bucket', { route: '/evaluate/v1/boolean', le: '+Inf' })).toBe(3);
  });

  it('shows the database pool, the cache counters and the process', () => {
    expect(sample(text, 'flagpole_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
    expect(sample(text, 'flagpole_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'flagpole_db_pool_pending_acquires')).toBe(0);
    expect(text).toContain('# TYPE flagpole_cache_hit_total counter');
    expect(text).toContain('# TYPE flagpole_cache_miss_total counter');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('prints the evaluation metrics exactly as prom-client renders them', async () => {
    // The served text (rendered in slices, metrics/metrics-text.ts) against prom-client's own rendering of the same
    // registry (test/ops/metrics-scrape checks the format of a large scrape from a server in a process of its own).
    const served = (await client(fp.url).get('/metrics')).text;
    const reference = await fp.app.get(MetricsRegistry).registry.metrics();
    for (const name of ['flagpole_evaluations_requests_total', 'flagpole_evaluations_results_total', 'flagpole_evaluations_errors_total', 'flagpole_evaluations_latency_milliseconds']) {
      expect(metricFamily(served, name)).toBeDefined();
      expect(metricFamily(served, name)).toBe(metricFamily(reference, name));
    }
  });

  it('is not behind authentication', async () => {
    const secured = await startFlagpole({ FLAGPOLE_AUTHENTICATION_REQUIRED: 'true', FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true' });
    try {
      expect((await client(secured.url).get('/metrics')).status).toBe(200);
    } finally {
      await secured.close();
    }
  });

  it('is not served with metrics.enabled false, and evaluations still work', async () => {
    const off = await startFlagpole({ FLAGPOLE_METRICS_ENABLED: 'false' });
    try {
      const api = client(off.url);
      expect(await api.get('/metrics')).toMatchObject({ status: 404, body: { code: 5, message: 'Not Found' } });
      await api.post('/api/v1/namespaces/default/flags', { key: 'f', name: 'F', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
      expect((await api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'u', context: {} })).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
