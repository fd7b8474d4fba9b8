/**
 * The webhook sink: each event is POSTed as JSON, one per request, in order, to `audit.sinks.webhook.url` (signed:
 * hex HMAC-SHA256 of the body under `signing_secret`, in `x-flipt-webhook-signature` and
 * `x-flagpole-webhook-signature`), or to each template's URL with its rendered body and headers (unsigned, as in
 * Flipt). Each destination has its own DeliveryQueue: retried with back-off up to `max_backoff_duration` between
 * tries while the receiver is down or answers 5xx, 408 or 429; another 4xx drops the event (logged), since sending it
 * again would get the same answer.
 */
import { createHmac } from 'node:crypto';
import type { AuditEvent } from '../audit-event';
import { DeliveryQueue, Undeliverable } from '../delivery-queue';
import type { AuditSink } from './audit-sink';
import { renderTemplate } from './webhook-template';

export const SIGNATURE_HEADERS = ['x-flipt-webhook-signature', 'x-flagpole-webhook-signature'] as const;

/** A receiver that takes longer than this to answer is counted as failed (and the event tried again). */
const REQUEST_TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 250;

export interface WebhookTarget {
  url: string;
  headers: Record<string, string>;
  /** The request body for an event; throwing drops the event. */
  body: (event: AuditEvent) => string;
  signingSecret: string;
}

export interface SinkReporter {
  dropped(sink: string, count: number, reason: string): void;
  retrying(sink: string, error: Error, inMs: number): void;
}

export function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export class WebhookSink implements AuditSink {
  private readonly queue: DeliveryQueue<AuditEvent>;

  constructor(
    readonly name: string,
    private readonly target: WebhookTarget,
    options: { maxBackoffMs: number; capacity: number },
    report: SinkReporter,
  ) {
    this.queue = new DeliveryQueue<AuditEvent>({
      send: ([event]) => this.post(event),
      capacity: options.capacity,
      batchSize: 1,
      initialBackoffMs: Math.min(FIRST_RETRY_MS, options.maxBackoffMs),
      maxBackoffMs: options.maxBackoffMs,
      onDrop: (count, reason) => report.dropped(name, count, reason),
      onRetry: (error, inMs) => report.retrying(name, error, inMs),
    });
  }

  send(event: AuditEvent): void {
    this.queue.push(event);
  }

  async close(waitMs: number): Promise<number> {
    await this.queue.drained(waitMs);
    this.queue.close();
    return this.queue.waiting;
  }

  private async post(event: AuditEvent): Promise<void> {
    let body: string;
    try {
      body = this.target.body(event);
    } catch (e) {
      throw new Undeliverable(`the template cannot render this event: ${(e as Error).message}`);
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', ...this.target.headers };
    if (this.target.signingSecret) {
      const signed = signature(this.target.signingSecret, body);
      for (const name of SIGNATURE_HEADERS) headers[name] = signed;
    }
    const response = await fetch(this.target.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return;
    const message = `${this.target.url} answered ${response.status}`;
    if (response.status >= 500 || response.status === 408 || response.status === 429) throw new Error(message);
    throw new Undeliverable(message);
  }
}

/** The plain webhook: the event's JSON. */
export const eventBody = (event: AuditEvent): string => JSON.stringify(event);

export const templateBody = (template: string) => (event: AuditEvent): string => renderTemplate(template, event);
