/**
 * What start-up says about the database and the cache: enough to see which one is in use, never a credential (a URL's
 * user, password and query string are left out).
 */
import { describeRedis } from './cache/redis-options';
import type { CacheConfig } from './config/config.types';
import { dialectOf, sqlitePath } from './storage/dialects';

export function describeDatabase(url: string): string {
  const dialect = dialectOf(url);
  if (dialect.name === 'sqlite') return `sqlite ${sqlitePath(url)}`;
  try {
    const u = new URL(url);
    return `${dialect.name} ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return dialect.name;
  }
}

export function describeCache(cache: CacheConfig): string {
  if (!cache.enabled) return 'evaluation snapshots in memory (cache disabled)';
  if (cache.backend === 'redis') return `redis ${describeRedis(cache.redis)}`;
  return 'memory';
}
