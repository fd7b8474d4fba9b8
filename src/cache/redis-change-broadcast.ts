/**
 * Forwards changes between instances over Redis pub/sub: a write committed here is published with its topic and
 * key; every other instance drops what it holds on receipt — its snapshot of that namespace (so its next evaluation
 * sees the write within milliseconds, where Flipt waits for a TTL), or its memory of a deleted or expired
 * authentication (refused at once instead of after the few seconds it is remembered). Without Redis the
 * SnapshotCache's one-second version poll still brings every instance up to date.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { CHANGE_TOPICS, Changes, type ChangeTopic } from '../storage/changes';
import { redisPrefix } from './redis-options';
import { RedisConnection } from './redis.connection';

interface ChangeMessage {
  /** The instance that made the write; it has delivered the change to itself already. */
  origin: string;
  topic: ChangeTopic;
  key: string;
}

@Injectable()
export class RedisChangeBroadcast implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ChangeBroadcast');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private removeForwarder: (() => void) | null = null;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly redis: RedisConnection,
    private readonly changes: Changes,
  ) {
    this.channel = `${redisPrefix(config.cache.redis)}:changes`;
  }

  onModuleInit(): void {
    // Once subscribed, node-redis subscribes again by itself after every reconnect; until the first connection
    // exists (Redis away at start-up) there is nothing to subscribe on.
    const subscribe = () => {
      this.redis.subscriber.subscribe(this.channel, (message) => this.receive(message)).catch((e: Error) => {
        this.logger.warn(`subscribing to ${this.channel} failed: ${e.message}`);
        this.redis.subscriber.once('ready', subscribe);
      });
    };
    if (this.redis.subscriber.isReady) subscribe();
    else this.redis.subscriber.once('ready', subscribe);
    this.removeForwarder = this.changes.addForwarder((topic, key) => this.send(topic, key));
  }

  onModuleDestroy(): void {
    this.removeForwarder?.();
  }

  private send(topic: ChangeTopic, key: string): void {
    if (!this.redis.ready) return; // the other instances' version poll and freshness window cover an outage
    const message: ChangeMessage = { origin: this.origin, topic, key };
    this.redis.client.publish(this.channel, JSON.stringify(message)).catch((e: Error) => {
      this.logger.debug(`publishing a change of ${topic} "${key}" failed: ${e.message}`);
    });
  }

  private receive(raw: string): void {
    let message: Partial<ChangeMessage>;
    try {
      message = JSON.parse(raw) as Partial<ChangeMessage>;
    } catch {
      return;
    }
    if (message.origin === this.origin || typeof message.key !== 'string' || !CHANGE_TOPICS.includes(message.topic!)) return;
    this.changes.deliver(message.topic!, message.key);
  }
}
