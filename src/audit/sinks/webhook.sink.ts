/**
 * The webhook sink: each event is POSTed as JSON, one per request, in order, to `audit.sinks.webhook.url` (signed:
 * hex HMAC-SHA256 of the body under `signing_secret`, in `x-flipt-webhook-signature` and
 * `x-flagpole-webhook-signature`), or to each template's URL with its rendered body and headers (unsigned, as in
 * Flipt). Each destination has its own DeliveryQueue: retried with back-off up to `max_backoff_duration` between
 * tries while the receiver is down or answers 5xx, 408 or 429; another 4xx drops the event (logged), since sending it
 * again would get the same answer.
 *
 * Posted with node:http(s) over one kept-alive connection rather than fetch: the webhook runs beside the writes, and
 * fetch's per-request cost showed up in their latency (bench/audit.js).
 */
import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { eventBytes, type AuditEvent } from '../audit-event';
import { DeliveryQueue, Undeliverable } from '../delivery-queue';
import { Tracing } from '../../tracing/tracing';
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
  private readonly url: URL;
  private readonly agent: HttpAgent;

  constructor(
    readonly name: string,
    private readonly target: WebhookTarget,
    options: { maxBackoffMs: number; capacity: number; maxBytes: number; tracing?: Tracing },
    report: SinkReporter,
  ) {
    this.url = new URL(target.url);
    this.agent = this.url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 1 }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
    this.queue = new DeliveryQueue<AuditEvent>({
      // Each try is a span of its own (a child of the write's request while it is current): the receiver's host,
      // never its URL, whose query may carry a key.
      send: ([event]) =>
        (options.tracing ?? Tracing.OFF).inSpan('audit.delivery', { 'flagpole.audit.sink': name, 'flagpole.audit.event': `${event.type}:${event.action}`, 'server.address': this.url.hostname }, () => this.post(event)),
      capacity: options.capacity,
      maxBytes: options.maxBytes,
      weigh: eventBytes,
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
    this.agent.destroy();
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
    const status = await this.postBody(body, headers);
    if (status >= 200 && status < 300) return;
    const message = `${this.target.url} answered ${status}`;
    if (status >= 500 || status === 408 || status === 429) throw new Error(message);
    throw new Undeliverable(message);
  }

  /** One POST; resolves with the answer's status once its body has been read (and discarded). */
  private postBody(body: string, headers: Record<string, string>): Promise<number> {
    const request = this.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: this.agent, timeout: REQUEST_TIMEOUT_MS },
        (res: IncomingMessage) => {
          res.on('error', reject);
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer from ${this.target.url} within ${REQUEST_TIMEOUT_MS / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** The plain webhook: the event's JSON. */
export const eventBody = (event: AuditEvent): string => JSON.stringify(event);

export const templateBody = (template: string, headers: Record<string, string>) => (event: AuditEvent): string => renderTemplate(template, event, headers);
