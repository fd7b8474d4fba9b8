/**
 * A long list (flags, segments, tokens) one page at a time, so that 1,000 flags never mean 1,000 rows on screen.
 *
 * Browsing uses the API's own pagination: `limit` + `pageToken`, with the tokens of the pages seen kept so that
 * "Previous" works (the API's tokens only go forward). The API has no search parameter, so a search term switches
 * to a scan: the whole list is read in large pages (abandoned as soon as the term changes), matches are collected
 * as they arrive and shown one page at a time like the rest.
 */
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/client';
import type { PageFetcher } from '../api/paging';

/** Items per request while searching: few requests for 1,000 flags, each still small. */
const SCAN_PAGE = 250;

export interface PagedListOptions<T> {
  /** What is listed (a namespace key): a change starts again at the first page. */
  listKey: string;
  fetchPage: PageFetcher<T>;
  pageSize: number;
  search: string;
  matches(item: T, term: string): boolean;
}

export interface PagedList<T> {
  items: T[];
  loading: boolean;
  error?: string;
  /** 0-based. */
  pageIndex: number;
  pageSize: number;
  /** All items (or all matches once the scan is done), when known. */
  total?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous(): void;
  next(): void;
  /** While searching: how far the scan has come. */
  scan?: { scanned: number; of?: number; done: boolean };
  /** Reads the current page again (after a write); stays on the page unless it became empty. */
  reload(): void;
}

interface Shown<T> {
  items: T[];
  total?: number;
  hasNext: boolean;
  loading: boolean;
  error?: string;
}

interface Scan<T> {
  matches: T[];
  scanned: number;
  of?: number;
  done: boolean;
  error?: string;
}

export function usePagedList<T>({ listKey, fetchPage, pageSize, search, matches }: PagedListOptions<T>): PagedList<T> {
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const matchesRef = useRef(matches);
  matchesRef.current = matches;

  const term = search.trim().toLowerCase();
  const identity = JSON.stringify([listKey, pageSize, term]);
  const [pageIndex, setPageIndex] = useState(0);
  const [seenIdentity, setSeenIdentity] = useState(identity);
  const tokens = useRef<string[]>(['']);
  const [version, setVersion] = useState(0);
  const [shown, setShown] = useState<Shown<T>>({ items: [], hasNext: false, loading: true });
  const [scan, setScan] = useState<Scan<T>>({ matches: [], scanned: 0, done: false });

  // Another list, page size or search term: back to the first page (adjusted during render, before any effect runs).
  if (identity !== seenIdentity) {
    setSeenIdentity(identity);
    setPageIndex(0);
    tokens.current = [''];
  }

  useEffect(() => {
    if (term) return;
    const controller = new AbortController();
    setShown((s) => ({ ...s, loading: true }));
    fetchRef.current(pageSize, tokens.current[pageIndex] ?? '', controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        if (page.items.length === 0 && pageIndex > 0) {
          // The last item of this page was deleted: show the page before.
          setPageIndex(pageIndex - 1);
          return;
        }
        tokens.current.length = pageIndex + 1;
        if (page.nextPageToken) tokens.current.push(page.nextPageToken);
        setShown({ items: page.items, total: page.totalCount, hasNext: Boolean(page.nextPageToken), loading: false });
      },
      (e) => !controller.signal.aborted && setShown((s) => ({ ...s, loading: false, error: messageOf(e) })),
    );
    return () => controller.abort();
  }, [identity, pageIndex, version]); // `identity` stands for the list, the page size and the term

  useEffect(() => {
    if (!term) return;
    const controller = new AbortController();
    const found: T[] = [];
    let scanned = 0;
    setScan({ matches: [], scanned: 0, done: false });
    void (async () => {
      let token = '';
      try {
        do {
          const page = await fetchRef.current(SCAN_PAGE, token, controller.signal);
          if (controller.signal.aborted) return;
          scanned += page.items.length;
          for (const item of page.items) if (matchesRef.current(item, term)) found.push(item);
          token = page.nextPageToken;
          setScan({ matches: found.slice(), scanned, of: page.totalCount, done: !token });
        } while (token);
      } catch (e) {
        if (!controller.signal.aborted) setScan({ matches: found.slice(), scanned, done: true, error: messageOf(e) });
      }
    })();
    return () => controller.abort();
  }, [listKey, term, version]);

  const common = {
    pageIndex,
    pageSize,
    hasPrevious: pageIndex > 0,
    previous: () => setPageIndex((i) => Math.max(0, i - 1)),
    next: () => setPageIndex((i) => i + 1),
    reload: () => setVersion((v) => v + 1),
  };
  if (!term) return { ...common, ...shown };
  const start = pageIndex * pageSize;
  return {
    ...common,
    items: scan.matches.slice(start, start + pageSize),
    loading: !scan.done && scan.matches.length <= start + pageSize,
    error: scan.error,
    total: scan.done ? scan.matches.length : undefined,
    hasNext: scan.matches.length > start + pageSize,
    scan: { scanned: scan.scanned, of: scan.of, done: scan.done },
  };
}

/** The usual search: the term (lower case) in the key, name or description. */
export function matchesKeyNameDescription(item: { key: string; name: string; description: string }, term: string): boolean {
  return [item.key, item.name, item.description].some((s) => s.toLowerCase().includes(term));
}
