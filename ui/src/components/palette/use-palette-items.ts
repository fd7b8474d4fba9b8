/**
 * Everything the command palette can open: the pages, actions (palette-actions.ts), the current namespace's flags and
 * segments, the namespaces.
 * Flags and segments are read in full (limit 0) when the palette first opens — it is mounted only while open — and
 * kept in the UI's cache under their namespace's keys, so a write to them makes the next opening read them again.
 */
import { useMemo } from 'react';
import { flagPages } from '../../api/flags';
import { keys } from '../../api/query-keys';
import { listAllSegments } from '../../api/segments';
import { useLoad } from '../../hooks/use-load';
import { path, useRoute } from '../../routing/hash-router';
import { useCurrentNamespace, useNamespaces } from '../../session/namespaces';
import { useLocks } from '../../session/permissions';
import { useLifecycleEnabled } from '../../session/session';
import { usePaletteActions } from './palette-actions';
import type { PaletteItem } from './palette-search';

/**
 * The last part of the cache keys of the full lists. Not a word: `['namespaces', ns, 'flags', 'all']` is the key of
 * a flag called `all`, and `*` can never be a key.
 */
const FULL_LIST = '*';

/** The namespace's pages, in the navigation's order, then the settings. */
const SCOPED_PAGES = [
  { key: 'flags', name: 'Flags' },
  { key: 'health', name: 'Flag health' },
  { key: 'segments', name: 'Segments' },
  { key: 'console', name: 'Console' },
  { key: 'audit', name: 'Audit trail' },
];

export interface PaletteItems {
  items: PaletteItem[];
  loading: boolean;
  /** What could not be read, one line each ("Flags: …"). */
  errors: string[];
}

export function usePaletteItems(): PaletteItems {
  const ns = useCurrentNamespace();
  const { segments: route } = useRoute();
  const namespaces = useNamespaces();
  // As in the navigation: no page the caller may not read (authorization).
  const locks = useLocks();
  const lifecycle = useLifecycleEnabled();
  const hidden = (key: string) =>
    (key === 'audit' && Boolean(locks('audit', 'read', ns))) ||
    (key === 'tokens' && Boolean(locks('authentication', 'read'))) ||
    (key === 'health' && !lifecycle);
  const flags = useLoad([...keys.flags(ns), FULL_LIST], async (signal) => (await flagPages(ns)(0, '', signal)).items);
  const segments = useLoad([...keys.segments(ns), FULL_LIST], (signal) => listAllSegments(ns, signal));
  const actions = usePaletteActions(ns, route);
  // Another namespace opens at the section being looked at, as the top bar's switcher does.
  const section = route[0] === 'namespaces' && SCOPED_PAGES.some((p) => p.key === route[2]) ? route[2] : 'flags';

  const items = useMemo((): PaletteItem[] => [
    ...SCOPED_PAGES.filter((p) => !hidden(p.key)).map((p) => ({ group: 'Pages' as const, ...p, detail: ns, to: path('namespaces', ns, p.key) })),
    { group: 'Pages', key: 'namespaces', name: 'Namespaces', to: '/namespaces' },
    ...(hidden('tokens') ? [] : [{ group: 'Pages' as const, key: 'tokens', name: 'Static tokens', to: '/settings/tokens' }]),
    ...actions,
    ...(flags.data ?? []).map((f) => ({ group: 'Flags' as const, ...named(f), to: path('namespaces', ns, 'flags', f.key) })),
    ...(segments.data ?? []).map((s) => ({ group: 'Segments' as const, ...named(s), to: path('namespaces', ns, 'segments', s.key) })),
    ...(namespaces.data ?? []).map((n) => ({ group: 'Namespaces' as const, ...named(n), to: path('namespaces', n.key, section) })),
  ], [ns, section, actions, flags.data, segments.data, namespaces.data, locks, lifecycle]);
  const errors = [
    flags.error && `Flags: ${flags.error}`,
    segments.error && `Segments: ${segments.error}`,
    namespaces.error && `Namespaces: ${namespaces.error}`,
  ].filter((e): e is string => Boolean(e));
  return { items, loading: flags.loading || segments.loading || namespaces.loading, errors };
}

/** A flag, segment or namespace: its key is worth showing only where its name does not already say it. */
function named(o: { key: string; name: string }) {
  return { key: o.key, name: o.name || o.key, detail: o.name && o.name !== o.key ? o.key : undefined };
}
