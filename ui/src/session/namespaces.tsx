/**
 * The namespaces, shared by the switcher in the top bar and the pages that offer a namespace (tokens), and the one
 * being worked in: the route's, else the last one used in this browser, else `default`.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { listNamespaces } from '../api/namespaces';
import { keys } from '../api/query-keys';
import type { Namespace } from '../api/types';
import { useLoad, type Loaded } from '../hooks/use-load';
import { useRoute } from '../routing/hash-router';
import { useSession } from './session';

const LAST_KEY = 'flagpole.namespace';

const NamespacesContext = createContext<Loaded<Namespace[]> | null>(null);

export function NamespacesProvider({ children }: { children: ReactNode }) {
  const loaded = useLoad(keys.namespaces, (signal) => listNamespaces(signal));
  usePermissionsOf(loaded.data);
  return <NamespacesContext.Provider value={loaded}>{children}</NamespacesContext.Provider>;
}

/**
 * The permissions name the namespaces that existed when they were asked for: when the list shows one they do not
 * (created since, here or elsewhere), they are asked for again, once per such list.
 */
function usePermissionsOf(namespaces: Namespace[] | undefined): void {
  const { state, refreshPermissions } = useSession();
  const known = state.status === 'ready' && state.permissions?.authorizationRequired ? state.permissions.namespaces : undefined;
  const asked = useRef('');
  const unknown = namespaces && known ? namespaces.filter((n) => !(n.key in known)).map((n) => n.key).join(',') : '';
  useEffect(() => {
    if (!unknown || unknown === asked.current) return;
    asked.current = unknown;
    refreshPermissions();
  }, [unknown, refreshPermissions]);
}

export function useNamespaces(): Loaded<Namespace[]> {
  const n = useContext(NamespacesContext);
  if (!n) throw new Error('useNamespaces outside NamespacesProvider');
  return n;
}

export function lastNamespace(): string {
  try {
    return localStorage.getItem(LAST_KEY) || 'default';
  } catch {
    return 'default';
  }
}

/**
 * Where to start: the last namespace used, unless the caller may not see it under authorization (a browser shared
 * with another user, a role changed); then the first one it may see.
 */
export function useStartNamespace(): string {
  const { state } = useSession();
  const last = lastNamespace();
  const p = state.status === 'ready' && state.permissions?.authorizationRequired ? state.permissions : undefined;
  if (!p || p.namespaces[last]?.namespace?.includes('read')) return last;
  return Object.keys(p.namespaces).find((key) => p.namespaces[key].namespace?.includes('read')) ?? last;
}

/** The namespace of the current route (remembered for the next visit), or where to start. */
export function useCurrentNamespace(): string {
  const start = useStartNamespace();
  const { segments } = useRoute();
  const fromRoute = segments[0] === 'namespaces' ? segments[1] : undefined;
  useEffect(() => {
    if (fromRoute) rememberNamespace(fromRoute);
  }, [fromRoute]);
  return fromRoute ?? start;
}

/** The namespace to start in next time, and on pages outside namespaces (Static tokens) now. */
export function rememberNamespace(key: string): void {
  try {
    localStorage.setItem(LAST_KEY, key);
  } catch {
    // storage disabled: the UI just starts in `default` next time
  }
}
