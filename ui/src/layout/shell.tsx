/**
 * The frame around every page: a top bar (product, the configured label, namespace switcher, who is signed in and
 * sign-out) and the navigation, which folds behind a Menu button on a phone (nav-menu.tsx), with its footer
 * (nav-footer.tsx). A skip link leads keyboard users past both to the page. A read-only Flagpole says so
 * above every page.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { path, useRoute } from '../routing/hash-router';
import { Link } from '../routing/link';
import { switchNamespace } from '../routing/namespace-switch';
import { useCurrentNamespace, useNamespaces } from '../session/namespaces';
import { useLocks } from '../session/permissions';
import { ReadOnlyNotice } from '../session/read-only';
import { useLifecycleEnabled, useSession } from '../session/session';
import { readableTextOn } from '../lib/contrast';
import { CommandPalette } from '../components/command-palette';
import { ThemeSwitch } from '../components/theme-switch';
import { TimeZoneSwitch } from '../components/time-zone-switch';
import { NavFooter } from './nav-footer';
import { NAV_ID, NavMenuButton, useNavMenu } from './nav-menu';

const SCOPED = [
  { section: 'flags', label: 'Flags' },
  { section: 'health', label: 'Flag health' },
  { section: 'segments', label: 'Segments' },
  { section: 'console', label: 'Console' },
  { section: 'audit', label: 'Audit trail' },
];

export function Shell({ children }: { children: ReactNode }) {
  const { state, signOut } = useSession();
  const route = useRoute();
  const ns = useCurrentNamespace();
  const namespaces = useNamespaces();
  const main = useRef<HTMLElement>(null);
  const routeKey = route.segments.join('/');
  // Pages the caller may not read (authorization) are not offered: they would only say so.
  const locks = useLocks();
  const menu = useNavMenu();
  const lifecycle = useLifecycleEnabled();

  // A new page: move focus to it, as a full page load would, so screen readers and Tab start there. A page that put
  // the focus on its first field itself (a form to fill in) keeps it there, and the field is not left unasked.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const field = document.activeElement?.matches('input, select, textarea') && main.current?.contains(document.activeElement);
    if (!field) main.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [routeKey]);

  if (state.status !== 'ready') return null;
  const topbar = state.ui.topbar;
  const barStyle = topbar?.color ? { background: topbar.color, color: readableTextOn(topbar.color) } : undefined;
  const section = route.segments[0] === 'namespaces' && route.segments[2] ? route.segments[2] : '';
  // The address's namespace is always a choice (one created since the list loaded, one that does not exist):
  // otherwise the switcher would show the first namespace as if it were the one on the page.
  const named = route.segments[0] === 'namespaces' && Boolean(route.segments[1]);
  const listed = namespaces.data ?? [];
  const choices = !namespaces.data || (named && !listed.some((n) => n.key === ns)) ? [...listed, { key: ns, name: ns }] : listed;
  const current = (s: string) => (section === s ? 'page' : undefined);
  const who = state.self?.metadata['io.flagpole.auth.email'] ?? state.self?.metadata['io.flagpole.auth.name']
    ?? state.self?.metadata['io.flagpole.auth.token.name'] ?? (state.via === 'token' ? 'client token' : undefined);

  return (
    <div className="shell" data-menu={menu.open ? 'open' : undefined}>
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>
        Skip to content
      </a>
      <header className="topbar" style={barStyle}>
        <NavMenuButton menu={menu} />
        <Link to={path('namespaces', ns, 'flags')} className="brand">
          <img src="./favicon.svg" alt="" width={22} height={22} />
          Flagpole
        </Link>
        {topbar?.label && <span className="env-label">{topbar.label}</span>}
        <div className="topbar-spacer" />
        <CommandPalette />
        <div className="ns-switcher">
          <label htmlFor="namespace-switcher">Namespace</label>
          <select
            id="namespace-switcher"
            value={ns}
            onChange={(e) => void switchNamespace(route, e.target.value)}
          >
            {choices.map((n) => (
              <option key={n.key} value={n.key}>
                {n.name === n.key ? n.key : `${n.name} (${n.key})`}
              </option>
            ))}
          </select>
        </div>
        {state.required && (
          <div className="user">
            {who && <span className="who">{who}</span>}
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <div className="body">
        <nav className="sidenav" aria-label="Main" id={NAV_ID}>
          <p className="nav-heading">{ns}</p>
          <ul>
            {SCOPED.filter((s) => (s.section !== 'audit' || !locks('audit', 'read', ns)) && (s.section !== 'health' || lifecycle)).map((s) => (
              <li key={s.section}>
                <Link to={path('namespaces', ns, s.section)} aria-current={current(s.section)}>
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
          <p className="nav-heading">Settings</p>
          <ul>
            <li>
              <Link to="/namespaces" aria-current={route.segments.length === 1 && route.segments[0] === 'namespaces' ? 'page' : undefined}>
                Namespaces
              </Link>
            </li>
            {!locks('authentication', 'read') && (
              <li>
                <Link to="/settings/tokens" aria-current={route.segments[1] === 'tokens' ? 'page' : undefined}>
                  Static tokens
                </Link>
              </li>
            )}
          </ul>
          <ThemeSwitch />
          <TimeZoneSwitch />
          <NavFooter />
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          <ReadOnlyNotice />
          {children}
        </main>
      </div>
    </div>
  );
}
