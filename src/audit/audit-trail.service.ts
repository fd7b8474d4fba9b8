/**
 * Where audit events go once their write has committed: to the stored trail (every event, when
 * `audit.storage.enabled`) and to the sinks (`audit.events` decides which). Nothing here is awaited by the write:
 * each destination has its own ordered outbox (DeliveryQueue), retried while the process lives and bounded by
 * `limits.max_audit_backlog` events and `limits.max_audit_backlog_bytes` bytes (a receiver that hangs while large
 * writes go on costs at most that much memory per destination). Each event is delivered by the instance that committed its write, once.
 *
 * Flipt batches events for its sinks (`audit.buffer`); Flagpole hands each event on at once, so a webhook fires
 * within milliseconds of the write (docs/api.md, differences). The buffer keys are accepted and have no effect.
 */
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { rootLogger } from '../logging/logger';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { isDatabaseUnreachable } from '../common/database-unreachable';
import { eventBytes, type AuditEvent, type AuditSubject } from './audit-event';
import { eventMatcher, type EventMatcher } from './audit-filter';
import { timeOrderedId } from '../common/time-ordered-id';
import { AuditRepository, type StoredEvent } from './audit.repository';
import { DeliveryQueue, Undeliverable } from './delivery-queue';
import type { AuditSink } from './sinks/audit-sink';
import { LogSink } from './sinks/log.sink';
import { Tracing } from '../tracing/tracing';
import { eventBody, templateBody, WebhookSink, type SinkReporter } from './sinks/webhook.sink';

/** How long shutdown waits for outboxes to empty. */
const SHUTDOWN_WAIT_MS = 5_000;
const STORE_BATCH = 100;
/**
 * Events wait this long for others before a batch is stored: one commit per batch instead of one per event. Measured
 * (bench/audit.js, SQLite, sequential writes): storing each event at once added 41 % to a write's p50, as its commit
 * queued behind or ahead of the next write's.
 */
const STORE_LINGER_MS = 100;
const STORE_ATTEMPTS = 3;
/** Repeated failures of one destination are logged at most this often. */
const LOG_EVERY_MS = 10_000;

/**
 * How the write worker's trail reports to the main thread's: each event, for the sinks (the main thread sends and
 * counts them), and its stored trail's state, for the main thread's metrics (the worker serves none).
 */
export interface AuditRelay {
  deliver(event: AuditEvent, subject: AuditSubject): void;
  /** After each attempt to store a batch: events still waiting, and those just given up on (and why). */
  store(waiting: number, dropped: number, reason: string): void;
}

