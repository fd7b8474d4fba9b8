/** What the scale-out suites share: the machine's PostgreSQL (whatever dialect the rest of the run tests), their skip rule and settings. */
import { MikroORM } from '@mikro-orm/core';
import { ormOptions } from '../../../src/storage/orm-options';
import { BOOTSTRAP } from '../../auth/support';
import { TEST_DIALECT } from '../../support/databases';
import { redisServerInstalled } from './redis-server';

export const POSTGRES_ADMIN = process.env.FLAGPOLE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** support/databases.ts's dropDatabase works on the dialect under test (SQLite here); these are PostgreSQL ones. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = /\/(flagpole_test_[a-z0-9_]+)/.exec(url)![1];
  const orm = await MikroORM.init({ ...ormOptions({ url: POSTGRES_ADMIN }), entities: [], discovery: { warnWhenNoEntities: false } });
  try {
    await orm.em.getConnection().execute(`drop database if exists ${name} with (force)`);
  } finally {
    await orm.close(true);
  }
}

/**
 * `describe` for a scale-out suite: it runs in the SQLite pass only (once per CI run) and needs redis-server;
 * without it the suite is skipped, saying so.
 */
export function scaleOutDescribe(suiteName: string): jest.Describe {
  const usable = TEST_DIALECT === 'sqlite' && redisServerInstalled();
  if (!usable && TEST_DIALECT === 'sqlite') console.warn(`${suiteName} suite skipped: redis-server is not installed`);
  return usable ? describe : describe.skip;
}

/**
 * Both instances' settings besides the database: the Redis cache (and change broadcast), and authentication required
 * with static tokens, so that both bootstrap together (one token) and revocations must reach the other instance.
 */
export function scaleOutEnv(redisUrl: string): Record<string, string> {
  return {
    FLAGPOLE_CACHE_ENABLED: 'true',
    FLAGPOLE_CACHE_BACKEND: 'redis',
    FLAGPOLE_CACHE_REDIS_URL: redisUrl,
    FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
    FLAGPOLE_LOG_LEVEL: 'INFO',
  };
}
