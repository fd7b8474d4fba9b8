/**
 * The Redis connections of the shared cache: one for commands (cache reads and writes, publishing changes) and one
 * subscribed to other instances' changes. Start-up waits briefly for Redis but never fails on it: an instance whose
 * Redis is away works from its own memory, reports NOT_SERVING through the health check, and reconnects by itself.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createClient, type RedisClientType } from '@redis/client';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { HealthService } from '../health/health.service';
import { describeRedis, redisClientOptions } from './redis-options';

/** How long start-up waits for Redis before carrying on without it. */
const STARTUP_WAIT_MS = 3000;

@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: RedisClientType;
  readonly subscriber: RedisClientType;
  private readonly where: string;
  /** Whether the command connection was lost (and not yet back), so that each outage logs once each way. */
  private lost = false;
  private closing = false;

  constructor(@Inject(CONFIG) config: FlagpoleConfig, health: HealthService) {
    const options = redisClientOptions(config.cache.redis);
    this.where = describeRedis(config.cache.redis);
    this.client = createClient(options) as RedisClientType;
    this.subscriber = this.client.duplicate() as RedisClientType;
    this.client.on('error', (e: Error) => this.onLost(e));
    this.client.on('ready', () => this.onReady());
    // The subscriber reports through the command connection's state; its errors only need swallowing.
    this.subscriber.on('error', () => undefined);
    health.register('redis', () => this.ping());
  }

  get ready(): boolean {
    return this.client.isReady;
  }

  async onModuleInit(): Promise<void> {
    const connected = Promise.all([this.client.connect(), this.subscriber.connect()]).then(() => true);
    const waited = new Promise<false>((resolve) => setTimeout(() => resolve(false), STARTUP_WAIT_MS).unref());
    const ok = await Promise.race([connected.catch(() => false), waited]);
    if (!ok) this.logger.warn(`redis ${this.where} unreachable at start-up: using this instance's memory until it answers`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const c of [this.subscriber, this.client]) {
      if (c.isReady) await c.close().catch(() => c.destroy());
      else if (c.isOpen) c.destroy();
    }
  }

  /** Terminus-style result: up when Redis answers PING within its connect timeout. */
  private async ping(): Promise<HealthIndicatorResult> {
    if (!this.client.isReady) return { redis: { status: 'down', message: 'not connected' } };
    try {
      await this.client.ping();
      return { redis: { status: 'up' } };
    } catch (e) {
      return { redis: { status: 'down', message: (e as Error).message } };
    }
  }

  private onLost(e: Error): void {
    if (this.lost || this.closing) return;
    this.lost = true;
    this.logger.warn(`redis ${this.where} unavailable (${e.message}): falling back to this instance's memory until it returns`);
  }

  private onReady(): void {
    if (!this.lost) return;
    this.lost = false;
    this.logger.log(`redis ${this.where} reachable again: shared cache and change broadcast resumed`);
  }
}