@Injectable()
export class AuditTrail implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private readonly sinks: AuditSink[] = [];
  private relay: AuditRelay | null = null;
  /** The write worker's stored-trail backlog, as it last reported it. */
  private workerBacklog = 0;
  private readonly matches: EventMatcher;
  private readonly store: DeliveryQueue<StoredEvent> | null;
  private readonly counted: { delivered: Counter; dropped: Counter; waiting: Gauge } | null;
  private readonly lastLogged = new Map<string, number>();
  private refusals = 0;

  constructor(@Inject(CONFIG) config: FlagpoleConfig, repository: AuditRepository, metrics: MetricsRegistry, @Optional() tracing?: Tracing) {
    const { audit, limits } = config;
    this.matches = eventMatcher(audit.events);
    const capacity = limits.maxAuditBacklog;
    const maxBytes = limits.maxAuditBacklogBytes;
    const report: SinkReporter = {
      dropped: (sink, count, reason) => this.dropped(sink, count, reason),
      retrying: (sink, error, inMs) => this.warnSometimes(sink, `audit events to ${sink} not delivered yet (${error.message}); retrying in ${inMs} ms`),
    };
    const { log, webhook } = audit.sinks;
    if (log.enabled) {
      this.sinks.push(new LogSink(log.file, log.encoding === 'console' ? 'console' : 'json', rootLogger(config.log), maxBytes, (count, reason) => this.dropped('log', count, reason)));
    }
    if (webhook.enabled) {
      const options = { maxBackoffMs: webhook.maxBackoffDuration, capacity, maxBytes, tracing: tracing ?? Tracing.OFF };
      if (webhook.url) {
        this.sinks.push(new WebhookSink('webhook', { url: webhook.url, headers: {}, body: eventBody, signingSecret: webhook.signingSecret }, options, report));
      }
      webhook.templates.forEach((t, i) => {
        this.sinks.push(new WebhookSink(`webhook template ${i}`, { url: t.url, headers: t.headers, body: templateBody(t.body, t.headers), signingSecret: '' }, options, report));
      });
    }
    this.store = audit.storage.enabled
      ? new DeliveryQueue<StoredEvent>({
          send: (batch) => this.storeBatch(repository, batch),
          capacity,
          maxBytes,
          weigh: (stored) => eventBytes(stored.event),
          batchSize: STORE_BATCH,
          lingerMs: STORE_LINGER_MS,
          initialBackoffMs: 250,
          maxBackoffMs: 15_000,
          onDrop: (count, reason) => (this.relay ? this.relay.store(this.store?.waiting ?? 0, count, reason) : this.dropped('database', count, reason)),
          onRetry: (error, inMs) => this.warnSometimes('database', `audit events not stored yet (${error.message}); retrying in ${inMs} ms`),
          onAttempt: (waiting) => this.relay?.store(waiting, 0, ''),
        })
      : null;
    this.counted = metrics.enabled ? this.metrics(metrics) : null;
  }

  /**
   * In the write worker: its events are stored there, by the connection that committed their writes (so the main
   * thread spends nothing on them, and on SQLite the two threads do not take turns at the write lock for them), and
   * handed to the main thread's trail, which sends them to the sinks and counts them (`deliver`).
   */
  relayTo(relay: AuditRelay): void {
    this.relay = relay;
  }

  /**
   * An event the write worker committed and queued for its stored trail (AuditRelay.deliver): sent to the sinks
   * here, and counted as waiting in the worker until its next report.
   */
  relayed(event: AuditEvent, subject: AuditSubject): void {
    if (this.store) this.workerBacklog++;
    this.deliver(event, subject);
  }

  /** The write worker's report of its stored trail (AuditRelay.store). */
  workerStore(waiting: number, dropped: number, reason: string): void {
    this.workerBacklog = waiting;
    if (dropped > 0) this.dropped('database', dropped, reason);
  }

  /** The write worker ended (a crash): what it had not stored is lost with it, and counted as dropped. */
  workerStopped(): void {
    this.workerStore(0, this.workerBacklog, 'the write worker stopped before it stored them (the last batch may have been)');
  }

  /** A committed change: stored and sent on, in the background. */
  record(event: AuditEvent, subject: AuditSubject): void {
    this.store?.push({ id: timeOrderedId(Date.parse(event.timestamp)), event, subject });
    this.deliver(event, subject);
  }

  /** Sends a committed change's event to the sinks (an event the write worker stored itself comes in here). */
  private deliver(event: AuditEvent, subject: AuditSubject): void {
    if (this.relay) return this.relay.deliver(event, subject);
    if (this.sinks.length === 0 || !this.matches(event.type, event.action)) return;
    for (const sink of this.sinks) sink.send(event);
    this.counted?.delivered.inc();
  }

  get storing(): boolean {
    return this.store !== null;
  }

  /** Resolves once every stored-trail write so far has landed (or after `ms`): for tests and shutdown. */
  settled(ms = SHUTDOWN_WAIT_MS): Promise<boolean> {
    return this.store ? this.store.drained(ms) : Promise.resolve(true);
  }

  /** Before the database closes (its module closes it on application shutdown): what is waiting gets up to 5 s. */
  async beforeApplicationShutdown(): Promise<void> {
    const [, ...left] = await Promise.all([this.settled(), ...this.sinks.map((s) => s.close(SHUTDOWN_WAIT_MS))]);
    this.sinks.forEach((sink, i) => {
      if (left[i] > 0) this.logger.warn(`shutting down with ${left[i]} audit event(s) not delivered to ${sink.name}`);
    });
    if (this.store && this.store.waiting > 0) this.logger.warn(`shutting down with ${this.store.waiting} audit event(s) not stored`);
  }

  onApplicationShutdown(): void {
    this.store?.close();
  }

  /**
   * A batch the database refuses for a reason other than being unreachable (which no retry cures) is tried three
   * times, then dropped, so that it cannot hold up every event behind it.
   */
  private async storeBatch(repository: AuditRepository, batch: StoredEvent[]): Promise<void> {
    try {
      await repository.append(batch);
      this.refusals = 0;
    } catch (e) {
      if (isDatabaseUnreachable(e) || ++this.refusals < STORE_ATTEMPTS) throw e;
      this.refusals = 0;
      throw new Undeliverable(`the database refused them: ${(e as Error).message}`);
    }
  }

  private dropped(sink: string, count: number, reason: string): void {
    this.counted?.dropped.inc({ sink }, count);
    this.warnSometimes(`${sink} drop`, `${count} audit event(s) for ${sink} dropped: ${reason}`);
  }

  private warnSometimes(key: string, message: string): void {
    const at = Date.now();
    if ((this.lastLogged.get(key) ?? 0) + LOG_EVERY_MS > at) return;
    this.lastLogged.set(key, at);
    this.logger.warn(message);
  }

  private metrics(metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    const backlog = () => (this.store?.waiting ?? 0) + this.workerBacklog;
    return {
      delivered: new Counter({ name: 'flagpole_audit_events_total', help: 'Audit events handed to the sinks', registers }),
      dropped: new Counter({ name: 'flagpole_audit_events_dropped_total', help: 'Audit events given up on, by destination', labelNames: ['sink'], registers }),
      waiting: new Gauge({
        name: 'flagpole_audit_store_backlog',
        help: 'Audit events waiting to be written to the stored trail',
        registers,
        collect() {
          this.set(backlog());
        },
      }),
    };
  }
}
