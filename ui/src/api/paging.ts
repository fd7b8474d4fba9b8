/** One page of a list, whatever the list's own field name (`flags`, `segments`, `authentications`). */
export interface ListPage<T> {
  items: T[];
  nextPageToken: string;
  /** Absent for lists that do not count (static tokens). */
  totalCount?: number;
}

/** Fetches the page starting at `pageToken` ("" = the first) with at most `limit` items. */
export type PageFetcher<T> = (limit: number, pageToken: string, signal: AbortSignal) => Promise<ListPage<T>>;

/**
 * Flagpole's additions to the flag and segment lists (docs/api.md, "Searching and sorting lists"): absent or ''
 * means "all, in creation order". Page tokens and totalCount follow the filtered, sorted list.
 */
export interface ListQuery {
  /** Text the key, name or description contains, in any case (at most 200 characters). */
  search?: string;
  /** `key`, `name`, `createdAt` or `updatedAt`; a leading `-` sorts descending. */
  sort?: string;
}
