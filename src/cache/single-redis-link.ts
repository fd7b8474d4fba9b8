/**
 * One Redis server: a connection for commands (cache reads and writes, publishing changes) and one subscribed to
 * other instances' changes. Both reconnect by themselves; node-redis subscribes again after every reconnection.
 */
import { createClient, type RedisClientType } from '@redis/client';
import type { RedisCacheConfig } from '../config/config.types';
import type { LinkEvents, RedisLink } from './redis-link';
import { redisClientOptions } from './redis-options';

export class SingleRedisLink implements RedisLink {
  readonly commands: RedisClientType;
  private readonly subscriber: RedisClientType;

  constructor(
    redis: RedisCacheConfig,
    private readonly events: LinkEvents,
  ) {
    this.commands = createClient(redisClientOptions(redis)) as RedisClientType;
    this.subscriber = this.commands.duplicate() as RedisClientType;
    this.commands.on('error', (e: Error) => events.lost(e.message));
    this.commands.on('ready', () => events.back());
    // The subscriber reports through the command connection's state; its errors only need swallowing.
    this.subscriber.on('error', () => undefined);
  }

  get ready(): boolean {
    return this.commands.isReady;
  }

  async connect(): Promise<void> {
    await Promise.all([this.commands.connect(), this.subscriber.connect()]);
  }

  subscribe(channel: string, listener: (message: string) => void): void {
    // Until the first connection exists (Redis away at start-up) there is nothing to subscribe on.
    const subscribe = () => {
      this.subscriber.subscribe(channel, listener).catch((e: Error) => {
        this.events.warn(`subscribing to ${channel} failed: ${e.message}`);
        this.subscriber.once('ready', subscribe);
      });
    };
    if (this.subscriber.isReady) subscribe();
    else this.subscriber.once('ready', subscribe);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.commands.publish(channel, message);
  }

  async check(): Promise<void> {
    if (!this.commands.isReady) throw new Error('not connected');
    await this.commands.ping();
  }

  async close(): Promise<void> {
    for (const c of [this.subscriber, this.commands]) {
      if (c.isReady) await c.close().catch(() => c.destroy());
      else if (c.isOpen) c.destroy();
    }
  }
}
