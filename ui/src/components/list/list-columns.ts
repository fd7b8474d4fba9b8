/**
 * What a list page (flags, segments) tells the shared list view (list-view.tsx): its columns, its filters, and the
 * sorts the API offers on both lists.
 */
import type { ReactNode } from 'react';

/** The API's sort fields (`sort=name`, `sort=-updatedAt`), the same for flags and segments. */
export const SORT_FIELDS = [
  { field: 'name', label: 'Name', order: ['A to Z', 'Z to A'] },
  { field: 'key', label: 'Key', order: ['A to Z', 'Z to A'] },
  { field: 'updatedAt', label: 'Updated', order: ['oldest first', 'newest first'] },
  { field: 'createdAt', label: 'Created', order: ['oldest first', 'newest first'] },
] as const;

export type SortField = (typeof SORT_FIELDS)[number]['field'];

export interface ListColumn<T> {
  /** Names the column in the column picker's memory. */
  id: string;
  header: string;
  /** `page` is every item of the page shown, for a cell that reads something for the whole page at once. */
  cell(item: T, page: readonly T[]): ReactNode;
  /** Its header sorts the list by this field. */
  sort?: SortField;
  /** Offered in the column picker: shown unless the user hid it, or `hidden` until the user shows it. */
  optional?: 'shown' | 'hidden';
  className?: string;
  /** The cells are date-times in the zone Times chose, unnamed (formatDateBare): the header names the zone, once. */
  zoned?: boolean;
  /**
   * Where the cell goes when a phone stacks each row: `title` first, `end` beside it (a switch), `plain` a line of
   * its own; by default a line of its own that starts with the header.
   */
  stacked?: 'title' | 'end' | 'plain';
}

/** A choice among exact values (`type=boolean`); the first option, value '', is "all". */
export interface ListFilter {
  id: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}

/** What the list is asked for: the search term, the filters' values ('' = all) and the sort ('' = creation order). */
export interface ListParams {
  q: string;
  sort: string;
  filters: Record<string, string>;
}
