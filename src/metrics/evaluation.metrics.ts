/**
 * Evaluation metrics, named as Flipt's (`flipt_evaluations_*` → `flagpole_evaluations_*`, facts §15):
 * requests and errors by namespace and flag, results by namespace, flag, type, reason, match and value, and the
 * latency of single evaluations in milliseconds by namespace. The evaluation service makes one call per outcome; each
 * costs a few Map lookups (ChildCache), two buffered increments (BufferedCounter) and, for single evaluations, one
 * histogram observation.
 *
 * Labels name only what exists: results come from stored flags and variants, and an error's namespace or flag that
 * does not exist is counted as `_unknown` (so request text never reaches /metrics). Each metric holds at most
 * `limits.max_metric_series` series; past it new combinations share the `_other` series.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import type { BooleanOutcome, Snapshot, VariantOutcome } from '../core';
import { BufferedCounter, type BufferedCounterChild } from './buffered-counter';
import { BufferedHistogram, type BufferedHistogramChild } from './buffered-histogram';
import { ChildCache } from './child-cache';
import { REASON_NAMES } from '../wire';
import { MetricsRegistry } from './metrics.registry';

/** The label of a namespace or flag that does not exist. */
export const UNKNOWN_LABEL = '_unknown';

interface ResultChildren {
  requests: BufferedCounterChild;
  results: BufferedCounterChild;
  latency: BufferedHistogramChild;
}

@Injectable()
export class EvaluationMetrics {
  private readonly enabled: boolean;
  private readonly results: ChildCache<ResultChildren>;
  private readonly errors: ChildCache<{ requests: BufferedCounterChild; errors: BufferedCounterChild }>;

  constructor(metrics: MetricsRegistry, @Inject(CONFIG) config: FlagpoleConfig) {
    this.enabled = metrics.enabled;
    const registers = [metrics.registry];
    const maxSeries = config.limits.maxMetricSeries;
    const requests = new BufferedCounter({
      name: 'flagpole_evaluations_requests_total',
      help: 'The total number of requested evaluations',
      labelNames: ['namespace', 'flag'],
      registers,
      maxSeries,
    });
    const errors = new BufferedCounter({
      name: 'flagpole_evaluations_errors_total',
      help: 'The total number of evaluations that failed (unknown flag, invalid request)',
      labelNames: ['namespace', 'flag'],
      registers,
      maxSeries,
    });
    const results = new BufferedCounter({
      name: 'flagpole_evaluations_results_total',
      help: 'Evaluation results by namespace, flag, type, reason, match and value',
      labelNames: ['namespace', 'flag', 'type', 'reason', 'match', 'value'],
      registers,
      maxSeries,
    });
    const latency = new BufferedHistogram({
      name: 'flagpole_evaluations_latency_milliseconds',
      help: 'The latency of single evaluations in milliseconds',
      labelNames: ['namespace'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 1000],
      registers,
      maxSeries,
    });
    this.results = new ChildCache(([namespace, flag, type, reason, match, value]) => ({
      requests: requests.labels(namespace, flag),
      results: results.labels(namespace, flag, type, reason, match, value),
      latency: latency.labels(namespace),
    }), maxSeries);
    this.errors = new ChildCache(([namespace, flag]) => ({ requests: requests.labels(namespace, flag), errors: errors.labels(namespace, flag) }), maxSeries);
  }

  /** `ms`: this evaluation's duration; left out where it is not measured alone (batch items). */
  variant(namespace: string, o: VariantOutcome, ms?: number): void {
    if (!this.enabled) return;
    this.record(this.results.get(namespace, o.flagKey, 'variant', REASON_NAMES[o.reason], o.match, o.variantKey), ms);
  }

  boolean(namespace: string, o: BooleanOutcome, ms?: number): void {
    if (!this.enabled) return;
    this.record(this.results.get(namespace, o.flagKey, 'boolean', REASON_NAMES[o.reason], o.reason === 'MATCH', o.enabled), ms);
  }

  /** A failed evaluation against `snapshot` (an empty one, without version, when the namespace does not exist). */
  error(snapshot: Snapshot, flagKey: string): void {
    if (!this.enabled) return;
    const c = this.errors.get(
      snapshot.version === '' ? UNKNOWN_LABEL : snapshot.key,
      snapshot.flags.has(flagKey) ? flagKey : UNKNOWN_LABEL,
    );
    c.requests.inc();
    c.errors.inc();
  }

  private record(c: ResultChildren, ms: number | undefined): void {
    c.requests.inc();
    c.results.inc();
    if (ms !== undefined) c.latency.observe(ms);
  }
}
