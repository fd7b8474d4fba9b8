/**
 * A Redis Cluster (`cache.redis.mode: cluster`): node-redis's cluster client for commands, which sends each key to
 * the master serving its slot, and a subscriber connection of our own on one master.
 *
 * Two things node-redis leaves to us:
 *   - it learns a new layout only from a MOVED or ASK reply (node-redis issue 2806). When a master dies nothing
 *     answers MOVED, and its slots would stay on the dead address after its replica took over. The layout is asked
 *     of a live node again whenever a node's connection fails or retries, and every LAYOUT_REFRESH_MS besides (a
 *     resharding, a failover seen by no command);
 *   - its cluster pub/sub client, once on a node that died, is not replaced unless it already had listeners. So the
 *     broadcast subscribes through a plain connection we move: when it drops, it is opened again on another master
 *     that answers, at once, without waiting for the failover. Classic PUBLISH reaches every node's subscribers over
 *     the cluster bus, so any master will do, and a publish that fails is sent again to the next master.
 */
import { createClient, createCluster, type RedisClientType, type RedisClusterType } from '@redis/client';
import type { RedisCacheConfig } from '../config/config.types';
import type { LinkEvents, RedisLink } from './redis-link';
import { reconnectDelay, redisClusterOptions } from './redis-options';

/** How often the layout is asked for again while every node answers (ioredis's default slots refresh). */
export const LAYOUT_REFRESH_MS = 5000;
/** Node-level trouble is answered with a layout refresh at most this often. */
const REFRESH_SOON_MS = 200;

type Listener = (message: string) => void;

export class ClusterRedisLink implements RedisLink {
  readonly commands: RedisClusterType;
  private readonly nodeDefaults: ReturnType<typeof redisClusterOptions>['defaults'];
  private connected = false;
  private closing = false;
  private refreshing = false;
  private refreshTimer: NodeJS.Timeout | null = null;
  private soonTimer: NodeJS.Timeout | null = null;
  /** Masters as `host:port`, as last seen, so that a change of layout is logged once. */
  private layout = '';
  /** Whether asking for the layout failed since it last succeeded, so that a long outage logs once. */
  private layoutTrouble = false;
  /** Nodes whose connection failed and did not come back, so that each outage is logged once. */
  private readonly down = new Set<string>();
  private readonly channels = new Map<string, Listener>();
  private subscriber: RedisClientType | null = null;
  private subscriberAttempts = 0;

  constructor(
    redis: RedisCacheConfig,
    private readonly events: LinkEvents,
  ) {
    const options = redisClusterOptions(redis);
    this.nodeDefaults = options.defaults;
    this.commands = createCluster(options) as unknown as RedisClusterType;
    this.commands.on('error', (e: Error) => this.layoutFailed(e));
    this.commands.on('node-error', (e: Error, node: { host: string; port: number }) => this.nodeLost(`${node.host}:${node.port}`, e));
    this.commands.on('node-reconnecting', () => this.refreshSoon());
    this.commands.on('node-ready', (node: { host: string; port: number }) => this.nodeBack(`${node.host}:${node.port}`));
  }

  get ready(): boolean {
    return this.connected && this.commands.masters.some((m) => m.client?.isReady);
  }

