/**
 * The bootstrap token is made at most once per database: deleting it and restarting does not bring it back (nor log
 * it again), deleting the marker row is the documented way to bootstrap again, and a short configured value gets a
 * start-up warning that never shows the value.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { bearer, createToken, expectUnauthenticated, logLines, TOKEN_REQUIRED } from './support';

const NAME = 'io.flagpole.auth.token.name';
const CONFIGURED = 'configured-bootstrap-0123456789';

interface Setup {
  logFile: string;
  env: Record<string, string>;
}

async function setup(extra: Record<string, string> = {}): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-bootstrap-'));
  const logFile = join(dir, 'flagpole.log');
  const env = {
    ...TOKEN_REQUIRED,
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: CONFIGURED,
    FLAGPOLE_LOG_LEVEL: 'INFO',
    FLAGPOLE_LOG_ENCODING: 'json',
    FLAGPOLE_LOG_FILE: logFile,
    FLAGPOLE_DB_URL: await freshDatabaseUrl(dir),
    ...extra,
  };
  return { logFile, env };
}

const created = (logFile: string) => logLines(logFile).filter((l) => JSON.parse(l).M === 'access token created');

async function withFlagpole<T>(env: Record<string, string>, work: (fp: RunningFlagpole) => Promise<T>): Promise<T> {
  const fp = await startFlagpole(env);
  try {
    return await work(fp);
  } finally {
    await fp.close();
  }
}

async function bootstrapTokens(fp: RunningFlagpole, admin: string) {
  const r = await client(fp.url).get('/auth/v1/tokens?method=METHOD_TOKEN&limit=100', undefined, bearer(admin));
  expect(r.status).toBe(200);
  return (r.body.authentications as Array<{ id: string; metadata: Record<string, string> }>).filter(
    (a) => a.metadata[NAME] === 'initial_bootstrap_token',
  );
}

/** As if the restart came minutes later: every operation lock held at start-up has run out. */
async function letLocksRunOut(fp: RunningFlagpole): Promise<void> {
  await fp.app.get(MikroORM).em.getConnection().execute('update operation_lock set acquired_until = last_acquired_at');
}

/** What an operator runs in the database to bootstrap again (docs/authentication.md). */
async function deleteBootstrapMarker(fp: RunningFlagpole): Promise<void> {
  await fp.app.get(MikroORM).em.getConnection().execute(`delete from operation_lock where operation = 'bootstrap_auth_METHOD_TOKEN'`);
}

