/**
 * Light, dark or the system's: the user's choice, kept in this browser (localStorage), else the server's
 * `ui.default_theme`, else the system's. `system` follows the operating system live. The choice applies on the login
 * page too, before the server's default is known.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { UiSettings } from '../api/types';
import { preference } from './preference';

export type Theme = 'system' | 'light' | 'dark';

const chosen = preference<Theme>('flagpole.theme', ['system', 'light', 'dark']);

export const chooseTheme = (theme: Theme): void => chosen.choose(theme);

/** The theme in force: the user's choice, else the configured default, else `system`. */
export function useTheme(configured: UiSettings['defaultTheme']): Theme {
  return chosen.use() ?? configured ?? 'system';
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

/**
 * The theme the page is drawn in now, `light` or `dark` (what useAppliedTheme set): for what is drawn by script,
 * such as a chart's canvas, which CSS variables do not reach by themselves.
 */
export function useShownTheme(): 'light' | 'dark' {
  return useSyncExternalStore(watchShownTheme, shownTheme);
}

const shownTheme = (): 'light' | 'dark' => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

function watchShownTheme(changed: () => void): () => void {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}
