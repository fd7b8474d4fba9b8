/**
 * The application's Prometheus registry. Each application gets its own (not prom-client's global one), so several
 * applications in one process — the test suites — never clash over metric names.
 */
import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { metricsTextChunks } from './metrics-text';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

@ProcessDuty()
@Injectable()
export class MetricsRegistry implements ProcessDutyProvider {
  readonly registry = new Registry();
  readonly enabled: boolean;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.enabled = config.metrics.enabled;
  }

  /**
   * Node's process and runtime metrics (process_*, nodejs_*), as Flipt exposes Go's. A process duty: the write worker's
   * registry is never scraped, and their event-loop delay monitor would wake its thread every 10 ms.
   */
  start(): void {
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * What `registry.metrics()` prints, as a stream of chunks rendered a few ms at a time (metrics-text.ts), so that a
   * large scrape holds no request up: neither while it is rendered nor while it is joined and encoded (at the
   * 10,000-series default, 17 MB: about 10 ms each in one piece).
   */
  textStream(): Readable {
    return Readable.from(metricsTextChunks(this.registry));
  }
}
