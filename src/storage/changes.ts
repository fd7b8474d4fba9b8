/**
 * The seam between writes and what instances keep in memory: evaluation snapshots (topic `namespace`, keyed by
 * namespace key) and recently verified authentications (topic `authentication`, keyed by id). A committed change is
 * published here; subscribers bring what they hold up to date (a namespace change carries the write's delta) or drop
 * it. The in-process bus is the default; a shared bus (Redis pub/sub, cache/redis-change-broadcast.ts) forwards the
 * same events between instances.
 */
import { Injectable } from '@nestjs/common';
import type { NamespaceDelta } from '../core';

export type ChangeTopic = 'namespace' | 'authentication';
export const CHANGE_TOPICS: readonly ChangeTopic[] = ['namespace', 'authentication'];

/**
 * What a namespace write changed of evaluation: its delta, or that the namespace is gone. Without either (a
 * delta too large to forward, a namespace created) holders reload what they have of the namespace.
 */
export interface NamespaceChange {
  delta?: NamespaceDelta;
  deleted?: boolean;
}

/** `local`: committed by this instance (its writer expects to read it back at once). */
export type ChangeListener = (key: string, change: NamespaceChange | undefined, local: boolean) => void;
export type ChangeForwarder = (topic: ChangeTopic, key: string, change?: NamespaceChange) => void;

@Injectable()
export class Changes {
  private readonly listeners = new Map<ChangeTopic, Set<ChangeListener>>(CHANGE_TOPICS.map((t) => [t, new Set()]));
  private readonly forwarders = new Map<ChangeForwarder, () => boolean>();

  subscribe(topic: ChangeTopic, listener: ChangeListener): () => void {
    this.listeners.get(topic)!.add(listener);
    return () => this.listeners.get(topic)!.delete(listener);
  }

  /**
   * A forwarder sees only local changes (to broadcast them), never events it delivered itself. `live` tells
   * whether it can forward right now (its bus is connected).
   */
  addForwarder(forwarder: ChangeForwarder, live: () => boolean): () => void {
    this.forwarders.set(forwarder, live);
    return () => this.forwarders.delete(forwarder);
  }

  /** Whether a shared bus forwards changes between instances right now. */
  get shared(): boolean {
    for (const live of this.forwarders.values()) if (live()) return true;
    return false;
  }

  /** A change committed on this instance. */
  publish(topic: ChangeTopic, key: string, change?: NamespaceChange): void {
    for (const l of this.listeners.get(topic)!) l(key, change, true);
    for (const f of this.forwarders.keys()) f(topic, key, change);
  }

  /** A change committed elsewhere, received from a shared bus. */
  deliver(topic: ChangeTopic, key: string, change?: NamespaceChange): void {
    for (const l of this.listeners.get(topic)!) l(key, change, false);
  }
}
