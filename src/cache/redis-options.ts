/**
 * `cache.redis.*` → @redis/client options, and a description of the server safe to log (no credentials).
 * Commands fail at once while the connection is down (no offline queue): a cache that waits for Redis would make
 * evaluations wait too, and the callers fall back to their own memory instead.
 */
import { readFileSync } from 'node:fs';
import type { RedisClientOptions, RedisClusterOptions } from '@redis/client';
import type { RedisCacheConfig } from '../config/config.types';

/** Reconnect quickly at first, then every 2 s at most: an outage ends within a probe period of Redis coming back. */
export const reconnectDelay = (retries: number): number => Math.min(100 * 2 ** retries, 2000);

const CONNECT_TIMEOUT_MS = 2000;

export function redisClientOptions(redis: RedisCacheConfig): RedisClientOptions {
  const fromUrl = redis.url !== '';
  const socket = {
    ...socketOptions(redis, fromUrl ? redis.url.startsWith('rediss:') : redis.requireTLS),
    ...(fromUrl ? {} : { host: redis.host, port: redis.port }),
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

/**
 * `mode: cluster`: the one node named by `host` and `port` (or `url`), as Flipt does, from which the client learns
 * the others; every node is reached with the same credentials, TLS settings and timeouts. Only masters are used
 * (no reads from replicas: a replica may lag behind the write that made a version, and entries are small).
 */
export function redisClusterOptions(redis: RedisCacheConfig): RedisClusterOptions {
  const seed = clusterSeed(redis);
  return {
    rootNodes: [{ socket: { host: seed.host, port: seed.port } }],
    defaults: {
      ...(seed.username !== '' ? { username: seed.username } : {}),
      ...(seed.password !== '' ? { password: seed.password } : {}),
      disableOfflineQueue: true,
      socket: socketOptions(redis, seed.tls),
    },
    useReplicas: false,
  } as RedisClusterOptions;
}

/** The seed node and credentials of `mode: cluster`, from the URL or the separate keys. */
function clusterSeed(redis: RedisCacheConfig): { host: string; port: number; username: string; password: string; tls: boolean } {
  if (redis.url === '') return { host: redis.host, port: redis.port, username: redis.username, password: redis.password, tls: redis.requireTLS };
  const u = new URL(redis.url);
  return {
    host: u.hostname,
    port: u.port === '' ? 6379 : Number(u.port),
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    tls: u.protocol === 'rediss:',
  };
}

function socketOptions(redis: RedisCacheConfig, tls: boolean) {
  const ca = redis.caCertBytes !== '' ? redis.caCertBytes : redis.caCertPath !== '' ? readFileSync(redis.caCertPath, 'utf8') : undefined;
  const timeout = redis.netTimeout;
  return {
    connectTimeout: timeout > 0 ? timeout : CONNECT_TIMEOUT_MS,
    ...(timeout > 0 ? { socketTimeout: timeout } : {}),
    reconnectStrategy: reconnectDelay,
    ...(tls ? { tls: true as const, ...(ca ? { ca } : {}), rejectUnauthorized: !redis.insecureSkipTLS } : {}),
  };
}

/** `host:port db N` (or the URL without its credentials; `cluster via host:port`), for logs and /meta. */
export function describeRedis(redis: RedisCacheConfig): string {
  if (redis.mode === 'cluster') {
    try {
      const seed = clusterSeed(redis);
      return `cluster via ${seed.host}:${seed.port}${seed.tls ? ' (TLS)' : ''}`;
    } catch {
      return '(unparseable url)';
    }
  }
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
