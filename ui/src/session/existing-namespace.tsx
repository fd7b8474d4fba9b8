/**
 * Shows a namespace's page only when the namespace exists and the caller may see it. The API lists a missing
 * namespace's flags and segments as empty, so without this `#/namespaces/nope/flags` would read as a namespace with
 * nothing in it yet; and under authorization a namespace the caller may not read would show a refusal per list.
 */
import type { ReactNode } from 'react';
import { ApiError, isPermissionDenied } from '../api/client';
import { getNamespace } from '../api/namespaces';
import { keys } from '../api/query-keys';
import { Loading } from '../components/loading';
import { useLoad } from '../hooks/use-load';
import { MissingNamespacePage } from '../pages/missing-namespace-page';
import { NoAccessPage } from '../pages/no-access-page';
import { useNamespaces } from './namespaces';

type Lookup = 'exists' | 'missing' | 'denied';

export function ExistingNamespace({ ns, children }: { ns: string; children: ReactNode }) {
  const namespaces = useNamespaces();
  // One of the switcher's namespaces needs no question; any other (a typed address, one created since) is looked up.
  const listed = Boolean(namespaces.data?.some((n) => n.key === ns));
  const lookup = useLoad([...keys.namespace(ns), 'lookup'], (signal) => (listed ? Promise.resolve<Lookup>('exists') : lookUp(ns, signal)));
  // Only a 404 means missing: on any other failure the page shows its own error, as it would without this check.
  if (listed || lookup.data === 'exists' || lookup.error) return <>{children}</>;
  if (lookup.data === 'missing') return <MissingNamespacePage ns={ns} />;
  if (lookup.data === 'denied') return <NoAccessPage ns={ns} />;
  return <Loading what="Loading the namespace" />;
}

async function lookUp(ns: string, signal: AbortSignal): Promise<Lookup> {
  try {
    await getNamespace(ns, signal);
    return 'exists';
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return 'missing';
    if (isPermissionDenied(e)) return 'denied';
    throw e;
  }
}
