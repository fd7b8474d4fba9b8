/**
 * The pages by hash path. New flags and segments live under `create/` rather than `flags/new`, because `new` is a
 * valid flag key.
 *
 *   /namespaces                                        namespaces
 *   /namespaces/:ns/flags[/:key[?view=history]]        flags, one flag (its details or its history)
 *   /namespaces/:ns/segments[/:key[?view=history]]     segments, one segment (its details or its history)
 *   /namespaces/:ns/create/flag|segment                new flag, new segment
 *   /namespaces/:ns/console[?flag=key]                 evaluation console
 *   /namespaces/:ns/audit                              audit trail
 *   /settings/tokens                                   static tokens
 */
import { useEffect } from 'react';
import { AuditPage } from './pages/audit-page';
import { ConsolePage } from './pages/console-page';
import { FlagPage } from './pages/flag-page';
import { FlagsPage } from './pages/flags-page';
import { NamespacesPage } from './pages/namespaces-page';
import { NewFlagPage } from './pages/new-flag-page';
import { NewSegmentPage } from './pages/new-segment-page';
import { NotFoundPage } from './pages/not-found-page';
import { SegmentPage } from './pages/segment-page';
import { SegmentsPage } from './pages/segments-page';
import { TokensPage } from './pages/tokens-page';
import { navigate, path, useRoute } from './routing/hash-router';
import { lastNamespace } from './session/namespaces';

export function Routes() {
  const { segments } = useRoute();
  const [top, ns, section, key, ...rest] = segments;
  if (segments.length === 0) return <Redirect to={path('namespaces', lastNamespace(), 'flags')} />;
  if (top === 'settings' && ns === 'tokens' && !section) return <TokensPage />;
  if (top !== 'namespaces' || rest.length > 0) return <NotFoundPage />;
  if (!ns) return <NamespacesPage />;
  // `key` makes React start a page afresh for another flag or segment instead of reusing its state.
  switch (section) {
    case undefined:
      return <Redirect to={path('namespaces', ns, 'flags')} />;
    case 'flags':
      return key ? <FlagPage key={`${ns}/${key}`} ns={ns} flagKey={key} /> : <FlagsPage key={ns} ns={ns} />;
    case 'segments':
      return key ? <SegmentPage key={`${ns}/${key}`} ns={ns} segmentKey={key} /> : <SegmentsPage key={ns} ns={ns} />;
    case 'create':
      if (key === 'flag') return <NewFlagPage key={ns} ns={ns} />;
      if (key === 'segment') return <NewSegmentPage key={ns} ns={ns} />;
      return <NotFoundPage />;
    case 'console':
      return key ? <NotFoundPage /> : <ConsolePage key={ns} ns={ns} />;
    case 'audit':
      return key ? <NotFoundPage /> : <AuditPage key={ns} ns={ns} />;
    default:
      return <NotFoundPage />;
  }
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
