/**
 * What the shared cache and the change broadcast need of Redis, the same whether it is one server
 * (single-redis-link.ts) or a Redis Cluster (cluster-redis-link.ts); RedisConnection picks one by `cache.redis.mode`.
 */
import type { RedisClientType, RedisClusterType } from '@redis/client';

export interface RedisLink {
  /** The client the cache store sends its commands through. */
  readonly commands: RedisClientType | RedisClusterType;
  /** Whether commands can be sent now; while not, the cache uses this instance's memory. */
  readonly ready: boolean;
  /** Resolves once connected; until then, and after every later loss, the link keeps trying by itself. */
  connect(): Promise<void>;
  /** Listens on a pub/sub channel from now on, across reconnections (and, in a cluster, failovers). */
  subscribe(channel: string, listener: (message: string) => void): void;
  publish(channel: string, message: string): Promise<void>;
  /** Resolves when Redis answers (every master, for a cluster); rejects with the reason otherwise. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** How a link reports the state of its connection, for RedisConnection's logs. */
export interface LinkEvents {
  /** Redis became unreachable (reported once per outage by the receiver). */
  lost(reason: string): void;
  /** Redis answers again. */
  back(): void;
  /** Something an operator should see, such as a cluster's new layout after a failover. */
  note(message: string): void;
  /** Something that went wrong and is being retried. */
  warn(message: string): void;
}
