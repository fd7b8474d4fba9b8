/**
 * The one list query of the management API: one page of rows (one row more than asked, which says whether a next
 * page exists) and the total count, read side by side and cut by Flipt's paging rules (common/pagination.ts).
 */
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import { cutPage, Page, PageResult } from '../common/pagination';

export interface PagedList<T> extends PageResult<T> {
  totalCount: number;
}

/** How a list is ordered, and which value of the first row of the next page its page token carries. */
export interface ListOrder<T> {
  orderBy: Record<string, 'asc' | 'desc'>;
  keyOf: (row: T) => string;
}

/** Namespaces, flags and segments: oldest first, the key breaking ties. */
export const CREATION_ORDER: ListOrder<{ key: string }> = { orderBy: { createdAt: 'asc', key: 'asc' }, keyOf: (row) => row.key };

export async function pagedList<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  /** A function where the condition holds raw SQL fragments: MikroORM lets one be used by one query only. */
  where: FilterQuery<T> | (() => FilterQuery<T>),
  page: Page,
  order: ListOrder<T>,
  populate: readonly string[] = [],
): Promise<PagedList<T>> {
  const condition = typeof where === 'function' ? (where as () => FilterQuery<T>) : () => where;
  const [rows, totalCount] = await Promise.all([
    em.find(entity, condition(), {
      populate: populate as never,
      orderBy: order.orderBy as never,
      offset: page.offset,
      ...(page.limit ? { limit: page.limit + 1 } : {}),
    }),
    em.count(entity, condition()),
  ]);
  return { ...cutPage(rows as T[], page, order.keyOf), totalCount };
}
