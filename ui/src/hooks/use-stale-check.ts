/**
 * Two tabs on one flag: without a check, the last "Save" silently wins over a version saved since the form loaded.
 * Before writing, a details form reads its item again; when the server's `updatedAt` is not the one the page shows,
 * someone saved since, and the form asks (StaleSaveDialog: Overwrite or Reload) instead of writing.
 */
import { useState } from 'react';

interface Versioned {
  updatedAt: string;
}

export interface StaleCheck<T extends Versioned> {
  /** The version saved since the page's, while the form asks what to do with it. */
  newer: T | undefined;
  /** Reads the item again: true when the page's version is still the latest; otherwise keeps it in `newer`. */
  isCurrent(): Promise<boolean>;
  /** The question is answered (or closed). */
  settle(): void;
}

export function useStaleCheck<T extends Versioned>(shown: T, reread: () => Promise<T>): StaleCheck<T> {
  const [newer, setNewer] = useState<T>();
  return {
    newer,
    isCurrent: async () => {
      const current = await reread();
      if (current.updatedAt === shown.updatedAt) return true;
      setNewer(current);
      return false;
    },
    settle: () => setNewer(undefined),
  };
}
