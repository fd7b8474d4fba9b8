/**
 * The data layer's keys, and what a write makes stale. A query's key is the API path it reads, split at `/`
 * (`['namespaces', 'shop', 'flags', 'checkout', 'rules']`), so the path of a write says which cached answers it may
 * have changed:
 *  - a write under a flag (its variants, rules, distributions, rollouts, schedules): every flag query of the
 *    namespace (the flag, its rules, rollouts and schedules, the lists that show it); a deleted variant changes the
 *    rules' distributions too;
 *  - a write under a segment: the whole namespace (rules and rollouts name segments);
 *  - anything else that changes data (a namespace, an import, tokens): everything;
 *  - evaluations (the console, OFREP), analytics' reads by POST (under `internal/`) and signing out (the session
 *    clears the cache instead): nothing.
 */
export type Key = readonly string[];

export const keys = {
  namespaces: ['namespaces'] as Key,
  namespace: (ns: string): Key => ['namespaces', ns],
  flags: (ns: string): Key => ['namespaces', ns, 'flags'],
  flag: (ns: string, key: string): Key => [...keys.flags(ns), key],
  rules: (ns: string, key: string): Key => [...keys.flag(ns, key), 'rules'],
  rollouts: (ns: string, key: string): Key => [...keys.flag(ns, key), 'rollouts'],
  schedules: (ns: string, key: string): Key => [...keys.flag(ns, key), 'schedules'],
  /** A flag's evaluation counts over a range (`30m`, `7d`: the analytics tab's choice). */
  analytics: (ns: string, key: string, range: string): Key => [...keys.flag(ns, key), 'analytics', range],
  /** The last day's evaluation counts of a page of flags (the list's usage column), by the page's keys. */
  usage: (ns: string, flagKeys: readonly string[]): Key => [...keys.flags(ns), 'usage', JSON.stringify(flagKeys)],
  /** A flag's lifecycle: kind, state and why it may be stale (read again with the flag, after any write to it). */
  lifecycle: (ns: string, key: string): Key => [...keys.flag(ns, key), 'lifecycle'],
  /**
   * The namespace's flag-health report (`~` is in no flag key, so this names no flag), under its flags so that a
   * write to any flag (an archive, a kind) reads it again: `what` says which part (a page, or every stale flag).
   */
  flagHealth: (ns: string, what: string): Key => [...keys.flags(ns), '~health', what],
  segments: (ns: string): Key => ['namespaces', ns, 'segments'],
  segment: (ns: string, key: string): Key => [...keys.segments(ns), key],
  authMethods: ['auth', 'methods'] as Key,
};

export type Stale = 'nothing' | 'everything' | Key;

/** What a successful write to `path` (relative and encoded, as the API modules build it) made stale. */
export function staleAfterWrite(path: string): Stale {
  const parts = path.split('?')[0].split('/').map(decodeURIComponent);
  if (parts[0] === 'auth') return parts[2] === 'self' ? 'nothing' : 'everything';
  if (parts[0] !== 'api') return 'nothing';
  const [, , collection, ns, kind] = parts;
  if (collection !== 'namespaces' || ns === undefined) return 'everything';
  if (kind === 'flags') return keys.flags(ns);
  if (kind === 'segments') return keys.namespace(ns);
  return 'everything';
}
