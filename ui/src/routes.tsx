/**
 * The pages by hash path. New flags and segments live under `create/` rather than `flags/new`, because `new` is a
 * valid flag key.
 *
 *   /namespaces                                        namespaces
 *   /namespaces/:ns/flags[/:key[?view=history]]        flags, one flag (its details or its history)
 *   /namespaces/:ns/flags/:key?view=analytics[&range=] one flag's evaluations (when analytics is on)
 *   /namespaces/:ns/segments[/:key[?view=history]]     segments, one segment (its details or its history)
 *   /namespaces/:ns/create/flag|segment                new flag, new segment
 *   /namespaces/:ns/health[?page=]                     flag health (lifecycle: counts, potentially stale flags)
 *   /namespaces/:ns/console[?flag=key]                 evaluation console
 *   /namespaces/:ns/audit                              audit trail
 *   /settings/tokens                                   static tokens
 *
 * A namespace's pages are shown only when it exists; otherwise the page says it does not (ExistingNamespace).
 */
import { useEffect, type ReactNode } from 'react';
import { AuditPage } from './pages/audit-page';
import { ConsolePage } from './pages/console-page';
import { FlagPage } from './pages/flag-page';
import { FlagsPage } from './pages/flags-page';
import { HealthPage } from './pages/health-page';
import { NamespacesPage } from './pages/namespaces-page';
import { NewFlagPage } from './pages/new-flag-page';
import { NewSegmentPage } from './pages/new-segment-page';
import { NotFoundPage } from './pages/not-found-page';
import { SegmentPage } from './pages/segment-page';
import { SegmentsPage } from './pages/segments-page';
import { TokensPage } from './pages/tokens-page';
import { navigate, path, useRoute } from './routing/hash-router';
import { ExistingNamespace } from './session/existing-namespace';
import { useStartNamespace } from './session/namespaces';

export function Routes() {
  const { segments } = useRoute();
  const start = useStartNamespace();
  const [top, ns, section, key, ...rest] = segments;
  if (segments.length === 0) return <Redirect to={path('namespaces', start, 'flags')} />;
  if (top === 'settings' && ns === 'tokens' && !section) return <TokensPage />;
  if (top !== 'namespaces' || rest.length > 0) return <NotFoundPage />;
  if (!ns) return <NamespacesPage />;
  if (section === undefined) return <Redirect to={path('namespaces', ns, 'flags')} />;
  const page = namespacePage(ns, section, key);
  if (!page) return <NotFoundPage />;
  // Keyed by namespace, so that another namespace is looked up afresh rather than shown with this one's answer.
  return (
    <ExistingNamespace key={ns} ns={ns}>
      {page}
    </ExistingNamespace>
  );
}

/** The page at `/namespaces/:ns/:section[/:key]`, or null for an address that names none. */
function namespacePage(ns: string, section: string, key: string | undefined): ReactNode {
  // `key` makes React start a page afresh for another flag or segment instead of reusing its state.
  switch (section) {
    case 'flags':
      return key ? <FlagPage key={`${ns}/${key}`} ns={ns} flagKey={key} /> : <FlagsPage key={ns} ns={ns} />;
    case 'segments':
      return key ? <SegmentPage key={`${ns}/${key}`} ns={ns} segmentKey={key} /> : <SegmentsPage key={ns} ns={ns} />;
    case 'create':
      if (key === 'flag') return <NewFlagPage key={ns} ns={ns} />;
      if (key === 'segment') return <NewSegmentPage key={ns} ns={ns} />;
      return null;
    case 'health':
      return key ? null : <HealthPage key={ns} ns={ns} />;
    case 'console':
      return key ? null : <ConsolePage key={ns} ns={ns} />;
    case 'audit':
      return key ? null : <AuditPage key={ns} ns={ns} />;
    default:
      return null;
  }
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
