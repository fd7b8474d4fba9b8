/**
 * Loads something for a page and keeps it with its error: `const flag = useLoad((signal) => getFlag(ns, key, signal),
 * [ns, key])`. A change of the inputs aborts the call in flight, so a slow answer never overwrites a newer one.
 */
import { useCallback, useEffect, useState, type DependencyList } from 'react';
import { messageOf } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Loads again (after a change); the current data stays on screen meanwhile. */
  reload(): void;
  /** Replaces the data with what a write answered, without a round trip. */
  set(data: T): void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(controller.signal).then(
      (d) => {
        if (controller.signal.aborted) return;
        setData(d);
        setError(undefined);
        setLoading(false);
      },
      (e) => {
        if (controller.signal.aborted) return;
        setError(messageOf(e));
        setLoading(false);
      },
    );
    return () => controller.abort();
    // `deps` are the inputs of `load`, as the caller lists them; `load` itself is a new function every render.
  }, [...deps, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, loading, reload, set: setData };
}
