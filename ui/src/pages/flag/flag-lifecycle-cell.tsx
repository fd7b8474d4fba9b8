/**
 * The flags list's Lifecycle column (issue 40): *Potentially stale* with its reasons in words, or *Archived*, or
 * nothing for a flag that is neither. The stale flags come from the namespace's flag-health report, read once for
 * every cell of the list (the cache shares one key) and again after any write to a flag; archived is the flag's own
 * mark, in the list's answer.
 */
import { staleFlagsByKey } from '../../api/lifecycle';
import { keys } from '../../api/query-keys';
import type { Flag } from '../../api/types';
import { useLoad } from '../../hooks/use-load';
import { marksOf } from '../../lib/lifecycle';
import { StaleBadge, StateBadge } from '../lifecycle/lifecycle-words';

export function FlagLifecycleCell({ ns, flag }: { ns: string; flag: Flag }) {
  const stale = useLoad(keys.flagHealth(ns, 'stale'), (signal) => staleFlagsByKey(ns, signal));
  if (marksOf(flag.metadata).archived) return <StateBadge state="archived" />;
  const found = stale.data?.get(flag.key);
  // The report could not be read: one dash a row, the reason as its title, rather than an error on every row.
  if (!found) return stale.error ? <span className="muted" title={`Lifecycle could not be read: ${stale.error}`}>—</span> : null;
  return <StaleBadge reasons={found.reasons} />;
}
