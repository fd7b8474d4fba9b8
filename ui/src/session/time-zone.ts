/**
 * How date-times are shown and entered: in UTC or in the browser's local time (Flipt's "UTC timezone" preference),
 * kept in this browser (localStorage); local time until chosen. Every page renders again on a change, since every
 * date-time on it is written in the zone chosen (lib/format.ts).
 */
import { useSyncExternalStore } from 'react';
import { renderPageAgain } from '../routing/hash-router';

export type TimeZone = 'local' | 'utc';

const KEY = 'flagpole.timeZone';
const listeners = new Set<() => void>();
/** The choice when storage is disabled. */
let memory: TimeZone | undefined;

/** The zone in force now. */
export function chosenTimeZone(): TimeZone {
  try {
    const value = localStorage.getItem(KEY);
    if (value === 'local' || value === 'utc') return value;
  } catch {
    // storage disabled
  }
  return memory ?? 'local';
}

export function chooseTimeZone(zone: TimeZone): void {
  try {
    localStorage.setItem(KEY, zone);
  } catch {
    // storage disabled: the choice lasts until the page is reloaded
  }
  memory = zone;
  for (const l of listeners) l();
  renderPageAgain();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTimeZone(): TimeZone {
  return useSyncExternalStore(subscribe, chosenTimeZone);
}
