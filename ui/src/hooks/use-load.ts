/**
 * Loads something for a page through the UI's cache (api/query-client.ts) and keeps it with its error:
 * `const flag = useLoad(keys.flag(ns, key), (signal) => getFlag(ns, key, signal))`. The key names what is read
 * (api/query-keys.ts): a new key aborts the call in flight, so a slow answer never overwrites a newer one, and a write
 * that changes what the key names makes it load again by itself.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { messageOf } from '../api/client';
import type { Key } from '../api/query-keys';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Loads again; the current data stays on screen meanwhile. */
  reload(): void;
  /**
   * Replaces the data with what a write answered (or is about to make true), without a round trip. A read of the same
   * key still in flight is cancelled first, so its older answer cannot land over this data afterwards.
   */
  set(data: T): Promise<void>;
}

export interface LoadOptions {
  /**
   * Reads again every so many milliseconds while the page is visible (a live chart); TanStack Query skips the reads
   * while the browser tab is hidden and reads once when it shows again.
   */
  refreshEvery?: number;
}

export function useLoad<T>(key: Key, load: (signal: AbortSignal) => Promise<T>, options: LoadOptions = {}): Loaded<T> {
  const client = useQueryClient();
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => load(signal), refetchInterval: options.refreshEvery ?? false });
  // The key is a new array every render: the callbacks depend on what it says.
  const named = JSON.stringify(key);
  const reload = useCallback(() => void client.invalidateQueries({ queryKey: key, exact: true }), [client, named]);
  const set = useCallback(
    async (data: T) => {
      await client.cancelQueries({ queryKey: key, exact: true });
      client.setQueryData(key, data);
    },
    [client, named],
  );
  return { data: query.data, error: query.error ? messageOf(query.error) : undefined, loading: query.isFetching, reload, set };
}
