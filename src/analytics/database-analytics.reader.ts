/**
 * Counts read from Flagpole's own database (`analytics.enabled`): the per-minute rows of `analytics_counts` summed
 * into the range's steps. Counts an instance still holds (at most one flush period's) are not in the answer yet.
 */
import { Injectable } from '@nestjs/common';
import { REASON_NAMES } from '../wire';
import type { Buckets } from './analytics-range';
import { AnalyticsReader, addTo, zeroSeries, type CountDimension, type CountSeries } from './analytics-reader';
import { AnalyticsRepository } from './analytics.repository';
import { REASON_NUMBERS } from './evaluation-counter';

const REASON_BY_NUMBER = Object.fromEntries(Object.entries(REASON_NUMBERS).map(([reason, n]) => [n, REASON_NAMES[reason as keyof typeof REASON_NUMBERS]]));

@Injectable()
export class DatabaseAnalyticsReader extends AnalyticsReader {
  constructor(private readonly repository: AnalyticsRepository) {
    super();
  }

  async series(namespaceKey: string, flagKeys: string[], buckets: Buckets, by?: CountDimension): Promise<Map<string, CountSeries>> {
    const { step, firstMinute, lastMinute } = buckets;
    const counts = await this.repository.counts(namespaceKey, flagKeys, firstMinute, lastMinute + step - 1, by);
    const answers = zeroSeries(flagKeys, buckets, by);
    for (const row of counts) {
      const name = row.group === undefined ? undefined : typeof row.group === 'number' ? REASON_BY_NUMBER[row.group] ?? String(row.group) : row.group;
      addTo(answers.get(row.flagKey)!, Math.floor((row.minute - firstMinute) / step), row.count, name);
    }
    return answers;
  }

  lastMinutes(namespaceKey: string, flagKeys: string[]): Promise<Map<string, number>> {
    return this.repository.latestMinutes(namespaceKey, flagKeys);
  }
}
