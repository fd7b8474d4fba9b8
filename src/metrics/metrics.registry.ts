/**
 * The application's Prometheus registry. Each application gets its own (not prom-client's global one), so several
 * applications in one process — the test suites — never clash over metric names.
 */
import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';

@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly enabled: boolean;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.enabled = config.metrics.enabled;
    // Node's process and runtime metrics (process_*, nodejs_*), as Flipt exposes Go's.
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }
}
