/**
 * A long list (flags, segments, tokens, audit events) one page at a time, so that 1,000 flags never mean 1,000 rows
 * on screen. Each page is a query of the UI's cache (useLoad) under `[...listKey, {size, page}]`: a write that makes
 * the list's key stale reloads the page on screen by itself, and a page seen before shows at once on Back.
 *
 * The API's page tokens only go forward. Page n is read with the token that page n-1 answered, when that page is in
 * the cache; a page opened directly (a reload at `page=4`, a shared link) reads the first n pages in one request and
 * keeps the last. Searching, filtering and sorting are the API's (the caller puts them in `fetchPage` and `listKey`).
 *
 * While the next page loads the page before stays on screen, dimmed, but only for the same `subject`: a list under
 * another search term never stands in for this one's answer, not even for one render.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ListPage, PageFetcher } from '../api/paging';
import type { Key } from '../api/query-keys';
import { useLoad } from './use-load';

export interface PagedListOptions<T> {
  /** What is listed, its search, filters and sort included: each differs in its key. */
  listKey: Key;
  fetchPage: PageFetcher<T>;
  pageSize: number;
  /** 1-based. Left out, the list keeps its own page, back at 1 when the list or the page size changes. */
  page?: number;
  /** Goes to another page (with `page`); `replace` when the page shown was not one the user chose. */
  onPage?(page: number, replace: boolean): void;
  /** What a page may stand in for while another loads (default: the list key). */
  subject?: string;
}

export interface PagedList<T> {
  items: T[];
  /** The page the items are (the one asked for, or the one before while it loads); 1-based. */
  page: number;
  pageSize: number;
  /** The items belong to what was asked for, not to the page before. */
  current: boolean;
  loading: boolean;
  error?: string;
  /** All items, when the list counts them. */
  total?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous(): void;
  next(): void;
  /** Reads the page again (after a write); stays on the page unless it became empty. */
  reload(): void;
}

interface Shown<T> {
  subject: string;
  page: number;
  data: ListPage<T>;
}

export function usePagedList<T>({ listKey, fetchPage, pageSize, page: asked, onPage, subject: about }: PagedListOptions<T>): PagedList<T> {
  const client = useQueryClient();
  const named = JSON.stringify(listKey);
  const subject = about ?? named;
  const [ownPage, setOwnPage] = useState(1);
  const [ownOf, setOwnOf] = useState(named + pageSize);
  if (asked === undefined && ownOf !== named + pageSize) {
    setOwnOf(named + pageSize);
    setOwnPage(1);
  }
  const page = asked ?? ownPage;
  const go = (n: number, replace = false) => (onPage ? onPage(n, replace) : setOwnPage(n));

  const keyOf = (n: number): Key => [...listKey, JSON.stringify({ size: pageSize, page: n })];
  const loaded = useLoad<ListPage<T>>(keyOf(page), async (signal) => {
    if (page === 1) return fetchPage(pageSize, '', signal);
    const before = client.getQueryData<ListPage<T>>(keyOf(page - 1));
    if (before && !before.nextPageToken) return { items: [], nextPageToken: '', totalCount: before.totalCount };
    if (before) return fetchPage(pageSize, before.nextPageToken, signal);
    const upTo = await fetchPage(page * pageSize, '', signal);
    return { ...upTo, items: upTo.items.slice((page - 1) * pageSize) };
  });

  const [shown, setShown] = useState<Shown<T>>();
  if (loaded.data && (shown?.data !== loaded.data || shown.page !== page || shown.subject !== subject)) {
    setShown({ subject, page, data: loaded.data });
  }
  const current = loaded.data !== undefined;
  const standIn = !current && shown?.subject === subject && !loaded.error ? shown : undefined;
  const data = loaded.data ?? standIn?.data;
  const shownPage = current ? page : (standIn?.page ?? page);

  // Past the end (its last item was deleted, or an address named a page that is not there): the last page instead.
  const empty = current && loaded.data!.items.length === 0 && page > 1;
  const total = loaded.data?.totalCount;
  useEffect(() => {
    if (empty) go(Math.max(1, Math.min(page - 1, total !== undefined ? Math.ceil(total / pageSize) : page)), true);
  }, [empty, total, page, pageSize]);

  return {
    items: data?.items ?? [],
    page: shownPage,
    pageSize,
    current,
    loading: loaded.loading || (!current && !loaded.error),
    error: loaded.error,
    total: data?.totalCount,
    hasPrevious: page > 1,
    hasNext: Boolean(current && loaded.data!.nextPageToken),
    previous: () => go(Math.max(1, page - 1)),
    next: () => go(page + 1),
    reload: loaded.reload,
  };
}
