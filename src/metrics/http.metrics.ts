/**
 * HTTP requests by method, route pattern (`/api/v1/namespaces/:namespaceKey/flags/:key`, never the raw URL, whose
 * keys would make every flag its own series) and status, with a latency histogram. Requests that match no route are
 * counted under route `unmatched`.
 */
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BufferedCounter, type BufferedCounterChild } from './buffered-counter';
import { BufferedHistogram, type BufferedHistogramChild } from './buffered-histogram';
import { ChildCache } from './child-cache';
import { MetricsRegistry } from './metrics.registry';

const LABELS = ['method', 'route', 'status'] as const;

/** The request pipeline's respond stage calls `observe` for every response (request-pipeline.ts), in the server only. */
@Injectable()
export class HttpMetrics {
  private readonly children: ChildCache<{ count: BufferedCounterChild; latency: BufferedHistogramChild }>;

  constructor(private readonly metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    const requests = new BufferedCounter({ name: 'flagpole_http_requests_total', help: 'HTTP requests by method, route and status', labelNames: LABELS, registers });
    const duration = new BufferedHistogram({
      name: 'flagpole_http_request_duration_seconds',
      help: 'HTTP request latency in seconds by method, route and status',
      labelNames: LABELS,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.children = new ChildCache(([method, route, status]) => ({
      count: requests.labels(method, route, status),
      latency: duration.labels(method, route, status),
    }));
  }

  /** Whether `observe` counts anything (`metrics.enabled`). */
  get enabled(): boolean {
    return this.metrics.enabled;
  }

  observe(req: FastifyRequest, reply: FastifyReply): void {
    const child = this.children.get(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode);
    child.count.inc();
    child.latency.observe(reply.elapsedTime / 1000);
  }
}
