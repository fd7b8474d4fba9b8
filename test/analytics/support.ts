/** Shared pieces of the analytics suites: a server with analytics on, its flush, and the routes' calls. */
import { AnalyticsRepository } from '../../src/analytics/analytics.repository';
import { EvaluationCounts } from '../../src/analytics/evaluation-counts.service';
import type { CountRow } from '../../src/analytics/evaluation-counter';
import type { RunningFlagpole } from '../support/flagpole';
import { client } from '../support/flagpole';

export type Api = ReturnType<typeof client>;

export const ANALYTICS_ON: Record<string, string> = { FLAGPOLE_ANALYTICS_ENABLED: 'true' };

export const MINUTE = 60_000;

/** Writes what the instance holds now (its timer's period, Flipt's 10 s minimum, is too long for a test). */
export function flush(fp: RunningFlagpole): Promise<void> {
  return fp.app.get(EvaluationCounts).flush();
}

/** Stores counts as a flush would, at chosen minutes (minutes since the epoch). */
export function store(fp: RunningFlagpole, rows: Array<Omit<CountRow, 'namespaceKey' | 'variantKey' | 'reason'> & Partial<CountRow>>): Promise<void> {
  return fp.app.get(AnalyticsRepository).add(rows.map((r) => ({ namespaceKey: 'default', variantKey: 'v', reason: 2, ...r })));
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export const flagPath = (ns: string, flag: string) => `/internal/v1/analytics/namespaces/${encodeURIComponent(ns)}/flags/${encodeURIComponent(flag)}`;

export function countsOf(api: Api, ns: string, flag: string, from: string, to: string, extra = '') {
  return api.get(`${flagPath(ns, flag)}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`);
}

export function batchOf(api: Api, ns: string, body: Record<string, unknown>) {
  return api.post(`/internal/v1/analytics/namespaces/${encodeURIComponent(ns)}/flags`, body);
}

/** The last hour up to the next minute: every evaluation a test just made, in 1-minute steps. */
export function lastHour(): { from: string; to: string } {
  const now = Date.now();
  return { from: iso(now - 60 * MINUTE), to: iso(now + MINUTE) };
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Each flag's total over the last hour, from the batch route. */
export async function totals(api: Api, ns: string, flagKeys: string[]): Promise<Record<string, number>> {
  const r = await batchOf(api, ns, { flagKeys, ...lastHour() });
  if (r.status !== 200) throw new Error(`batch analytics: ${r.status} ${r.text}`);
  const answer = r.body.flagEvaluations as Record<string, { values: number[] }>;
  return Object.fromEntries(Object.entries(answer).map(([key, { values }]) => [key, sum(values)]));
}
