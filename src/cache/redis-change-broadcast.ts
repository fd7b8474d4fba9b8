/**
 * Forwards changes between instances over Redis pub/sub: a write committed here is published with its topic, key
 * and, for a namespace, the write's delta; every other instance brings what it holds up to date on receipt — its
 * snapshot of that namespace, by applying the delta (so its evaluations see the write within milliseconds, where
 * Flipt waits for a TTL), or its memory of a deleted or expired authentication (refused at once instead of after the
 * few seconds it is remembered). A delta larger than `limits.max_change_message_bytes` is announced without it, and
 * the others load the namespace again. Without Redis the SnapshotCache's one-second version poll still brings
 * every instance up to date.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { CHANGE_TOPICS, Changes, type ChangeTopic, type NamespaceChange } from '../storage/changes';
import { redisPrefix } from './redis-options';
import { RedisConnection } from './redis.connection';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

interface ChangeMessage {
  /** The instance that made the write; it has delivered the change to itself already. */
  origin: string;
  topic: ChangeTopic;
  key: string;
  change?: NamespaceChange;
}

@ProcessDuty()
@Injectable()
export class RedisChangeBroadcast implements ProcessDutyProvider, OnModuleDestroy {
  private readonly logger = new Logger('ChangeBroadcast');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly maxMessageBytes: number;
  private removeForwarder: (() => void) | null = null;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly redis: RedisConnection,
    private readonly changes: Changes,
  ) {
    this.channel = `${redisPrefix(config.cache.redis)}:changes`;
    this.maxMessageBytes = config.limits.maxChangeMessageBytes;
  }

  start(): void {
    // A process duty: the write worker's changes reach the server, which broadcasts them.
    // The connection keeps the subscription across reconnections (and a cluster's failovers).
    this.redis.subscribe(this.channel, (message) => this.receive(message));
    this.removeForwarder = this.changes.addForwarder((topic, key, change) => this.send(topic, key, change), () => this.redis.ready);
  }

  onModuleDestroy(): void {
    this.removeForwarder?.();
  }

  private send(topic: ChangeTopic, key: string, change: NamespaceChange | undefined): void {
    if (!this.redis.ready) return; // the other instances' version poll and freshness window cover an outage
    let text = JSON.stringify({ origin: this.origin, topic, key, change } satisfies ChangeMessage);
    if (Buffer.byteLength(text) > this.maxMessageBytes) {
      text = JSON.stringify({ origin: this.origin, topic, key, change: change?.deleted ? change : undefined } satisfies ChangeMessage);
    }
    this.redis.publish(this.channel, text).catch((e: Error) => {
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
    this.changes.deliver(message.topic!, message.key, wellFormed(message.change));
  }
}

/**
 * The change as sent by another instance, or undefined (then receivers load the namespace again): only the shape is
 * checked, the content comes from a Flagpole that read it from the shared database.
 */
function wellFormed(change: unknown): NamespaceChange | undefined {
  if (typeof change !== 'object' || change === null) return undefined;
  const { deleted, delta } = change as NamespaceChange;
  if (deleted === true) return { deleted: true };
  const lists = delta && [delta.flags, delta.removedFlags, delta.segments, delta.removedSegments];
  if (!delta || typeof delta.from !== 'string' || typeof delta.to !== 'string' || !lists!.every(Array.isArray)) return undefined;
  return { delta };
}
