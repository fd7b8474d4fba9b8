/**
 * Flag lifecycle with analytics on (issue 40): the `unused` and `rolled_out` reasons, and what resets them. Flags are
 * made as if 31 days ago (support.ts madeAt) and evaluated now, by the real clock that analytics counts minutes by; the
 * checks run at the real time too. Transitions land in the stored audit trail, once each.
 */
import { ANALYTICS_ON, flush } from '../analytics/support';
import { eventually } from '../auth/support';
import { buildNamespace, boolean, variant } from '../evaluation/fixtures';
import { N, ok, type Api } from '../management/support';
import { TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { checkAt, DAY, iso, lifecycleOf, listed, madeAt, statesOf } from './support';

jest.setTimeout(120_000);

const KEYS = ['unused', 'used', 'rolled', 'edited', 'switch'];

describe(`flag lifecycle from evaluations (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole;
  let api: Api;
  const made = Date.now() - 31 * DAY;

  beforeAll(async () => {
    fp = await startFlagpole(ANALYTICS_ON);
    api = client(fp.url);
    ok(await api.post('/api/v1/namespaces', { key: 'markers', name: 'markers' }));
    await madeAt(made, () =>
      buildNamespace(api, {
        key: 'default',
        segments: [{ key: 'everyone' }],
        flags: [
          { key: 'unused', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
          // Half its users get a, half b: never rolled out.
          { key: 'used', enabled: true, variants: [{ key: 'a' }, { key: 'b' }], rules: [{ segments: ['everyone'], distributions: [['a', 50], ['b', 50]] }] },
          { key: 'rolled', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
          { key: 'edited', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
          { key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
        ],
      }),
    );
    // `switch` is a kill switch (permanent), and `unused` changed 11 days ago: too recently to be rolled out.
    await madeAt(made, () => api.put(`${N('default')}/flags/switch`, { name: 'switch', enabled: true, metadata: { flagpole: { kind: 'kill_switch' } } }));
    await madeAt(Date.now() - 11 * DAY, () => api.put(`${N('default')}/flags/unused`, { name: 'unused', enabled: true }));
  });

  afterAll(() => fp?.close());

  const evaluations = async (key: string, n: number, kind: 'boolean' | 'variant' = 'boolean') => {
    for (let i = 0; i < n; i++) ok(await (kind === 'boolean' ? boolean : variant)(api, { namespaceKey: 'default', flagKey: key, entityId: `user-${i}`, context: {} }));
  };

  let markers = 0;
  /**
   * The flag's stale and unstale events in the stored trail, oldest first, once every event recorded so far is stored:
   * a marker flag's creation is recorded after them and stored in order, so when it is there, they are too.
   */
  const trail = async (key: string) => {
    const marker = `marker-${++markers}`;
    ok(await api.post(`${N('markers')}/flags`, { key: marker, name: marker }));
    await eventually(async () => {
      const stored = ok(await api.get(`/api/v1/audit/events?namespaceKey=markers&flagKey=${marker}`)).events;
      expect(stored).toHaveLength(1);
    });
    return ok(await api.get(`/api/v1/audit/events?namespaceKey=default&flagKey=${key}&limit=100`)).events
      .filter((e: { action: string }) => e.action === 'stale' || e.action === 'unstale')
      .map((e: { action: string }) => e.action)
      .reverse();
  };

  it('finds flags never evaluated in the 30 days since they were made unused (permanent kinds never)', async () => {
    await checkAt(fp, Date.now());
    expect(await statesOf(api, 'default', KEYS)).toEqual({
      unused: 'potentially_stale unused', used: 'potentially_stale unused', rolled: 'potentially_stale unused', edited: 'potentially_stale unused', switch: 'new',
    });
    const l = await lifecycleOf(api, 'default', 'rolled');
    expect(l.reasons).toEqual([{ reason: 'unused', since: iso(Date.parse(l.createdAt) + 30 * DAY), detail: 'not evaluated in the 31 days since it was created' }]);
    expect(l.lastEvaluatedAt).toBeNull();
  });

  it('takes evaluations into account: used is live, one value for 14 days unchanged is rolled out, an edit resets it', async () => {
    await evaluations('used', 20, 'variant');
    await evaluations('rolled', 3);
    await evaluations('edited', 3);
    await evaluations('switch', 1);
    await flush(fp);
    ok(await api.put(`${N('default')}/flags/edited`, { name: 'edited again', enabled: true }));
    const at = Date.now();
    await checkAt(fp, at);
    expect(await statesOf(api, 'default', KEYS)).toEqual({
      unused: 'potentially_stale unused', used: 'live', rolled: 'potentially_stale rolled_out', edited: 'live', switch: 'live',
    });
    const rolled = await lifecycleOf(api, 'default', 'rolled');
    const minute = Math.floor(at / 60_000) * 60_000;
    expect(Date.parse(rolled.lastEvaluatedAt!)).toBeGreaterThanOrEqual(minute - 60_000);
    expect(rolled.reasons).toEqual([{
      reason: 'rolled_out',
      since: iso(at),
      detail: `all 3 evaluation(s) in the last 14 days returned "true", and the flag has not changed since ${rolled.createdAt}`,
    }]);
    // Still stale, for another reason: no new event for it.
    expect(await trail('rolled')).toEqual(['stale']);
    expect(await trail('used')).toEqual(['stale', 'unstale']);
    expect(await trail('edited')).toEqual(['stale', 'unstale']);
    expect(await listed(api, 'default', true)).toEqual(['rolled', 'unused']);
  });

  it('resets unused with one evaluation', async () => {
    await evaluations('unused', 1);
    await flush(fp);
    await checkAt(fp, Date.now());
    expect(await statesOf(api, 'default', ['unused'])).toEqual({ unused: 'live' });
    expect(await trail('unused')).toEqual(['stale', 'unstale']);
    // A second check changes nothing and records nothing.
    await checkAt(fp, Date.now());
    expect(await trail('unused')).toEqual(['stale', 'unstale']);
    expect(await trail('rolled')).toEqual(['stale']);
  });

  it('remembers the latest evaluation past what analytics keeps', async () => {
    // Counts gone (as the retention would delete them): the check's own record still says when it was last seen.
    await fp.app.get((await import('../../src/analytics/analytics.repository')).AnalyticsRepository).prune(Math.floor(Date.now() / 60_000) + 10);
    await checkAt(fp, Date.now() + DAY);
    const l = await lifecycleOf(api, 'default', 'used');
    expect(l.state).toBe('live');
    expect(l.lastEvaluatedAt).not.toBeNull();
  });
});
