/**
 * A list's search, filters, sort, page and page size, kept in the address (`?q=beta&type=boolean&sort=-name&page=2
 * &size=50`): read with every value checked (one the page does not offer counts as its default), written with a new
 * history entry except where the caller says `replace`. Any change but the page's goes back to the first page.
 */
import { useQueryState } from '../../routing/use-query-state';
import { PAGE_SIZES } from '../pager';
import { SORT_FIELDS, type ListFilter, type ListParams } from './list-columns';

export interface ListState extends ListParams {
  /** 1-based. */
  page: number;
  size: number;
}

export interface ListStateChange {
  q?: string;
  sort?: string;
  filters?: Record<string, string>;
  page?: number;
  size?: number;
}

const SORTS = new Set(SORT_FIELDS.flatMap(({ field }) => [field, `-${field}`]));

export function useListState(filters: readonly ListFilter[]): [ListState, (change: ListStateChange, history?: 'push' | 'replace') => void] {
  const defaults: Record<string, string> = { q: '' };
  for (const f of filters) defaults[f.id] = '';
  Object.assign(defaults, { sort: '', page: '1', size: String(PAGE_SIZES[0]) });
  const [raw, setRaw] = useQueryState(defaults);

  const page = Number(raw.page);
  const size = Number(raw.size);
  const state: ListState = {
    q: raw.q.trim(),
    sort: SORTS.has(raw.sort) ? raw.sort : '',
    filters: Object.fromEntries(filters.map((f) => [f.id, f.options.some((o) => o.value === raw[f.id]) ? raw[f.id] : ''])),
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
    size: PAGE_SIZES.includes(size) ? size : PAGE_SIZES[0],
  };

  const set = (change: ListStateChange, history: 'push' | 'replace' = 'push') => {
    const values: Record<string, string> = { ...change.filters, page: String(change.page ?? 1) };
    if (change.q !== undefined) values.q = change.q;
    if (change.sort !== undefined) values.sort = change.sort;
    if (change.size !== undefined) values.size = String(change.size);
    setRaw(values, history);
  };
  return [state, set];
}
