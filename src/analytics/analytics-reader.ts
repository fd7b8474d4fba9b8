/**
 * The one seam between the analytics routes and where counts are kept: Flagpole's database (`analytics.enabled`,
 * database-analytics.reader.ts) or Prometheus (`analytics.storage.prometheus.enabled`,
 * prometheus-analytics.reader.ts). The module picks one from the configuration; the service parses, checks and
 * bounds the request before either is asked.
 */
import type { Buckets } from './analytics-range';
import { minuteTimestamp } from './analytics-range';

/** A breakdown of the counts: by variant (boolean flags: `true`, `false`) or by reason. */
export type CountDimension = 'variant' | 'reason';

export interface CountSeries {
  timestamps: string[];
  values: number[];
  /** With `groupBy`: the values of each variant (boolean flags: `true`, `false`) or reason, over the same steps. */
  series?: Record<string, number[]>;
}

export abstract class AnalyticsReader {
  /** Each flag's counts per step of `buckets`, 0 where none, with the breakdown `by` asks for. */
  abstract series(namespaceKey: string, flagKeys: string[], buckets: Buckets, by?: CountDimension): Promise<Map<string, CountSeries>>;

  /** The start of the latest minute each flag was evaluated in (minutes since the epoch); absent when none is known. */
  abstract lastMinutes(namespaceKey: string, flagKeys: string[]): Promise<Map<string, number>>;
}

/** Every flag's answer with all steps 0: what each reader adds its counts to. */
export function zeroSeries(flagKeys: string[], buckets: Buckets, by?: CountDimension): Map<string, CountSeries> {
  const { step, firstMinute, count } = buckets;
  const timestamps = Array.from({ length: count }, (_, i) => minuteTimestamp(firstMinute + i * step));
  const answers = new Map<string, CountSeries>();
  for (const key of flagKeys) answers.set(key, { timestamps: [...timestamps], values: new Array<number>(count).fill(0), ...(by ? { series: {} } : {}) });
  return answers;
}

/** Adds `n` to step `i` of a flag's answer, and of its `name` series when it has a breakdown. */
export function addTo(answer: CountSeries, i: number, n: number, name: string | undefined): void {
  answer.values[i] += n;
  if (answer.series && name !== undefined) (answer.series[name] ??= new Array<number>(answer.values.length).fill(0))[i] += n;
}
