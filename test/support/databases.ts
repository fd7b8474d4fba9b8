/**
 * A fresh, empty database per test app for the dialect under test. SQLite: a file in the test's temp dir.
 * PostgreSQL / MySQL: a new database on the server named by FLAGPOLE_TEST_POSTGRES_URL / FLAGPOLE_TEST_MYSQL_URL
 * (an admin URL; defaults match the CI machine).
 */
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { LIMIT_LENGTH } from 'sqlite3';
import { SQLITE_MAX_TEXT_BYTES } from '../../src/storage/dialects';
import { ormOptions } from '../../src/storage/orm-options';

export type TestDialect = 'sqlite' | 'postgres' | 'mysql';

export const TEST_DIALECT = (process.env.FLAGPOLE_TEST_DIALECT ?? 'sqlite') as TestDialect;

/** The dialects whose table entry packs a page of flags into one JSON text (`packedFlags`, storage/flag-tree.ts). */
export const PACKING_DIALECTS: readonly TestDialect[] = ['sqlite', 'postgres'];

const ADMIN_URLS: Record<Exclude<TestDialect, 'sqlite'>, string> = {
  postgres: process.env.FLAGPOLE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  mysql: process.env.FLAGPOLE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/mysql',
};

let counter = 0;

async function onServer(admin: string, sql: string): Promise<void> {
  const orm = await MikroORM.init({ ...ormOptions({ url: admin }), entities: [], discovery: { warnWhenNoEntities: false } });
  try {
    await orm.em.getConnection().execute(sql);
  } finally {
    await orm.close(true);
  }
}

/** Drops a database made by freshDatabaseUrl (SQLite files go with the temp dir). */
export async function dropDatabase(url: string): Promise<void> {
  const name = /\/(flagpole_test_[a-z0-9_]+)/.exec(url)?.[1];
  if (!name || TEST_DIALECT === 'sqlite') return;
  await onServer(ADMIN_URLS[TEST_DIALECT], `drop database if exists ${name}`);
}

export async function freshDatabaseUrl(dir: string, dialect: TestDialect = TEST_DIALECT): Promise<string> {
  if (dialect === 'sqlite') return `file:${join(dir, 'flagpole.db')}`;
  const admin = ADMIN_URLS[dialect];
  const name = `flagpole_test_${process.pid}_${Date.now()}_${counter++}`;
  await onServer(admin, `create database ${name}`);
  return admin.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
}

/**
 * Runs `work` with SQLite's connection (the pool has one) limited to texts and blobs of `limit` bytes, then puts the
 * configured limit back (SQLITE_MAX_TEXT_BYTES, dialects.ts): a way to make a read too large for one text.
 */
export async function withSqliteLengthLimit<T>(knex: Knex, limit: number, work: () => Promise<T>): Promise<T> {
  const pool = (knex as unknown as { client: { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> } }).client;
  const setLimit = async (value: number) => {
    const connection = (await pool.acquireConnection()) as { configure(option: 'limit', id: number, value: number): void };
    connection.configure('limit', LIMIT_LENGTH, value);
    await pool.releaseConnection(connection);
  };
  await setLimit(limit);
  try {
    return await work();
  } finally {
    await setLimit(SQLITE_MAX_TEXT_BYTES);
  }
}
