/**
 * The cache of `cache.enabled`, through cache-manager: namespaces' evaluation state as read from the database,
 * keyed by namespace and version, so an instance that must rebuild a snapshot after a write reads it from the
 * cache when another instance already loaded it, and an entry can never be stale (a new version is a new key).
 *
 * With `backend: redis` the store is shared; while Redis is away reads and writes go to this instance's own memory
 * instead (the connection logs the switch), so no request waits for Redis or fails because of it.
 */
import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import type { Cache } from 'cache-manager';
import { CacheMetrics } from '../metrics/cache.metrics';
import { memoryCache } from './memory-cache';
import type { RedisConnection } from './redis.connection';
import { REDIS_CONNECTION } from './redis-connection.token';

export const CACHE_SETTINGS = Symbol('CACHE_SETTINGS');

export interface CacheSettings {
  enabled: boolean;
  backend: 'memory' | 'redis';
  ttlMs: number;
  evictionIntervalMs: number;
  /** The database can be shared by several instances (not SQLite). */
  sharedDatabase: boolean;
}

interface Store {
  name: 'memory' | 'redis';
  cache: Cache;
}

@Injectable()
export class EvaluationCache implements OnModuleInit {
  private readonly primary: Store | null;
  /** Redis backend only: this instance's memory, used while Redis is unreachable. */
  private readonly fallback: Store | null;

  constructor(
    @Inject(CACHE_SETTINGS) private readonly settings: CacheSettings,
    private readonly metrics: CacheMetrics,
    @Optional() @Inject(CACHE_MANAGER) cache?: Cache,
    @Optional() @Inject(REDIS_CONNECTION) private readonly redis?: RedisConnection,
  ) {
    this.primary = settings.enabled && cache ? { name: settings.backend, cache } : null;
    this.fallback = this.primary && settings.backend === 'redis' ? { name: 'memory', cache: memoryCache(settings) } : null;
  }

  onModuleInit(): void {
    if (this.primary?.name === 'memory' && this.settings.sharedDatabase) {
      // Flipt's documented caveat. Snapshots still follow other instances' writes within a second (version poll),
      // but authentications deleted elsewhere are honoured here only after a few seconds.
      new Logger('Cache').warn(
        'cache.backend is memory with a shared database: if several instances run, each caches for itself; use cache.backend redis for a shared cache and immediate change broadcast',
      );
    }
  }

  get enabled(): boolean {
    return this.primary !== null;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const store = this.store();
    if (!store) return undefined;
    try {
      const value = await store.cache.get<T>(key);
      if (value === undefined || value === null) {
        this.metrics.miss(store.name);
        return undefined;
      }
      this.metrics.hit(store.name);
      return value;
    } catch {
      this.metrics.error(store.name);
      return undefined;
    }
  }

  async set<T>(key: string, value: T): Promise<void> {
    const store = this.store();
    if (!store) return;
    try {
      await store.cache.set(key, value, this.settings.ttlMs);
    } catch {
      this.metrics.error(store.name);
    }
  }

  private store(): Store | null {
    if (this.fallback && !this.redis?.ready) return this.fallback;
    return this.primary;
  }
}
