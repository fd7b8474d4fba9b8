/**
 * Reads evaluation counts back as Flipt's chart wants them: one value per step (analytics-range.ts), empty steps 0,
 * for one flag (Flipt's route) or many (the batch route, Flipt v2's shape), optionally broken down by variant or
 * reason, with the latest minute each flag was evaluated in. Where the counts come from (the database or Prometheus)
 * is the AnalyticsReader's business; the request is parsed, bounded and checked against the stored flags here, once.
 */
import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import { namespacedRef } from '../storage/lookup';
import { bucketsOf, minuteTimestamp, parseAnalyticsTime, type Buckets } from './analytics-range';
import { AnalyticsReader, type CountDimension, type CountSeries } from './analytics-reader';
import { AnalyticsRepository } from './analytics.repository';

/** Most steps of one flag's answer. */
export const MAX_STEPS = 10_000;
/** Most flags of one batch request, and most values of one batch answer (flags × steps). */
export const MAX_BATCH_FLAGS = 100;
export const MAX_BATCH_VALUES = 100_000;

export type { CountSeries };

export interface RangeQuery {
  from?: string;
  to?: string;
  groupBy?: string;
}

@Injectable()
export class AnalyticsService {
  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly reader: AnalyticsReader,
  ) {}

  /** Flipt's `GET /internal/v1/analytics/namespaces/{ns}/flags/{flag}`. */
  async flag(namespaceKey: string, flagKey: string, query: RangeQuery): Promise<CountSeries> {
    const { buckets, by } = this.range(query, MAX_STEPS);
    await this.existing(namespaceKey, [flagKey]);
    return (await this.reader.series(namespaceKey, [flagKey], buckets, by)).get(flagKey)!;
  }

  /** The batch route: each flag's series and the time of its latest counted minute (null: none within the retention). */
  async flags(namespaceKey: string, flagKeys: string[], query: RangeQuery): Promise<Record<string, CountSeries & { lastEvaluatedAt: string | null }>> {
    const keys = [...new Set(flagKeys)];
    if (keys.length === 0) throw new ValidationError('flagKeys', 'must name at least one flag');
    if (keys.length > MAX_BATCH_FLAGS) throw new ValidationError('flagKeys', `must name at most ${MAX_BATCH_FLAGS} flags`);
    const { buckets, by } = this.range(query, Math.floor(MAX_BATCH_VALUES / keys.length));
    await this.existing(namespaceKey, keys);
    const [series, latest] = await Promise.all([this.reader.series(namespaceKey, keys, buckets, by), this.reader.lastMinutes(namespaceKey, keys)]);
    const answer: Record<string, CountSeries & { lastEvaluatedAt: string | null }> = {};
    for (const key of keys) {
      const minute = latest.get(key);
      answer[key] = { ...series.get(key)!, lastEvaluatedAt: minute === undefined ? null : minuteTimestamp(minute) };
    }
    return answer;
  }

  private range(query: RangeQuery, maxSteps: number): { buckets: Buckets; by?: CountDimension } {
    const from = parseAnalyticsTime('from', query.from);
    const to = parseAnalyticsTime('to', query.to);
    const by = query.groupBy === undefined || query.groupBy === '' ? undefined : query.groupBy;
    if (by !== undefined && by !== 'variant' && by !== 'reason') throw new ValidationError('groupBy', 'must be variant or reason');
    return { buckets: bucketsOf(from, to, maxSteps), by };
  }

  /** Flipt's not-found errors: the namespace first, then the first flag it lacks. */
  private async existing(namespaceKey: string, flagKeys: string[]): Promise<void> {
    const found = await this.repository.existingFlags(namespaceKey, flagKeys);
    if (found === null) throw new NotFoundError(`namespace ${JSON.stringify(namespaceKey)}`);
    const missing = flagKeys.find((key) => !found.has(key));
    if (missing !== undefined) throw new NotFoundError(namespacedRef('flag', namespaceKey, missing));
  }
}
