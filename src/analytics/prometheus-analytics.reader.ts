/**
 * Counts read back from Prometheus (`analytics.storage.prometheus.enabled`): Flagpole keeps none itself; Prometheus
 * scrapes every instance's `/metrics` and each request is one query over all of them (promql.ts says which and why).
 * One range query answers any number of flags (`sum by (flag)`), with the breakdown when asked; `lastMinutes` is one
 * subquery over `analytics.retention` (a year when 0) at a resolution of at most 10,000 steps (5 minutes for 30 days).
 */
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { MINUTE_MS } from './evaluation-counter';
import type { Buckets } from './analytics-range';
import { AnalyticsReader, addTo, zeroSeries, type CountDimension, type CountSeries } from './analytics-reader';
import { PrometheusApi } from './prometheus-api';
import {
  LABEL_OF, countOf, lastGrowthQuery, resolutionFor, stepCountsQuery, stepEnd, stepIndex, valuesWithinQuery,
} from './promql';

/** How far `lastMinutes` looks back when analytics.retention is 0 (kept forever). */
const DEFAULT_WINDOW_MINUTES = 365 * 24 * 60;
/** Most evaluations per series of the `lastMinutes` subquery. */
const MAX_SUBQUERY_POINTS = 10_000;

@Injectable()
export class PrometheusAnalyticsReader extends AnalyticsReader implements OnApplicationShutdown {
  private readonly api: PrometheusApi;
  private readonly windowMinutes: number;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    super();
    const { url, headers, timeout } = config.analytics.storage.prometheus;
    // An environment variable cannot hold a dash: `…_HEADERS_X_SCOPE_ORGID` is `X-Scope-OrgID`.
    const named = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/_/g, '-'), value]));
    this.api = new PrometheusApi({ url, headers: named, timeoutMs: timeout });
    this.windowMinutes = config.analytics.retention > 0 ? Math.ceil(config.analytics.retention / MINUTE_MS) : DEFAULT_WINDOW_MINUTES;
  }

  async series(namespaceKey: string, flagKeys: string[], buckets: Buckets, by?: CountDimension): Promise<Map<string, CountSeries>> {
    const { step, firstMinute, count } = buckets;
    const matrix = await this.api.range(
      stepCountsQuery(namespaceKey, flagKeys, step, by),
      stepEnd(firstMinute, step, 0),
      stepEnd(firstMinute, step, count - 1),
      step * 60,
    );
    const answers = zeroSeries(flagKeys, buckets, by);
    for (const { metric, values } of matrix) {
      const answer = answers.get(metric.flag ?? '');
      if (!answer) continue;
      // A label Prometheus leaves out is empty: a variant flag's result without a variant, as the database keeps it.
      const name = by ? metric[LABEL_OF[by]] ?? '' : undefined;
      for (const [seconds, text] of values) {
        const i = stepIndex(seconds, firstMinute, step, count);
        if (i >= 0) addTo(answer, i, countOf(text), name);
      }
    }
    return answers;
  }

  async lastMinutes(namespaceKey: string, flagKeys: string[]): Promise<Map<string, number>> {
    const latest = new Map<string, number>();
    if (flagKeys.length === 0) return latest;
    const { minutes, resolution, end } = this.window(this.windowMinutes);
    const vector = await this.api.instant(lastGrowthQuery(namespaceKey, flagKeys, minutes, resolution), end);
    for (const { metric, value } of vector) {
      // The end of the step it grew in; the answer is that step's start, as the database answers a minute's.
      if (metric.flag !== undefined) latest.set(metric.flag, Math.round((countOf(value[1]) * 1000) / MINUTE_MS) - resolution);
    }
    return latest;
  }

  /**
   * Per flag and value (variant key, or `true`/`false`), the evaluations counted in the last `windowMs` before
   * Prometheus's now (a length, not a time: the lifecycle's clock may be moved by tests, Prometheus's is not).
   */
  async valuesWithin(namespaceKey: string, flagKeys: string[], windowMs: number): Promise<Map<string, Map<string, number>>> {
    const answer = new Map<string, Map<string, number>>();
    if (flagKeys.length === 0 || windowMs <= 0) return answer;
    const { minutes, resolution, end } = this.window(Math.ceil(windowMs / MINUTE_MS));
    for (const { metric, value } of await this.api.instant(valuesWithinQuery(namespaceKey, flagKeys, minutes, resolution), end)) {
      const n = countOf(value[1]);
      if (metric.flag === undefined || n <= 0) continue;
      let values = answer.get(metric.flag);
      if (!values) answer.set(metric.flag, (values = new Map()));
      values.set(metric.value ?? '', n);
    }
    return answer;
  }

  /**
   * A subquery's window: its resolution (at most 10,000 points per series) and the time to evaluate it at, the end of
   * the step now is in. The subquery's steps end on multiples of the resolution, and the last one before now would
   * miss what was counted since. Unix seconds.
   */
  private window(minutes: number): { minutes: number; resolution: number; end: number } {
    const resolution = resolutionFor(minutes, MAX_SUBQUERY_POINTS);
    return { minutes, resolution, end: Math.ceil(Date.now() / (resolution * MINUTE_MS)) * resolution * 60 };
  }

  onApplicationShutdown(): void {
    this.api.close();
  }
}
