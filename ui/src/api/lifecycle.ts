/**
 * Flag lifecycle (issue 40; docs/api.md, *Flag lifecycle*): each flag's kind and state (new, live, potentially stale,
 * archived) with the reasons it may be stale, and a namespace's flag-health report. The state is the one the server's
 * last periodic check stored (`checkedAt`); kind and archive are written in the flag's metadata (lib/lifecycle.ts),
 * by the flag's own update. `?stale=` on the flags list is in api/flags.ts.
 */
import { withLifecycle, type LifecycleMarks } from '../lib/lifecycle';
import { api, enc } from './client';
import { flagChanges, getFlag, updateFlag } from './flags';
import type { Flag, FlagHealth, FlagLifecycle, StaleFlag } from './types';

export type { FlagHealth, FlagLifecycle, StaleFlag, StaleReason } from './types';

const nsPath = (ns: string) => `api/v1/namespaces/${enc(ns)}`;

export const getFlagLifecycle = (ns: string, flagKey: string, signal?: AbortSignal) =>
  api.get<FlagLifecycle>(`${nsPath(ns)}/flags/${enc(flagKey)}/lifecycle`, { signal });

/** The largest page the route answers. */
export const MAX_HEALTH_PAGE = 1000;

/** The namespace's report: counts by state and kind, and a page of its potentially stale flags. */
export const getFlagHealth = (ns: string, page: { limit?: number; offset?: number } = {}, signal?: AbortSignal) =>
  api.get<FlagHealth>(`${nsPath(ns)}/flag-health`, { query: page, signal });

/**
 * Every potentially stale flag of the namespace, by key (the flags list's badges), read a largest page at a time. A
 * namespace has few of them, or it has a clean-up to do long before this is slow.
 */
export async function staleFlagsByKey(ns: string, signal?: AbortSignal): Promise<Map<string, StaleFlag>> {
  const found = new Map<string, StaleFlag>();
  let offset: number | null | undefined = 0;
  while (offset !== null && offset !== undefined) {
    const page: FlagHealth = await getFlagHealth(ns, { limit: MAX_HEALTH_PAGE, offset }, signal);
    for (const f of page.staleFlags) found.set(f.flagKey, f);
    // A route that answered the same offset again would loop for ever.
    offset = page.nextOffset !== null && page.nextOffset !== undefined && page.nextOffset > offset ? page.nextOffset : null;
  }
  return found;
}

/**
 * Sets a flag's kind or archive mark over its latest version, read just before, as the on/off switch does: the PUT
 * replaces every field, and what another tab saved since (a name, other metadata) must stay.
 */
export async function markFlag(ns: string, key: string, change: LifecycleMarks): Promise<Flag> {
  const latest = await getFlag(ns, key);
  return updateFlag(ns, key, { ...flagChanges(latest), metadata: withLifecycle(latest.metadata, change) });
}
