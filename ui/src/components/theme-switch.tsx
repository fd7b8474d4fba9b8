/** The theme choice in the navigation: System, Light or Dark, kept in this browser (session/theme.tsx). */
import { useId } from 'react';
import { useSession } from '../session/session';
import { chooseTheme, useTheme, type Theme } from '../session/theme';

const CHOICES: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function ThemeSwitch() {
  const { state } = useSession();
  const theme = useTheme(state.status === 'ready' ? state.ui.defaultTheme : undefined);
  const id = useId();
  return (
    <div className="theme-switch">
      <label htmlFor={id}>Theme</label>
      <select id={id} value={theme} onChange={(e) => chooseTheme(e.target.value as Theme)}>
        {CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
