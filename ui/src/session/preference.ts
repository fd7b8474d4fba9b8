/**
 * A display preference kept in this browser (localStorage): one of a fixed set of values, or none chosen yet. Read
 * anywhere with `get`, followed by components with `use`; a choice made in another tab applies here as well. Where
 * storage is disabled a choice lasts until the page is reloaded. The theme and the time zone are two.
 */
import { useSyncExternalStore } from 'react';

export interface Preference<T extends string> {
  /** The value chosen, or undefined. */
  get(): T | undefined;
  choose(value: T): void;
  /** `get`, for a component: it renders again on a change. */
  use(): T | undefined;
}

export function preference<T extends string>(key: string, values: readonly T[]): Preference<T> {
  const listeners = new Set<() => void>();
  let memory: T | undefined;
  const get = (): T | undefined => {
    try {
      const stored = localStorage.getItem(key);
      if (stored !== null && (values as readonly string[]).includes(stored)) return stored as T;
    } catch {
      // storage disabled: the value in memory
    }
    return memory;
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    window.addEventListener('storage', listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', listener);
    };
  };
  return {
    get,
    choose(value) {
      memory = value;
      try {
        localStorage.setItem(key, value);
      } catch {
        // storage disabled: kept in memory
      }
      for (const l of listeners) l();
    },
    use: () => useSyncExternalStore(subscribe, get),
  };
}
