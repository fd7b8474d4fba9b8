/**
 * Evaluation analytics (issue 40; docs/api.md, Analytics), shown only when `/meta/info` says `analytics.enabled`:
 * how often the server evaluated flags, per step over a time range. Read through Flagpole's batch route (Flipt v2's
 * shape), which also says when each flag was last evaluated; one flag's tab asks it for one key. The route reads by
 * POST, under `internal/`, so the client marks nothing stale after it (query-keys.ts).
 */
import { api, enc } from './client';
import type { FlagCounts } from './types';

export type { FlagCounts } from './types';

/** What the counts are broken down by (`series`): each variant (boolean flags: `true`, `false`) or reason. */
export type GroupBy = 'variant' | 'reason';

export interface CountRange {
  from: Date;
  to: Date;
  groupBy?: GroupBy;
}

/** Each flag's counts over the range, by key; every key must name a flag of the namespace (at most 100). */
export async function flagCounts(ns: string, flagKeys: string[], range: CountRange, signal?: AbortSignal): Promise<Record<string, FlagCounts>> {
  const body = { flagKeys, from: range.from.toISOString(), to: range.to.toISOString(), groupBy: range.groupBy };
  return (await api.post<{ flagEvaluations: Record<string, FlagCounts> }>(`internal/v1/analytics/namespaces/${enc(ns)}/flags`, body, { signal }))
    .flagEvaluations;
}
