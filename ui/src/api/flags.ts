import { api, enc } from './client';
import type { ListQuery, PageFetcher } from './paging';
import type { Flag, FlagType, Page, Variant } from './types';

const flagsOf = (ns: string) => `api/v1/namespaces/${enc(ns)}/flags`;
const flagPath = (ns: string, key: string) => `${flagsOf(ns)}/${enc(key)}`;

/**
 * A namespace's flags a page at a time; `query` searches, filters (by type, by on/off, by whether the last lifecycle
 * check found them potentially stale) and sorts them.
 */
export const flagPages =
  (ns: string, query: ListQuery & { type?: FlagType; enabled?: boolean; stale?: boolean } = {}): PageFetcher<Flag> =>
  async (limit, pageToken, signal) => {
    const r = await api.get<{ flags: Flag[] } & Page>(flagsOf(ns), { query: { limit, pageToken, ...query }, signal });
    return { items: r.flags, nextPageToken: r.nextPageToken, totalCount: r.totalCount };
  };

export const getFlag = (ns: string, key: string, signal?: AbortSignal) => api.get<Flag>(flagPath(ns, key), { signal });

export interface NewFlag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
}

export const createFlag = (ns: string, input: NewFlag & { metadata?: Record<string, unknown> }) => api.post<Flag>(flagsOf(ns), input);

export interface FlagChanges {
  name: string;
  description: string;
  enabled: boolean;
  defaultVariantId: string;
  /** Replaces the flag's metadata ({} removes it); left out, the metadata stays as it is. */
  metadata?: Record<string, unknown>;
}

/** The API replaces every field on update, so callers start from the flag as loaded. */
export function flagChanges(flag: Flag): FlagChanges {
  return { name: flag.name, description: flag.description, enabled: flag.enabled, defaultVariantId: flag.defaultVariant?.id ?? '' };
}

export const updateFlag = (ns: string, key: string, changes: FlagChanges) => api.put<Flag>(flagPath(ns, key), changes);

/**
 * Turns a flag on or off over its latest version, read just before: the PUT replaces every field, and a page's copy
 * may be older than a name or description another tab has saved since, which a switch flip must not undo.
 */
export async function setFlagEnabled(ns: string, key: string, enabled: boolean): Promise<Flag> {
  const latest = await getFlag(ns, key);
  return updateFlag(ns, key, { ...flagChanges(latest), enabled });
}

export const deleteFlag = (ns: string, key: string) => api.delete(flagPath(ns, key));

export interface VariantInput {
  key: string;
  name: string;
  description: string;
  attachment: string;
}

export const createVariant = (ns: string, flagKey: string, input: VariantInput) =>
  api.post<Variant>(`${flagPath(ns, flagKey)}/variants`, input);

export const updateVariant = (ns: string, flagKey: string, id: string, input: VariantInput) =>
  api.put<Variant>(`${flagPath(ns, flagKey)}/variants/${enc(id)}`, input);

export const deleteVariant = (ns: string, flagKey: string, id: string) => api.delete(`${flagPath(ns, flagKey)}/variants/${enc(id)}`);
