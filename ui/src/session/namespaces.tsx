/**
 * The namespaces, shared by the switcher in the top bar and the pages that offer a namespace (tokens), and the one
 * being worked in: the route's, else the last one used in this browser, else `default`.
 */
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { listNamespaces } from '../api/namespaces';
import type { Namespace } from '../api/types';
import { useLoad, type Loaded } from '../hooks/use-load';
import { useRoute } from '../routing/hash-router';

const LAST_KEY = 'flagpole.namespace';

const NamespacesContext = createContext<Loaded<Namespace[]> | null>(null);

export function NamespacesProvider({ children }: { children: ReactNode }) {
  const loaded = useLoad((signal) => listNamespaces(signal), []);
  return <NamespacesContext.Provider value={loaded}>{children}</NamespacesContext.Provider>;
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

/** The namespace of the current route (remembered for the next visit), or the last one used. */
export function useCurrentNamespace(): string {
  const { segments } = useRoute();
  const fromRoute = segments[0] === 'namespaces' ? segments[1] : undefined;
  useEffect(() => {
    if (!fromRoute) return;
    try {
      localStorage.setItem(LAST_KEY, fromRoute);
    } catch {
      // storage disabled: the UI just starts in `default` next time
    }
  }, [fromRoute]);
  return fromRoute ?? lastNamespace();
}
