/**
 * Flagpole's OpenTelemetry traces (`tracing.*`). One Tracing per application, made by createApp before anything
 * else: `Tracing.OFF` when tracing is off, whose `on` is false and whose `inSpan` just runs the work, so a request
 * pays one boolean check and nothing is registered (no hooks, no async context, no SDK).
 *
 * When on, spans are explicit, at the few places that matter (server-spans.ts, evaluation-spans.ts, the database's
 * writes, snapshot loads, audit deliveries), not OpenTelemetry's auto-instrumentation: that patches `http` and
 * Fastify for every request, and adds spans for every hook and middleware, at several times the cost. The current
 * span travels in this application's own AsyncLocalStorage (entered as a request's handler starts), not in a global
 * context manager, so several applications in one process (the tests) keep their traces apart.
 *
 * Sampling is by trace id at `tracing.sampling_ratio`, for continued traces too (as Flipt samples): 0 sends nothing.
 * Spans go through a batch processor with a bounded queue (2048 spans; past it new spans are dropped) and each export
 * gives up after EXPORT_TIMEOUT_MS, so a receiver that is down or silent never holds a request up.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type TextMapPropagator, type Tracer,
} from '@opentelemetry/api';
import type { TracingConfig } from '../config/config.types';
import { atMost } from './at-most';
import type { TracerSetup } from './tracer-setup';

/** How long closing the application waits for the last spans to leave. */
const SHUTDOWN_WAIT_MS = 2_000;

export class Tracing {
  static readonly OFF = new Tracing(null);

  readonly on: boolean;
  private readonly setup: TracerSetup | null = null;
  private readonly tracer: Tracer | null = null;
  private readonly propagator: TextMapPropagator | null = null;
  private readonly current: AsyncLocalStorage<Context> | null = null;

  private constructor(config: TracingConfig | null) {
    this.on = config !== null;
    if (!config) return;
    // Required here, not imported: tracing off loads none of the SDK.
    const { tracerSetup } = require('./tracer-setup') as typeof import('./tracer-setup');
    this.setup = tracerSetup(config);
    this.tracer = this.setup.tracer;
    this.propagator = this.setup.propagator;
    this.current = new AsyncLocalStorage<Context>();
  }

  static from(config: TracingConfig): Tracing {
    return config.enabled ? new Tracing(config) : Tracing.OFF;
  }

  /** The context an incoming request's headers carry (its `traceparent`, `baggage`, B3 headers), or the root. */
  incoming(headers: Record<string, unknown>): Context {
    return this.propagator!.extract(ROOT_CONTEXT, headers, HEADER_GETTER);
  }

  /** A span started as a child of `parent`; `kind` SERVER for a request's own. */
  start(name: string, parent: Context, attributes: Attributes, kind: SpanKind = SpanKind.INTERNAL, startTime?: number): Span {
    return this.tracer!.startSpan(name, { kind, attributes, startTime }, parent);
  }

  /** Runs `work` with `span` as the current span (so what it starts, however async, is its child). */
  within<T>(span: Span, work: () => T): T {
    return this.current!.run(trace.setSpan(this.active(), span), work);
  }

  /** The current context: the span of the request or write being served, if any. */
  active(): Context {
    return this.current?.getStore() ?? ROOT_CONTEXT;
  }

  /**
   * Whether a child of `parent` would be recorded. Sampling is by trace id, so the child of a span sampled out is
   * sampled out too: its attributes need not be built, nor its span started (at ratio 0.01, 99 requests in 100).
   */
  records(parent: Context): boolean {
    return trace.getSpan(parent)?.isRecording() ?? true;
  }

  /** Runs `work` inside a span of its own, a child of the current one, ended when the work settles. */
  inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
    if (!this.on) return work();
    const parent = this.active();
    if (!this.records(parent)) return work();
    const span = this.start(name, parent, attributes);
    return this.within(span, work).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        failed(span, error);
        span.end();
        throw error;
      },
    );
  }

  /** Sends what is left, waiting at most SHUTDOWN_WAIT_MS (an unreachable receiver does not hold the exit up). */
  async shutdown(): Promise<void> {
    if (!this.setup) return;
    await atMost(this.setup.shutdown(), SHUTDOWN_WAIT_MS);
  }
}

/** Marks a span failed with the error's type and message (never a stack or a request's content). */
export function failed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute('error.type', error instanceof Error ? error.constructor.name : typeof error);
}

/** Node's headers are lower-cased; a repeated header arrives as an array. */
const HEADER_GETTER = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => carrier[key.toLowerCase()] as string | string[] | undefined,
};
