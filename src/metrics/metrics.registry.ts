/**
 * The application's Prometheus registry. Each application gets its own (not prom-client's global one), so several
 * applications in one process — the test suites — never clash over metric names.
 */
import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { IN_WRITE_WORKER } from '../write-worker/role';
import { metricsTextChunks } from './metrics-text';

@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly enabled: boolean;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.enabled = config.metrics.enabled;
    // Node's process and runtime metrics (process_*, nodejs_*), as Flipt exposes Go's. Not in the write worker,
    // whose registry no one scrapes: their event-loop delay monitor would wake its thread every 10 ms.
    if (this.enabled && !IN_WRITE_WORKER) collectDefaultMetrics({ register: this.registry });
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
