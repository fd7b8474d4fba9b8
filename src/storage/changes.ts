/**
 * The seam between writes and what instances keep in memory: evaluation snapshots (topic `namespace`, keyed by
 * namespace key) and recently verified authentications (topic `authentication`, keyed by id). A committed change is
 * published here; subscribers drop what they hold. The in-process bus is the default; a shared bus (Redis pub/sub,
 * cache/redis-change-broadcast.ts) forwards the same events between instances.
 */
import { Injectable } from '@nestjs/common';

export type ChangeTopic = 'namespace' | 'authentication';
export const CHANGE_TOPICS: readonly ChangeTopic[] = ['namespace', 'authentication'];

export type ChangeListener = (key: string) => void;
export type ChangeForwarder = (topic: ChangeTopic, key: string) => void;

@Injectable()
export class Changes {
  private readonly listeners = new Map<ChangeTopic, Set<ChangeListener>>(CHANGE_TOPICS.map((t) => [t, new Set()]));
  private readonly forwarders = new Set<ChangeForwarder>();

  subscribe(topic: ChangeTopic, listener: ChangeListener): () => void {
    this.listeners.get(topic)!.add(listener);
    return () => this.listeners.get(topic)!.delete(listener);
  }

  /** A forwarder sees only local changes (to broadcast them), never events it delivered itself. */
  addForwarder(forwarder: ChangeForwarder): () => void {
    this.forwarders.add(forwarder);
    return () => this.forwarders.delete(forwarder);
  }

  /** A change committed on this instance. */
  publish(topic: ChangeTopic, key: string): void {
    this.deliver(topic, key);
    for (const f of this.forwarders) f(topic, key);
  }

  /** A change committed elsewhere, received from a shared bus. */
  deliver(topic: ChangeTopic, key: string): void {
    for (const l of this.listeners.get(topic)!) l(key);
  }
}
