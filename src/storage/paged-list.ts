/**
 * The one list query of the management API: one page of rows (one row more than asked, which says whether a next
 * page exists) and the total count, cut by Flipt's paging rules (common/pagination.ts). Both are read in one
 * transaction that sees one snapshot (the dialect table's `listIsolation`), so that a write committed between the
 * two statements cannot make the page disagree with its count.
 */
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import { cutPage, Page, PageResult } from '../common/pagination';
import { dialectOfKnex, knexOf } from './rows';

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
  // One after the other: a transaction holds one connection.
  const read = async (tx: EntityManager): Promise<PagedList<T>> => {
    const rows = await tx.find(entity, condition(), {
      populate: populate as never,
      orderBy: order.orderBy as never,
      offset: page.offset,
      ...(page.limit ? { limit: page.limit + 1 } : {}),
    });
    const totalCount = await tx.count(entity, condition());
    return { ...cutPage(rows as T[], page, order.keyOf), totalCount };
  };
  if (em.isInTransaction()) return read(em);
  // Not READ ONLY as well: knex writes MySQL's `SET TRANSACTION` modes without the comma MySQL requires.
  const isolationLevel = dialectOfKnex(knexOf(em))?.listIsolation;
  return em.transactional(read, isolationLevel ? { isolationLevel } : {});
}
