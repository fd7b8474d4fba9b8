/**
 * `cache.*`: the EvaluationCache every snapshot load goes through, backed by cache-manager (CACHE_MANAGER) with an
 * in-process store or Redis. With Redis, the connection and the change broadcast between instances come along.
 * With the cache off, EvaluationCache is present and always misses.
 */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import KeyvRedis, { type RedisClientConnectionType } from '@keyv/redis';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import type { FlagpoleConfig } from '../config/config.types';
import { HealthModule } from '../health/health.module';
import { dialectOf } from '../storage/dialects';
import { CACHE_SETTINGS, CacheSettings, EvaluationCache } from './evaluation-cache.service';
import { memoryCache } from './memory-cache';
import { RedisChangeBroadcast } from './redis-change-broadcast';
import { redisPrefix } from './redis-options';
import { RedisConnection } from './redis.connection';

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

    const namespace = redisPrefix(redis);
    providers.push(RedisConnection, RedisChangeBroadcast, {
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
