/**
 * Plain SQL rows as the drivers hand them over, read the same on every database: booleans come as true/1/'1',
 * numbers sometimes as text, NULL as null. Used by the readers that skip entity hydration (evaluation-source.ts,
 * flags-as-code/document.repository.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';

export type Row = Record<string, unknown>;

export const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
export const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The rows by the value of one column, each mapped, in their order. */
export function groupBy<T>(rows: Row[], key: string, map: (row: Row) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = str(row[key]);
    const list = out.get(k);
    if (list) list.push(map(row));
    else out.set(k, [map(row)]);
  }
  return out;
}

/** The query builder of the EntityManager's transaction, or of its connection outside one. */
export function knexOf(em: EntityManager): Knex {
  return (em.getTransactionContext<Knex.Transaction>() ?? (em as SqlEntityManager).getKnex()) as Knex;
}

/**
 * Runs the queries side by side on the pool's connections, or one after the other in a transaction, which has one
 * connection (pg refuses queries queued on one client from version 9).
 */
export async function readAll(knex: Knex, queries: Knex.QueryBuilder[]): Promise<unknown[]> {
  if (!(knex as Knex.Transaction).isTransaction) return Promise.all(queries);
  const results: unknown[] = [];
  for (const query of queries) results.push(await query);
  return results;
}
