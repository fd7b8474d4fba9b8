/**
 * Shows a namespace's page only when the namespace exists. The API lists a missing namespace's flags and segments
 * as empty, so without this `#/namespaces/nope/flags` would read as a namespace with nothing in it yet.
 */
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { getNamespace } from '../api/namespaces';
import { Loading } from '../components/loading';
import { useLoad } from '../hooks/use-load';
import { MissingNamespacePage } from '../pages/missing-namespace-page';
import { useNamespaces } from './namespaces';

export function ExistingNamespace({ ns, children }: { ns: string; children: ReactNode }) {
  const namespaces = useNamespaces();
  // One of the switcher's namespaces needs no question; any other (a typed address, one created since) is looked up.
  const listed = Boolean(namespaces.data?.some((n) => n.key === ns));
  const lookup = useLoad((signal) => (listed ? Promise.resolve(true) : exists(ns, signal)), [ns]);
  // Only a 404 means missing: on any other failure the page shows its own error, as it would without this check.
  if (listed || lookup.data === true || lookup.error) return <>{children}</>;
  if (lookup.data === false) return <MissingNamespacePage ns={ns} />;
  return <Loading what="Loading the namespace" />;
}

async function exists(ns: string, signal: AbortSignal): Promise<boolean> {
  try {
    await getNamespace(ns, signal);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
}
