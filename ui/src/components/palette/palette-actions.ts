/**
 * The command palette's actions (issue 43): things to do rather than places to see — a new flag or segment in the
 * current namespace (only where the caller may create one), and, on a flag's page, that flag in the evaluation
 * console. An action's key holds the words one might type for it ("create", "evaluate", "console").
 */
import { useMemo } from 'react';
import { path } from '../../routing/hash-router';
import { useWriteLock } from '../../session/permissions';
import type { PaletteItem } from './palette-search';

/** `route` is the address's path segments: the flag whose page is open, if one is, can be evaluated. */
export function usePaletteActions(ns: string, route: readonly string[]): PaletteItem[] {
  const flagLocked = Boolean(useWriteLock('flag', 'create', ns));
  const segmentLocked = Boolean(useWriteLock('segment', 'create', ns));
  const onFlag = route[0] === 'namespaces' && route[2] === 'flags' && route[3] ? route[3] : undefined;

  return useMemo(() => {
    const found: PaletteItem[] = [];
    if (!flagLocked) found.push({ group: 'Actions', key: 'create flag', name: 'New flag', detail: ns, to: path('namespaces', ns, 'create', 'flag') });
    if (!segmentLocked) {
      found.push({ group: 'Actions', key: 'create segment', name: 'New segment', detail: ns, to: path('namespaces', ns, 'create', 'segment') });
    }
    if (onFlag) {
      found.push({
        group: 'Actions',
        key: `evaluate ${onFlag} console`,
        name: `Evaluate ${onFlag} in the console`,
        to: `${path('namespaces', ns, 'console')}?flag=${encodeURIComponent(onFlag)}`,
      });
    }
    return found;
  }, [ns, flagLocked, segmentLocked, onFlag]);
}