  /** Learns the layout from the seed node, trying again (0.1 s doubling to 2 s) until it answers. */
  async connect(): Promise<void> {
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        await this.commands.connect();
        break;
      } catch (e) {
        this.events.lost((e as Error).message);
        await new Promise((r) => setTimeout(r, reconnectDelay(attempt)).unref());
      }
    }
    if (this.closing) return;
    this.connected = true;
    this.layoutTrouble = false;
    this.layout = this.mastersNow();
    this.events.note(`redis cluster masters: ${this.layout}`);
    this.events.back();
    this.refreshTimer = setInterval(() => void this.refresh(), LAYOUT_REFRESH_MS);
    this.refreshTimer.unref();
    if (this.channels.size > 0) void this.openSubscriber();
  }

  subscribe(channel: string, listener: Listener): void {
    this.channels.set(channel, listener);
    // Channels added later join the open subscriber; one being opened subscribes to all of them.
    if (this.subscriber?.isPubSubActive) {
      this.subscriber.subscribe(channel, listener).catch((e: Error) => this.events.warn(`subscribing to ${channel} failed: ${e.message}`));
    } else if (this.connected && !this.subscriber) {
      void this.openSubscriber();
    }
  }

  async publish(channel: string, message: string): Promise<void> {
    // PUBLISH goes to the next master in turn: after a failure, another one.
    const tries = Math.max(1, this.commands.masters.length);
    for (let i = 1; ; i++) {
      try {
        await this.commands.publish(channel, message);
        return;
      } catch (e) {
        if (i >= tries) throw e;
      }
    }
  }

  async check(): Promise<void> {
    if (!this.connected) throw new Error('not connected');
    const masters = this.commands.masters;
    const away = masters.filter((m) => !m.client?.isReady).map((m) => m.address);
    if (away.length > 0) throw new Error(`cluster master ${away.join(', ')} unreachable`);
    await Promise.all(masters.map((m) => m.client!.ping()));
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const timer of [this.refreshTimer, this.soonTimer]) if (timer) clearTimeout(timer);
    if (this.subscriber) this.dropSubscriber(this.subscriber);
    if (this.commands.isOpen) await this.commands.close().catch(() => this.commands.destroy());
  }

  private layoutFailed(e: Error): void {
    if (this.layoutTrouble || this.closing) return;
    this.layoutTrouble = true;
    this.events.warn(`asking redis cluster nodes for the layout failed (${e.message}); trying again`);
  }

  private nodeLost(address: string, e: Error): void {
    if (this.closing) return;
    if (!this.down.has(address)) {
      this.down.add(address);
      this.events.warn(`redis cluster node ${address} unavailable (${e.message}): asking the others for the layout`);
    }
    if (!this.ready) this.events.lost(e.message);
    this.refreshSoon();
  }

  private nodeBack(address: string): void {
    this.down.delete(address);
    if (this.ready) this.events.back();
  }

  private refreshSoon(): void {
    if (this.soonTimer || this.closing) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      void this.refresh();
    }, REFRESH_SOON_MS);
    this.soonTimer.unref();
  }

  /**
   * Asks a master that answers (any known one, else the seed) for the current layout. Also while the first
   * connection is being made: node-redis waits for every master it was told of, and one that died before its replica
   * took over is dropped only by a later layout.
   */
  private async refresh(): Promise<void> {
    if (!this.commands.isOpen || this.refreshing || this.closing) return;
    const masters = this.commands.masters;
    const from = (masters.find((m) => m.client?.isReady) ?? masters.find((m) => m.client))?.client;
    if (!from) return;
    this.refreshing = true;
    try {
      await this.commands._slots.rediscover(from as RedisClientType);
      this.layoutTrouble = false;
    } catch {
      // The cluster client reported it ('error'); the next trouble or tick asks again.
    } finally {
      this.refreshing = false;
    }
    const layout = this.mastersNow();
    if (this.connected && layout !== this.layout) {
      this.layout = layout;
      this.events.note(`redis cluster layout changed: masters ${layout}`);
      for (const address of [...this.down]) if (!layout.split(', ').includes(address)) this.down.delete(address);
      if (this.ready) this.events.back();
    }
  }

  private mastersNow(): string {
    return this.commands.masters.map((m) => m.address).sort().join(', ');
  }

  /** Opens the subscriber on a master that answers and subscribes it to every channel; moves it when it drops. */
  private async openSubscriber(): Promise<void> {
    if (this.closing || this.subscriber) return;
    const live = this.commands.masters.filter((m) => m.client?.isReady);
    const node = live[Math.floor(Math.random() * live.length)];
    if (!node) return this.retrySubscriber();
    const client = createClient({
      ...this.nodeDefaults,
      // No reconnection to the same node: a dropped subscriber is opened again on whichever master answers. No idle
      // timeout either: a subscriber waits in silence between changes.
      socket: { ...this.nodeDefaults?.socket, host: node.host, port: node.port, reconnectStrategy: false, socketTimeout: undefined },
    } as Parameters<typeof createClient>[0]) as RedisClientType;
    this.subscriber = client;
    let subscribed = false;
    client.on('error', (e: Error) => {
      if (!subscribed || this.subscriber !== client) return; // a failed start is handled below
      subscribed = false;
      this.dropSubscriber(client);
      this.events.warn(`the change subscription on redis cluster node ${node.address} dropped (${e.message}): subscribing on another master`);
      void this.openSubscriber();
    });
    try {
      await client.connect();
      for (const [channel, listener] of this.channels) await client.subscribe(channel, listener);
      subscribed = true;
      this.subscriberAttempts = 0;
    } catch (e) {
      this.dropSubscriber(client);
      this.events.warn(`subscribing on redis cluster node ${node.address} failed: ${(e as Error).message}`);
      this.retrySubscriber();
    }
  }

  private dropSubscriber(client: RedisClientType): void {
    if (this.subscriber === client) this.subscriber = null;
    try {
      client.destroy();
    } catch {
      // already closed
    }
  }

  private retrySubscriber(): void {
    setTimeout(() => void this.openSubscriber(), reconnectDelay(this.subscriberAttempts++)).unref();
  }
}
