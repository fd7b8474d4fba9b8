/**
 * The seam between writes and everything that caches per namespace (evaluation snapshots). A committed write
 * publishes its namespace key; subscribers drop what they hold. The in-process bus is the default; a shared bus
 * (Redis pub/sub) can forward the same events between instances.
 */
import { Injectable } from '@nestjs/common';

export type NamespaceChangeListener = (namespaceKey: string) => void;

@Injectable()
export class NamespaceChanges {
  private readonly listeners = new Set<NamespaceChangeListener>();
  private readonly forwarders = new Set<NamespaceChangeListener>();

  subscribe(listener: NamespaceChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A forwarder sees only local writes (to broadcast them), never events it delivered itself. */
  addForwarder(forwarder: NamespaceChangeListener): () => void {
    this.forwarders.add(forwarder);
    return () => this.forwarders.delete(forwarder);
  }

  /** A write committed on this instance. */
  publish(namespaceKey: string): void {
    this.deliver(namespaceKey);
    for (const f of this.forwarders) f(namespaceKey);
  }

  /** A write committed elsewhere, received from a shared bus. */
  deliver(namespaceKey: string): void {
    for (const l of this.listeners) l(namespaceKey);
  }
}
