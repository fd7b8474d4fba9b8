/**
 * A page's state kept in the address's query (`#/namespaces/shop/flags?q=beta&sort=-updatedAt&page=2`), so that
 * Back, Forward, a reload and a shared link bring it back. A value equal to its default is left out, so a page in its
 * default state keeps its plain address; the parameters are written in the order of `defaults`, and those the page
 * does not know are kept.
 *
 *   const [state, setState] = useQueryState({ q: '', page: '1' });
 *   setState({ page: '2' });                        // a new history entry: Back returns to page 1
 *   setState({ q: 'be', page: '1' }, 'replace');    // the same entry (typing)
 */
import { useCallback } from 'react';
import { navigate, parseHash, path, useRoute } from './hash-router';

export type QueryValues<K extends string> = Record<K, string>;

export type SetQueryValues<K extends string> = (changes: Partial<QueryValues<K>>, history?: 'push' | 'replace') => void;

export function useQueryState<K extends string>(defaults: QueryValues<K>): [QueryValues<K>, SetQueryValues<K>] {
  const { query } = useRoute();
  const names = Object.keys(defaults) as K[];
  const values = Object.fromEntries(names.map((k) => [k, query.get(k) ?? defaults[k]])) as QueryValues<K>;
  // `defaults` is a new object every render: the setter depends on what it says.
  const described = JSON.stringify(defaults);
  const set = useCallback<SetQueryValues<K>>(
    (changes, history = 'push') => {
      // From the address as it is now, not as it was at the last render: two changes in a row both count.
      const hash = window.location.hash;
      const now = parseHash(hash);
      const next = new URLSearchParams();
      for (const k of names) {
        const value = changes[k] ?? now.query.get(k) ?? defaults[k];
        if (value !== defaults[k]) next.set(k, value);
      }
      for (const [k, v] of now.query) if (!names.includes(k as K)) next.append(k, v);
      const query = next.toString();
      const to = `${path(...now.segments)}${query ? `?${query}` : ''}`;
      if (`#${to}` !== hash) navigate(to, { replace: history === 'replace' });
    },
    [described],
  );
  return [values, set];
}