describe('bootstrap token, once per database', () => {
  it('does not come back, nor get logged again, after an operator deleted it', async () => {
    const { logFile, env } = await setup();
    try {
      const admin = await withFlagpole(env, async (fp) => {
        const api = client(fp.url);
        expect((await api.get('/auth/v1/self', undefined, bearer(CONFIGURED))).status).toBe(200);
        const real = await createToken(api, { name: 'admin' }, bearer(CONFIGURED));
        const [bootstrap] = await bootstrapTokens(fp, real.clientToken);
        expect((await api.delete(`/auth/v1/tokens/${bootstrap.id}`, undefined, bearer(real.clientToken))).status).toBe(200);
        expectUnauthenticated(await api.get('/auth/v1/self', undefined, bearer(CONFIGURED)));
        await letLocksRunOut(fp);
        return real.clientToken;
      });
      expect(created(logFile)).toHaveLength(1);

      for (let restart = 0; restart < 2; restart++) {
        await withFlagpole(env, async (fp) => {
          expectUnauthenticated(await client(fp.url).get('/auth/v1/self', undefined, bearer(CONFIGURED)));
          expect(await bootstrapTokens(fp, admin)).toEqual([]);
          await letLocksRunOut(fp);
        });
      }
      expect(created(logFile)).toHaveLength(1);
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });

  it('does not come back when the only static token was the deleted random one', async () => {
    const { logFile, env } = await setup({ FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: '' });
    try {
      await withFlagpole(env, async (fp) => {
        const token = JSON.parse(created(logFile)[0]).client_token as string;
        const api = client(fp.url);
        const self = await api.get('/auth/v1/self', undefined, bearer(token));
        expect(self.status).toBe(200);
        // Deletes itself: the database now holds no static token at all.
        expect((await api.delete(`/auth/v1/tokens/${self.body.id}`, undefined, bearer(token))).status).toBe(200);
        await letLocksRunOut(fp);
      });
      await withFlagpole(env, async () => undefined);
      expect(created(logFile)).toHaveLength(1);
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });

  it('is made again, and logged, after the marker row is deleted (the recovery procedure)', async () => {
    const { logFile, env } = await setup({ FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: '' });
    try {
      await withFlagpole(env, async (fp) => {
        const token = JSON.parse(created(logFile)[0]).client_token as string;
        const self = await client(fp.url).get('/auth/v1/self', undefined, bearer(token));
        await client(fp.url).delete(`/auth/v1/tokens/${self.body.id}`, undefined, bearer(token));
        await deleteBootstrapMarker(fp);
      });
      await withFlagpole(env, async (fp) => {
        const lines = created(logFile);
        expect(lines).toHaveLength(2);
        const again = JSON.parse(lines[1]).client_token as string;
        const self = await client(fp.url).get('/auth/v1/self', undefined, bearer(again));
        expect({ status: self.status, name: self.body.metadata?.[NAME] }).toEqual({ status: 200, name: 'initial_bootstrap_token' });
      });
      await withFlagpole(env, async () => undefined);
      expect(created(logFile)).toHaveLength(2);
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });

  it('replaces a configured bootstrap token still stored when the marker row is deleted', async () => {
    const { logFile, env } = await setup();
    try {
      await withFlagpole(env, deleteBootstrapMarker);
      await withFlagpole(env, async (fp) => {
        expect(created(logFile)).toHaveLength(2);
        expect((await client(fp.url).get('/auth/v1/self', undefined, bearer(CONFIGURED))).status).toBe(200);
        expect(await bootstrapTokens(fp, CONFIGURED)).toHaveLength(1);
      });
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });

  // SQLite serves one instance only.
  (TEST_DIALECT === 'sqlite' ? it.skip : it)('is made by exactly one of two instances starting together', async () => {
    const { logFile, env } = await setup({ FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: '' });
    const started = await Promise.allSettled([startFlagpole(env), startFlagpole(env)]);
    try {
      for (const s of started) expect(s.status).toBe('fulfilled');
      expect(created(logFile)).toHaveLength(1);
      const token = JSON.parse(created(logFile)[0]).client_token as string;
      const [a] = started.filter((s): s is PromiseFulfilledResult<RunningFlagpole> => s.status === 'fulfilled').map((s) => s.value);
      expect(await bootstrapTokens(a, token)).toHaveLength(1);
    } finally {
      for (const s of started) if (s.status === 'fulfilled') await s.value.close();
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });
});

describe('short bootstrap token', () => {
  const warnings = (logFile: string) =>
    logLines(logFile).map((l) => JSON.parse(l) as { L: string; M: string }).filter((l) => l.L === 'WARN' && l.M.includes('bootstrap.token'));

  it('gets one start-up warning that does not show the value', async () => {
    const short = 'Tiny-Secret-15c';
    expect(short).toHaveLength(15);
    const { logFile, env } = await setup({ FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: short });
    try {
      await withFlagpole(env, async (fp) => {
        expect((await client(fp.url).get('/auth/v1/self', undefined, bearer(short))).status).toBe(200);
      });
      const [warning, ...more] = warnings(logFile);
      expect(more).toEqual([]);
      expect(warning.M).toMatch(/shorter than 16 characters/);
      expect(JSON.stringify(warning)).not.toContain(short);
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });

  it('is not warned about at 16 characters or more', async () => {
    const { logFile, env } = await setup({ FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: 'Sixteen-Chars-16' });
    try {
      await withFlagpole(env, async () => undefined);
      expect(warnings(logFile)).toEqual([]);
    } finally {
      await dropDatabase(env.FLAGPOLE_DB_URL);
    }
  });
});
