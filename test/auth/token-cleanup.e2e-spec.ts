/**
 * The cleanup task: expired authentications go once their grace period is over, the others stay, each round's count
 * is logged, and the operation lock lets exactly one caller in however many try at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperationLocks } from '../../src/auth/operation-lock.service';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, bearer, BOOTSTRAP, createToken, eventually, logLines, sleep, TOKEN_REQUIRED } from './support';

describe('token cleanup', () => {
  const logFile = join(mkdtempSync(join(tmpdir(), 'flagpole-cleanup-')), 'flagpole.log');
  let fp: RunningFlagpole;
  let api: Api;
  const admin = bearer(BOOTSTRAP);
  const status = async (id: string) => (await api.get(`/auth/v1/tokens/${id}`, undefined, admin)).status;

  beforeAll(async () => {
    fp = await startFlagpole({
      ...TOKEN_REQUIRED,
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_CLEANUP_INTERVAL: '500ms',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_CLEANUP_GRACE_PERIOD: '2s',
      FLAGPOLE_LOG_LEVEL: 'INFO',
      FLAGPOLE_LOG_ENCODING: 'json',
      FLAGPOLE_LOG_FILE: logFile,
    });
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('deletes expired tokens after the grace period, keeps the others, and logs the count', async () => {
    const old = await createToken(api, { name: 'old', expiresAt: new Date(Date.now() - 3_600_000).toISOString() });
    const soon = await createToken(api, { name: 'soon', expiresAt: new Date(Date.now() + 500).toISOString() });
    const never = await createToken(api, { name: 'never' });
    const later = await createToken(api, { name: 'later', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });

    await eventually(async () => expect(await status(old.authentication.id)).toBe(404), 5_000);
    // Expired, but still within its grace period.
    await sleep(700);
    expect(await status(soon.authentication.id)).toBe(200);
    await eventually(async () => expect(await status(soon.authentication.id)).toBe(404), 6_000);
    expect(await status(never.authentication.id)).toBe(200);
    expect(await status(later.authentication.id)).toBe(200);

    const counts = logLines(logFile)
      .map((l) => JSON.parse(l) as { M?: string })
      .map((l) => /^cleanup of expired METHOD_TOKEN authentications: (\d+) deleted$/.exec(l.M ?? '')?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    // Rounds that delete nothing say nothing; those that deleted say how many, two in all.
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('lets exactly one of many concurrent callers take an operation lock, and nobody until it runs out', async () => {
    const locks = fp.app.get(OperationLocks);
    // Held for a minute while it is tried: on a busy machine eight tries can take longer than a short period, and a
    // late try would then rightly take the lock over.
    const results = await Promise.all(Array.from({ length: 8 }, () => locks.tryAcquire('test_once', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await locks.tryAcquire('test_once', 60_000)).toBe(false);
    // A short period runs out whatever the machine's speed; then exactly one of many takes it over.
    expect(await locks.tryAcquire('test_expiring', 100)).toBe(true);
    await sleep(150);
    const again = await Promise.all(Array.from({ length: 8 }, () => locks.tryAcquire('test_expiring', 60_000)));
    expect(again.filter(Boolean)).toHaveLength(1);
  });
});

// Two instances on one database (not SQLite, which serves one instance only): their cleanup and locks do no harm.
(TEST_DIALECT === 'sqlite' ? describe.skip : describe)('two instances', () => {
  it('share the operation lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-cleanup2-'));
    const dbUrl = await freshDatabaseUrl(dir);
    const env = { ...TOKEN_REQUIRED, FLAGPOLE_DB_URL: dbUrl, FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_CLEANUP_INTERVAL: '500ms' };
    const a = await startFlagpole(env);
    const b = await startFlagpole(env);
    try {
      const [la, lb] = [a.app.get(OperationLocks), b.app.get(OperationLocks)];
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? la : lb).tryAcquire('test_shared', 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const api = client(a.url);
      const expired = await createToken(api, { expiresAt: '2000-01-01T00:00:00Z' });
      await eventually(async () => expect((await api.get(`/auth/v1/tokens/${expired.authentication.id}`, undefined, bearer(BOOTSTRAP))).status).toBe(404));
    } finally {
      await a.close();
      await b.close();
      await dropDatabase(dbUrl);
    }
  });
});
