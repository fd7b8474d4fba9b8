/**
 * `cache.redis.*` → @redis/client options, and a description of the server safe to log (no credentials).
 * Commands fail at once while the connection is down (no offline queue): a cache that waits for Redis would make
 * evaluations wait too, and the callers fall back to their own memory instead.
 */
import { readFileSync } from 'node:fs';
import type { RedisClientOptions } from '@redis/client';
import type { RedisCacheConfig } from '../config/config.types';

/** Reconnect quickly at first, then every 2 s at most: an outage ends within a probe period of Redis coming back. */
export const reconnectDelay = (retries: number): number => Math.min(100 * 2 ** retries, 2000);

const CONNECT_TIMEOUT_MS = 2000;

export function redisClientOptions(redis: RedisCacheConfig): RedisClientOptions {
  const fromUrl = redis.url !== '';
  const tls = fromUrl ? redis.url.startsWith('rediss:') : redis.requireTLS;
  const ca = redis.caCertBytes !== '' ? redis.caCertBytes : redis.caCertPath !== '' ? readFileSync(redis.caCertPath, 'utf8') : undefined;
  const timeout = redis.netTimeout;
  const socket = {
    connectTimeout: timeout > 0 ? timeout : CONNECT_TIMEOUT_MS,
    ...(timeout > 0 ? { socketTimeout: timeout } : {}),
    reconnectStrategy: reconnectDelay,
    ...(fromUrl ? {} : { host: redis.host, port: redis.port }),
    ...(tls ? { tls: true as const, ...(ca ? { ca } : {}), rejectUnauthorized: !redis.insecureSkipTLS } : {}),
  };
  return {
    ...(fromUrl
      ? { url: redis.url }
      : {
          ...(redis.username !== '' ? { username: redis.username } : {}),
          ...(redis.password !== '' ? { password: redis.password } : {}),
          database: redis.db,
        }),
    disableOfflineQueue: true,
    socket,
  } as RedisClientOptions;
}

/** `host:port db N` (or the URL without its credentials), for logs and /meta. */
export function describeRedis(redis: RedisCacheConfig): string {
  if (redis.url === '') return `${redis.host}:${redis.port} db ${redis.db}${redis.requireTLS ? ' (TLS)' : ''}`;
  try {
    const u = new URL(redis.url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(unparseable url)';
  }
}

/** The key prefix: `cache.redis.prefix`, or `flagpole`. */
export function redisPrefix(redis: RedisCacheConfig): string {
  return redis.prefix !== '' ? redis.prefix : 'flagpole';
}
