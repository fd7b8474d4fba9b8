/**
 * `metrics.exporter: otlp`: the metrics `/metrics` shows, pushed every `metrics.export_interval` to
 * `metrics.otlp.endpoint` (Flipt's scheme rule, config/otlp-endpoint.ts) by OpenTelemetry's periodic reader, read
 * from the same registry (prometheus-producer.ts), so the push and the scrape never disagree. `/metrics` keeps
 * serving. The last push happens as the application closes, waiting a bounded time for a receiver that does not
 * answer.
 */
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { atMost } from '../tracing/at-most';
import { MetricsRegistry } from './metrics.registry';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

const SHUTDOWN_WAIT_MS = 2_000;

@ProcessDuty()
@Injectable()
export class OtlpMetricsPush implements ProcessDutyProvider, OnApplicationShutdown {
  private stop: (() => Promise<void>) | null = null;

  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {}

  start(): void {
    const { metrics } = this.config;
    if (!metrics.enabled || metrics.exporter !== 'otlp') return;
    // Required here, not imported: without the OTLP exporter no start loads the metrics SDK.
    const { startMetricsPush } = require('./otlp-metrics-setup') as typeof import('./otlp-metrics-setup');
    this.stop = startMetricsPush(this.metrics.registry, this.config);
    new Logger('Metrics').log(`pushing metrics over OTLP to ${metrics.otlp.endpoint} every ${metrics.exportInterval} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.stop) await atMost(this.stop(), SHUTDOWN_WAIT_MS);
  }
}
