/**
 * `cache.enabled` with the in-process store: evaluations stay exact across writes (entries are keyed by namespace
 * version; writes reach the loaded snapshot as deltas, without reading the namespace again), and the cache's hits
 * and misses show in /metrics under Flipt's names.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';

describe('cache.backend memory', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'memory', FLAGPOLE_CACHE_TTL: '30s' });
    api = client(fp.url);
  });
  afterAll(() => fp.close());

  const evaluate = async () => (await api.post('/evaluate/v1/boolean', { flagKey: 'cached', entityId: 'e', context: {} })).body.enabled;
  const counter = async (name: string) => {
    const text = (await api.get('/metrics')).text;
    return Number(new RegExp(`^${name}\\{cache="memory"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };

  it('every write is seen by the next evaluation; the state is read through the cache', async () => {
    expect((await api.post('/api/v1/namespaces/default/flags', { key: 'cached', name: 'C', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    expect(await evaluate()).toBe(true);
    for (const enabled of [false, true, false]) {
      expect((await api.put('/api/v1/namespaces/default/flags/cached', { key: 'cached', name: 'C', enabled })).status).toBe(200);
      expect(await evaluate()).toBe(enabled);
    }
    // The first load went through the cache; the writes did not need one.
    expect(await counter('flagpole_cache_miss_total')).toBe(1);
  });
});
