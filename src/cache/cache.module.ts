/**
 * `cache.*`: the EvaluationCache every snapshot load goes through, backed by cache-manager (CACHE_MANAGER) with an
 * in-process store or Redis. With Redis, the connection and the change broadcast between instances come along.
 * With the cache off, EvaluationCache is present and always misses.
 */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import type { RedisClientConnectionType } from '@keyv/redis';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import type { FlagpoleConfig } from '../config/config.types';
import { HealthModule } from '../health/health.module';
import { dialectOf } from '../storage/dialects';
import { CACHE_SETTINGS, CacheSettings, EvaluationCache } from './evaluation-cache.service';
import { memoryCache } from './memory-cache';
import { redisPrefix } from './redis-options';
import { REDIS_CONNECTION } from './redis-connection.token';
import type { RedisConnection } from './redis.connection';

@Global()
@Module({})
export class CacheModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    const { enabled, backend, ttl, memory, redis } = config.cache;
    const settings: CacheSettings = {
      enabled,
      backend,
      ttlMs: ttl,
      evictionIntervalMs: memory.evictionInterval,
      sharedDatabase: dialectOf(config.db.url).name !== 'sqlite',
    };
    const providers: Provider[] = [{ provide: CACHE_SETTINGS, useValue: settings }, EvaluationCache];
    const module: DynamicModule = { module: CacheModule, providers, exports: [EvaluationCache] };
    if (!enabled) return module;

    if (backend === 'memory') {
      providers.push({ provide: CACHE_MANAGER, useFactory: () => memoryCache(settings) });
      return module;
    }

    // Required here, not imported: the Redis client and store are loaded only by instances that use them (about 5 %
    // of a start-up otherwise).
    const { RedisConnection } = require('./redis.connection') as typeof import('./redis.connection');
    const { RedisChangeBroadcast } = require('./redis-change-broadcast') as typeof import('./redis-change-broadcast');
    const KeyvRedis = (require('@keyv/redis') as typeof import('@keyv/redis')).default;
    const namespace = redisPrefix(redis);
    providers.push(RedisConnection, RedisChangeBroadcast, { provide: REDIS_CONNECTION, useExisting: RedisConnection }, {
      provide: CACHE_MANAGER,
      inject: [RedisConnection],
      useFactory: (connection: RedisConnection) => {
        const store = new KeyvRedis(connection.client as unknown as RedisClientConnectionType, { throwOnConnectError: false, throwOnErrors: true });
        // The Redis store prefixes keys itself (`<prefix>::<key>`); Keyv's own prefix would repeat it.
        return createCache({ stores: [new Keyv({ store, namespace, useKeyPrefix: false })], ttl });
      },
    });
    return { ...module, imports: [HealthModule] };
  }
}
