/**
 * Light, dark or the system's: the user's choice, kept in this browser (localStorage), else the server's
 * `ui.default_theme`, else the system's. `system` follows the operating system live. The choice applies on the login
 * page too, before the server's default is known.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { UiSettings } from '../api/types';

export type Theme = 'system' | 'light' | 'dark';

const KEY = 'flagpole.theme';
const listeners = new Set<() => void>();
/** The choice when storage is disabled. */
let memory: Theme | undefined;

function chosen(): Theme | undefined {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'system' || value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function chooseTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // storage disabled: the choice lasts until the page is reloaded
  }
  memory = theme;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here as well.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The theme in force: the user's choice, else the configured default, else `system`. */
export function useTheme(configured: UiSettings['defaultTheme']): Theme {
  return useSyncExternalStore(subscribe, () => chosen() ?? memory ?? configured ?? 'system');
}

/** Sets `data-theme` on the page for `theme`, following the system's scheme live when it is `system`. */
export function useAppliedTheme(theme: Theme): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
