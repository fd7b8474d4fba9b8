/**
 * What the flag lifecycle (src/lifecycle) asks of analytics: when each flag was last evaluated, and which values its
 * evaluations returned since a time. `counted` is false when analytics is off: the lifecycle then judges by age alone.
 * Provided by the lifecycle module (its only user); the latest minute comes through the AnalyticsReader, so it follows
 * the storage analytics reads from.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { Database } from '../storage/database.service';
import { knexOf, num, str } from '../storage/rows';
import { AnalyticsReader } from './analytics-reader';
import { analyticsStorage, type AnalyticsStorage } from '../config/analytics-storage';
import { MINUTE_MS } from './evaluation-counter';
import { PrometheusAnalyticsReader } from './prometheus-analytics.reader';

@Injectable()
export class AnalyticsUsage {
  readonly counted: boolean;
  private readonly storage: AnalyticsStorage | null;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly reader: AnalyticsReader,
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.storage = analyticsStorage(config);
    this.counted = this.storage !== null;
  }

  /** The start of the latest minute each flag was evaluated in; flags without one (within the retention) are absent. */
  async lastEvaluated(namespaceKey: string, flagKeys: string[]): Promise<Map<string, Date>> {
    if (!this.counted || flagKeys.length === 0) return new Map();
    const minutes = await this.reader.lastMinutes(namespaceKey, flagKeys);
    return new Map([...minutes].map(([key, minute]) => [key, new Date(minute * MINUTE_MS)]));
  }

  /** Per flag, how many evaluations returned each value (variant key, or `true`/`false`) from `since`'s minute on. */
  async valuesSince(namespaceKey: string, flagKeys: string[], since: Date): Promise<Map<string, Map<string, number>>> {
    const out = new Map<string, Map<string, number>>();
    if (!this.counted || flagKeys.length === 0) return out;
    // Prometheus knows only its own now: it is asked for the window's length, measured on the lifecycle's clock.
    if (this.reader instanceof PrometheusAnalyticsReader) return this.reader.valuesWithin(namespaceKey, flagKeys, this.clock.now() - since.getTime());
    const rows = (await this.db.read((em) =>
      knexOf(em)('analytics_counts')
        .select('flag_key', 'variant_key')
        .sum({ total: 'count' })
        .where('namespace_key', namespaceKey)
        .whereIn('flag_key', flagKeys)
        .andWhere('minute', '>=', Math.floor(since.getTime() / MINUTE_MS))
        .groupBy(['flag_key', 'variant_key']),
    )) as Array<Record<string, unknown>>;
    for (const row of rows) {
      const key = str(row.flag_key);
      if (!out.has(key)) out.set(key, new Map());
      out.get(key)!.set(str(row.variant_key), num(row.total));
    }
    return out;
  }
}
