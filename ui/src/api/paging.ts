/** One page of a list, whatever the list's own field name (`flags`, `segments`, `authentications`). */
export interface ListPage<T> {
  items: T[];
  nextPageToken: string;
  /** Absent for lists that do not count (static tokens). */
  totalCount?: number;
}

/** Fetches the page starting at `pageToken` ("" = the first) with at most `limit` items. */
export type PageFetcher<T> = (limit: number, pageToken: string, signal: AbortSignal) => Promise<ListPage<T>>;
