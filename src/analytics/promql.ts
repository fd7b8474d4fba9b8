/**
 * The PromQL that reads evaluation counts back from Prometheus (`analytics.storage.prometheus`), and how its answers
 * become the series the database mode gives. Pure.
 *
 * Counts come from `flagpole_evaluations_results_total`, the evaluations that returned a result, as the database mode
 * counts them (`flagpole_evaluations_requests_total` also holds failed ones). Not Flipt's
 * `sum(increase(…[Nm]))`: increase() extrapolates to the window's edges (4.7 evaluations) and never counts a series'
 * first sample, so a flag evaluated a few times in one burst shows nothing. Here each minute is each series' growth
 * across it: its last value at the minute's end minus its last value at the minute's start, and a longer step sums
 * its minutes. A series that had no value at the start (a flag's first evaluation on an instance, a new instance)
 * counts from 0, and one that went down (an instance restarted) counts its value since the restart. Summed over the
 * steps, that is exactly what was scraped, attributed to the step it was scraped in.
 */
import { MINUTE_MS } from './evaluation-counter';

export const RESULTS_METRIC = 'flagpole_evaluations_results_total';

/** The label a breakdown reads: the result's variant (boolean flags: `true`, `false`) or reason. */
export const LABEL_OF = { variant: 'value', reason: 'reason' } as const;
export type Breakdown = keyof typeof LABEL_OF;

/** How far back a step's start looks for a series' last value: scrapes that stop for longer count from 0 again. */
const GAP_MINUTES = 60;

/** A PromQL string literal: a JSON string is one (PromQL reads Go's escapes: `\"`, `\\`, `\n`, `\u00XX`). */
export function promString(value: string): string {
  return JSON.stringify(value);
}

/** A regular expression (RE2, anchored by Prometheus) matching exactly these strings. */
export function exactlyOneOf(values: string[]): string {
  return values.map((v) => v.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')).join('|');
}

/** The results of these flags in one namespace. */
export function resultsOf(namespaceKey: string, flagKeys: string[]): string {
  const flag = flagKeys.length === 1 ? `flag=${promString(flagKeys[0])}` : `flag=~${promString(exactlyOneOf(flagKeys))}`;
  return `${RESULTS_METRIC}{namespace=${promString(namespaceKey)},${flag}}`;
}

/**
 * Each series' growth over the `stepMinutes` before each evaluation time (module comment). The last value now looks
 * back at least 5 minutes (Prometheus's own staleness), the one at the step's start an hour more, so that a scrape
 * gap shorter than that does not count a series from 0 again.
 */
export function growth(selector: string, stepMinutes: number): string {
  const now = Math.max(stepMinutes, 5);
  const current = `last_over_time(${selector}[${now}m])`;
  const before = `last_over_time(${selector}[${now + GAP_MINUTES}m] offset ${stepMinutes}m)`;
  // `* 1` drops the metric name last_over_time keeps: a series must look the same whichever side of `or` it comes
  // from, or a subquery over it holds two series that differ only by their name.
  return `((${current} - ${before}) >= 0) or (${current} * 1)`;
}

/**
 * Each series' growth over the `stepMinutes` before each evaluation time, as the sum of its growth minute by minute
 * (a subquery of exactly `stepMinutes` points), so that an instance restarting within a longer step is seen.
 */
export function stepGrowth(selector: string, stepMinutes: number): string {
  const perMinute = growth(selector, 1);
  // `-1s`: the subquery's points are whole minutes, and the one at the previous step's end belongs to that step.
  return stepMinutes === 1 ? perMinute : `sum_over_time((${perMinute})[${stepMinutes * 60 - 1}s:1m])`;
}

/** Per flag (and per variant or reason, when asked) and step, the evaluations counted in the step. */
export function stepCountsQuery(namespaceKey: string, flagKeys: string[], stepMinutes: number, by?: Breakdown): string {
  const labels = by ? `flag, ${LABEL_OF[by]}` : 'flag';
  return `sum by (${labels}) (${stepGrowth(resultsOf(namespaceKey, flagKeys), stepMinutes)})`;
}

/**
 * Per flag, the end (Unix seconds) of the latest step of `resolutionMinutes`, within the last `windowMinutes`, in
 * which its results grew: a subquery, so its cost is bounded by window / resolution evaluations per series.
 */
export function lastGrowthQuery(namespaceKey: string, flagKeys: string[], windowMinutes: number, resolutionMinutes: number): string {
  const grew = `sum by (flag) (${growth(resultsOf(namespaceKey, flagKeys), resolutionMinutes)}) > 0`;
  return `max_over_time((timestamp(${grew}))[${windowMinutes}m:${resolutionMinutes}m])`;
}

/**
 * Per flag and value, the evaluations counted in the last `windowMinutes` (one instant query at a time that is a
 * multiple of the resolution): each series' growth per `resolutionMinutes` step, summed, so that a restart within the
 * window does not hide what was counted before it.
 */
export function valuesWithinQuery(namespaceKey: string, flagKeys: string[], windowMinutes: number, resolutionMinutes: number): string {
  const grew = growth(resultsOf(namespaceKey, flagKeys), resolutionMinutes);
  return `sum by (flag, value) (sum_over_time((${grew})[${windowMinutes * 60 - 1}s:${resolutionMinutes}m]))`;
}

/** The resolution of `lastGrowthQuery` over a window: whole minutes, at most `maxPoints` evaluations per series. */
export function resolutionFor(windowMinutes: number, maxPoints: number): number {
  return Math.max(1, Math.ceil(windowMinutes / maxPoints));
}

/** One series of a Prometheus `matrix` answer. */
export interface MatrixSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}

/** One series of a Prometheus `vector` answer. */
export interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** A sample's value as a count: Prometheus writes floats as text; anything not finite counts 0. */
export function countOf(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The evaluation time of step `i` of a range whose first step starts at `firstMinute`: its end, since each point
 * counts what grew in the step before it (`growth`). Unix seconds, as Prometheus takes and answers them.
 */
export function stepEnd(firstMinute: number, stepMinutes: number, i: number): number {
  return ((firstMinute + (i + 1) * stepMinutes) * MINUTE_MS) / 1000;
}

/** The step a point evaluated at `seconds` belongs to (-1 when it is none of the range's). */
export function stepIndex(seconds: number, firstMinute: number, stepMinutes: number, count: number): number {
  const i = Math.round((seconds * 1000) / MINUTE_MS - firstMinute) / stepMinutes - 1;
  return Number.isInteger(i) && i >= 0 && i < count ? i : -1;
}
