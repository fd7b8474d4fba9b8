/**
 * A user's action that calls the API (save, delete, reorder): `busy` disables its button, and a failure keeps the
 * API's message in `error` for the form to show, never swallowed.
 */
import { useCallback, useState } from 'react';
import { messageOf } from '../api/client';

export interface Action<A extends unknown[]> {
  run(...args: A): Promise<boolean>;
  busy: boolean;
  error: string | undefined;
  clearError(): void;
}

export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(undefined);
      try {
        await fn(...args);
        return true;
      } catch (e) {
        setError(messageOf(e));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  return { run, busy, error, clearError: useCallback(() => setError(undefined), []) };
}
