/**
 * Two instances on one database, each with its periodic lifecycle check every second (issue 40): a round is run by
 * one instance at a time (operation lock `check_flag_lifecycle`), so a flag that becomes potentially stale is
 * recorded once, whichever instance saw it, and both instances' gauges say the same. Real time here, no injected
 * clock: operational flags live one second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../auth/support';
import { createFlag, N, ok } from '../management/support';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { metricFamily } from '../support/metric-family';

jest.setTimeout(120_000);

describe(`the periodic check on two instances (${TEST_DIALECT})`, () => {
  let dir: string;
  let dbUrl: string;
  let a: RunningFlagpole;
  let b: RunningFlagpole;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-lifecycle-two-'));
    dbUrl = await freshDatabaseUrl(dir);
    const env = {
      FLAGPOLE_DB_URL: dbUrl,
      FLAGPOLE_METRICS_ENABLED: 'true',
      FLAGPOLE_LIFECYCLE_CHECK_INTERVAL: '1s',
      FLAGPOLE_LIFECYCLE_LIFETIMES_OPERATIONAL: '1s',
    };
    a = await startFlagpole({ ...env, FLAGPOLE_DATA_DIR: join(dir, 'a') });
    b = await startFlagpole({ ...env, FLAGPOLE_DATA_DIR: join(dir, 'b') });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropDatabase(dbUrl).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records each flag becoming stale once, and both instances report it', async () => {
    const api = client(a.url);
    for (const key of ['op-1', 'op-2', 'op-3']) await createFlag(api, 'default', key, { metadata: { flagpole: { kind: 'operational' } } });
    await createFlag(api, 'default', 'kept', { metadata: { flagpole: { kind: 'kill_switch' } } });
    await eventually(async () => {
      const health = ok(await client(b.url).get(`${N('default')}/flag-health`));
      expect(health.counts).toEqual({ new: 0, live: 1, potentiallyStale: 3, archived: 0 });
    }, 20_000, 200);
    // A few more rounds, by either instance: nothing new to record.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await eventually(async () => {
      const events = ok(await api.get('/api/v1/audit/events?namespaceKey=default&action=stale&limit=100')).events;
      expect(events.map((e: { payload: { key: string } }) => e.payload.key).sort()).toEqual(['op-1', 'op-2', 'op-3']);
    });
    for (const fp of [a, b]) {
      const family = metricFamily((await client(fp.url).get('/metrics')).text, 'flagpole_flags_potentially_stale')!;
      expect(family).toContain('flagpole_flags_potentially_stale{namespace="default"} 3');
    }
  });
});
