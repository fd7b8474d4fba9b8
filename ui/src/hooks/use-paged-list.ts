/**
 * A long list (flags, segments, tokens) one page at a time, so that 1,000 flags never mean 1,000 rows on screen.
 *
 * Browsing uses the API's own pagination: `limit` + `pageToken`, with the tokens of the pages seen kept so that
 * "Previous" works (the API's tokens only go forward). The API has no search parameter, so a search term switches
 * to a scan: the whole list is read in large pages (abandoned as soon as the term changes), matches are collected
 * as they arrive and shown one page at a time like the rest.
 *
 * What is shown always belongs to the term in the search box: until the typing pauses nothing is shown (the old
 * term's matches under the new term would read as its answer), and each answer is kept with the list and term it was
 * asked for, so one that belongs to another is never shown, not even in the one render before a new scan starts.
 */
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/client';
import type { PageFetcher } from '../api/paging';
import { useDebounced } from './use-debounced';

/** Items per request while searching: few requests for 1,000 flags, each still small. */
const SCAN_PAGE = 250;

/** A search starts when the typing pauses this long, not at every key. */
const TYPING_PAUSE_MS = 250;

export interface PagedListOptions<T> {
  /** What is listed (a namespace key): a change starts again at the first page. */
  listKey: string;
  fetchPage: PageFetcher<T>;
  pageSize: number;
  /** The search box's text as typed (the list waits for the typing to pause). */
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
  /** The list and term this page was read for. */
  subject: string;
  items: T[];
  total?: number;
  hasNext: boolean;
  loading: boolean;
  error?: string;
}

interface Scan<T> {
  /** The list and term this scan is for. */
  subject: string;
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

  const typed = search.trim().toLowerCase();
  const settled = useDebounced(typed, TYPING_PAUSE_MS);
  // A cleared box needs no pause: the plain list comes back at once.
  const term = typed ? settled : '';
  const subject = JSON.stringify([listKey, term]);
  const identity = JSON.stringify([listKey, pageSize, term]);
  const [pageIndex, setPageIndex] = useState(0);
  const [seenIdentity, setSeenIdentity] = useState(identity);
  const tokens = useRef<string[]>(['']);
  const [version, setVersion] = useState(0);
  const [shown, setShown] = useState<Shown<T>>({ subject, items: [], hasNext: false, loading: true });
  const [scan, setScan] = useState<Scan<T>>({ subject, matches: [], scanned: 0, done: false });

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
        setShown({ subject, items: page.items, total: page.totalCount, hasNext: Boolean(page.nextPageToken), loading: false });
      },
      (e) =>
        !controller.signal.aborted &&
        setShown((s) => ({ ...(s.subject === subject ? s : { items: [], hasNext: false }), subject, loading: false, error: messageOf(e) })),
    );
    return () => controller.abort();
  }, [identity, pageIndex, version]); // `identity` stands for the list, the page size and the term

  useEffect(() => {
    if (!term) return;
    const controller = new AbortController();
    const found: T[] = [];
    let scanned = 0;
    setScan({ subject, matches: [], scanned: 0, done: false });
    void (async () => {
      let token = '';
      try {
        do {
          const page = await fetchRef.current(SCAN_PAGE, token, controller.signal);
          if (controller.signal.aborted) return;
          scanned += page.items.length;
          for (const item of page.items) if (matchesRef.current(item, term)) found.push(item);
          token = page.nextPageToken;
          setScan({ subject, matches: found.slice(), scanned, of: page.totalCount, done: !token });
        } while (token);
      } catch (e) {
        if (!controller.signal.aborted) setScan({ subject, matches: found.slice(), scanned, done: true, error: messageOf(e) });
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
  // Still typing: no answer yet belongs to the text in the box.
  if (typed !== term) return { ...common, items: [], loading: true, hasNext: false, scan: { scanned: 0, done: false } };
  if (!term) return { ...common, ...(shown.subject === subject ? shown : { items: [], hasNext: false, loading: true }) };
  // Another term's scan, in the render before this term's starts: as if this one had read nothing yet.
  const current = scan.subject === subject ? scan : { matches: [], scanned: 0, done: false, of: undefined, error: undefined };
  const start = pageIndex * pageSize;
  return {
    ...common,
    items: current.matches.slice(start, start + pageSize),
    loading: !current.done && current.matches.length <= start + pageSize,
    error: current.error,
    total: current.done ? current.matches.length : undefined,
    hasNext: current.matches.length > start + pageSize,
    scan: { scanned: current.scanned, of: current.of, done: current.done },
  };
}

/** The usual search: the term (lower case) in the key, name or description. */
export function matchesKeyNameDescription(item: { key: string; name: string; description: string }, term: string): boolean {
  return [item.key, item.name, item.description].some((s) => s.toLowerCase().includes(term));
}
