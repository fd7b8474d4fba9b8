/**
 * The Redis connection of the shared cache and the change broadcast: one server or a Redis Cluster, by
 * `cache.redis.mode` (redis-link.ts). Start-up waits briefly for Redis but never fails on it: an instance whose Redis
 * is away works from its own memory, reports NOT_SERVING through the health check, and reconnects by itself.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { RedisClientType, RedisClusterType } from '@redis/client';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { HealthService } from '../health/health.service';
import { ClusterRedisLink } from './cluster-redis-link';
import type { LinkEvents, RedisLink } from './redis-link';
import { describeRedis } from './redis-options';
import { SingleRedisLink } from './single-redis-link';

/** How long start-up waits for Redis before carrying on without it. */
const STARTUP_WAIT_MS = 3000;

@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private readonly link: RedisLink;
  private readonly where: string;
  /** Whether Redis was lost (and not yet back), so that each outage logs once each way. */
  private lost = false;
  private closing = false;

  constructor(@Inject(CONFIG) config: FlagpoleConfig, health: HealthService) {
    this.where = describeRedis(config.cache.redis);
    const events: LinkEvents = {
      lost: (reason) => this.onLost(reason),
      back: () => this.onBack(),
      note: (message) => this.logger.log(message),
      warn: (message) => {
        if (!this.closing) this.logger.warn(message);
      },
    };
    this.link = config.cache.redis.mode === 'cluster' ? new ClusterRedisLink(config.cache.redis, events) : new SingleRedisLink(config.cache.redis, events);
    health.register('redis', () => this.ping());
  }

  /** The command client, for the cache store. */
  get client(): RedisClientType | RedisClusterType {
    return this.link.commands;
  }

  get ready(): boolean {
    return this.link.ready;
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    this.link.subscribe(channel, listener);
  }

  publish(channel: string, message: string): Promise<void> {
    return this.link.publish(channel, message);
  }

  async onModuleInit(): Promise<void> {
    const connected = this.link.connect().then(() => true);
    const waited = new Promise<false>((resolve) => setTimeout(() => resolve(false), STARTUP_WAIT_MS).unref());
    const ok = await Promise.race([connected.catch(() => false), waited]);
    if (!ok) this.logger.warn(`redis ${this.where} unreachable at start-up: using this instance's memory until it answers`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.link.close();
  }

  /** Terminus-style result: up when Redis (every master of a cluster) answers PING within its connect timeout. */
  private async ping(): Promise<HealthIndicatorResult> {
    try {
      await this.link.check();
      return { redis: { status: 'up' } };
    } catch (e) {
      return { redis: { status: 'down', message: (e as Error).message } };
    }
  }

  private onLost(reason: string): void {
    if (this.lost || this.closing) return;
    this.lost = true;
    this.logger.warn(`redis ${this.where} unavailable (${reason}): falling back to this instance's memory until it returns`);
  }

  private onBack(): void {
    if (!this.lost) return;
    this.lost = false;
    this.logger.log(`redis ${this.where} reachable again: shared cache and change broadcast resumed`);
  }
}
