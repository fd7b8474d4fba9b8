/**
 * Flagpole's additions to the flag and segment lists (docs/api.md, "Searching and sorting lists"): `search` keeps the
 * rows whose key, name or description contains a text, in any case; `sort` orders by key, name, creation or last
 * change, `-` first for descending. Flipt has neither: without them a list is Flipt's (creation order, everything).
 *
 * Written once for every dialect: `lower(column) like ? escape '!'`. PostgreSQL's and MySQL's LIKE tell case apart
 * (our MySQL columns are utf8mb4_bin), SQLite's does not, and `lower` on both sides makes them agree; `!` escapes the
 * wildcards because a backslash means different things in MySQL's and PostgreSQL's string literals.
 */
import { raw, type FilterQuery } from '@mikro-orm/core';
import { ValidationError } from '../common/errors';
import { MAX_SEARCH_LENGTH, SORT_VALUES, type SortField } from '../common/list.dto';
import type { ListOrder } from './paged-list';

/** The columns `search` looks in. */
const SEARCHED = ['key', 'name', 'description'] as const;

/** Text columns sort case-insensitively, as people read them; times as they are. */
const COLUMNS: Record<SortField, { column: string; text: boolean }> = {
  key: { column: 'key', text: true },
  name: { column: 'name', text: true },
  createdAt: { column: 'created_at', text: false },
  updatedAt: { column: 'updated_at', text: false },
};

export interface ListFilter {
  search?: string;
  sort?: string;
}

/** The condition for `search` (none for an absent or blank one). */
export function searchCondition(search: string | undefined): Record<string, unknown> {
  const text = (search ?? '').trim().toLowerCase();
  if (!text) return {};
  if (text.length > MAX_SEARCH_LENGTH) throw new ValidationError('search', `must be at most ${MAX_SEARCH_LENGTH} characters`);
  return containsCondition(SEARCHED, text);
}

/** Rows where any of `columns` (as named in the database) contains `text`, in any case; `text` is not blank. */
export function containsCondition(columns: readonly string[], text: string): Record<string, unknown> {
  const pattern = `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return { $or: columns.map((column) => ({ [raw((alias: string) => `lower(${alias}.${column}) like ? escape '!'`, [pattern])]: [] })) };
}

/** The order for `sort`, the key breaking ties; `fallback` (Flipt's order) when there is none. */
export function sortOrder<T extends { key: string }>(sort: string | undefined, fallback: ListOrder<T>): ListOrder<T> {
  if (!sort) return fallback;
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as SortField;
  const spec = COLUMNS[field];
  if (!spec) throw new ValidationError('sort', `must be one of ${SORT_VALUES.join(', ')}`);
  const direction = descending ? 'desc' : 'asc';
  const by = spec.text ? raw((alias: string) => `lower(${alias}.${spec.column})`) : field;
  const orderBy = field === 'key' ? { [by]: direction } : { [by]: direction, key: 'asc' };
  return { orderBy: orderBy as ListOrder<T>['orderBy'], keyOf: fallback.keyOf };
}

/** `where` narrowed by `search`. */
export function filtered<T>(where: FilterQuery<T>, filter: ListFilter): FilterQuery<T> {
  const search = searchCondition(filter.search);
  return (Object.keys(search).length ? { $and: [where, search] } : where) as FilterQuery<T>;
}
