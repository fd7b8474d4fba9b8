/**
 * Plain SQL rows as the drivers hand them over, read the same on every database: booleans come as true/1/'1',
 * numbers sometimes as text, NULL as null. Used by the readers that skip entity hydration (evaluation-source.ts,
 * flags-as-code/document.repository.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { DIALECTS, KNEX_DIALECT_KEY, type Dialect } from './dialects';

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

/** A read: a query and the columns it selects, by the names its rows carry them under. */
export interface Read {
  query: Knex.QueryBuilder;
  columns: readonly string[];
}

/**
 * `query` selecting `columns` (`table.column` or plain; a row carries each under the part after the last dot): the
 * column list is written once, for the select and for rows that come packed (packedRows in the dialect table).
 */
export function read(query: Knex.QueryBuilder, columns: readonly string[]): Read {
  return { query: query.select(columns as string[]), columns: columns.map((c) => c.slice(c.lastIndexOf('.') + 1)) };
}

/**
 * Runs the reads side by side on the pool's connections, or one after the other in a transaction, which has one
 * connection (pg refuses queries queued on one client from version 9). On a dialect that packs rows, each read's
 * rows come as one JSON text and are unpacked here into the same plain rows.
 */
export async function readAll(knex: Knex, reads: readonly Read[]): Promise<Row[][]> {
  const pack = dialectOfKnex(knex)?.packedRows;
  const run = (r: Read): Promise<Row[]> => (pack ? readPacked(knex, r, pack) : (r.query as unknown as Promise<Row[]>));
  if (!(knex as Knex.Transaction).isTransaction) return Promise.all(reads.map(run));
  const results: Row[][] = [];
  for (const r of reads) results.push(await run(r));
  return results;
}

type Packer = NonNullable<Dialect['packedRows']>;

/**
 * The dialect table's entry for this query builder's client: ormOptions names it in the knex configuration
 * (KNEX_DIALECT_KEY), which transactions' clients share. PostgreSQL and CockroachDB share one knex client.
 */
export function dialectOfKnex(knex: Knex): Dialect | undefined {
  const name = (knex as unknown as { client?: { config?: Record<string, unknown> } }).client?.config?.[KNEX_DIALECT_KEY];
  return DIALECTS.find((d) => d.name === name);
}

async function readPacked(knex: Knex, { query, columns }: Read, pack: Packer): Promise<Row[]> {
  const { sql, bindings } = query.toSQL().toNative();
  let result: { rows: string };
  try {
    [result] = (await knex.raw(pack.select(sql, columns), bindings as Knex.RawBinding[])) as Array<{ rows: string }>;
  } catch (error) {
    if (pack.tooLarge(error)) return query as unknown as Promise<Row[]>;
    throw error;
  }
  const rows: Row[] = [];
  for (const values of JSON.parse(result.rows) as unknown[][]) {
    const row: Row = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    rows.push(row);
  }
  return rows;
}
