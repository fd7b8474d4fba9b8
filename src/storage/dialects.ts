/**
 * The dialect table: everything that differs between databases lives in one entry here. Config, the migration
 * runner and the tests read only this table; adding a database is adding an entry (and its migrations folder).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { IsolationLevel, type Options } from '@mikro-orm/core';
import { packedFlagsSqlPg, packedTextPg } from './pg-json';
import { packedFlagsSql, packedRowsSql } from './sqlite-json';

export type DialectName = 'sqlite' | 'postgres' | 'mysql' | 'mariadb' | 'cockroach';

export interface Dialect {
  name: DialectName;
  /** URL schemes (before `:`) that select this dialect. */
  schemes: string[];
  /** Folder under migrations/ holding this dialect's schema migrations. */
  migrations: string;
  /** MikroORM driver options for a URL of this dialect; the driver package is required lazily. */
  orm(url: string): Options;
  /** Environment variable naming the test database URL (tests skip the dialect when it is unset and unreachable). */
  testUrlEnv?: string;
  /**
   * SQL that serialises schema migrations between instances starting together, run on one pinned connection
   * (inside a transaction) around the migration; absent where one process owns the database (SQLite).
   */
  migrationLock?: { acquire: string; release?: string };
  /** Whether `SELECT … FOR UPDATE` exists (SQLite has one writer at a time and no row locks). */
  rowLocks?: boolean;
  /**
   * A statement that takes the database's write lock, run first in every write transaction where one lock covers
   * the whole database (SQLite). There a transaction that read first and wrote next fails at once (SQLITE_BUSY, not
   * waited for) when another connection committed in between: the write worker's, the main thread's, or a command
   * run beside the server. One whose first statement writes waits for the lock (the busy timeout) and then reads
   * only what it holds.
   */
  writeLockFirst?: string;
  /** Whether schema changes can run inside a transaction (MySQL commits implicitly at every DDL statement). */
  transactionalDdl?: boolean;
  /**
   * Where handing rows over one by one is the slow part of a large read: SQL that returns the rows of `sql` (whose
   * result columns are `columns`, in order) as one JSON text, an array of arrays, in the column `rows`. SQLite's
   * driver builds every row's object through N-API on the event loop, about 3 µs a row; SQLite builds the JSON in
   * C and JSON.parse reads it about three times faster, in shorter stretches. A value may come as text where the
   * driver gives a number (read numbers with `num`). `tooLarge` tells the error of a result too large for one text
   * (SQLite's is SQLITE_MAX_TEXT_BYTES here), whose rows are then read one by one.
   */
  packedRows?: { select(sql: string, columns: readonly string[]): string; tooLarge(error: unknown): boolean };
  /**
   * Where the database can build nested JSON: SQL that returns the flags `sql` selects with their variants, rules
   * and rollouts as one JSON text (layout: flag-tree.ts), and that text from knex's raw result. A full load's page
   * of flags is then one query and one JSON.parse, not seven whose rows are grouped on the event loop.
   */
  packedFlags?: { select(sql: string): string; text(result: unknown): string };
  /**
   * The isolation level under which a list reads its page and its total count (paged-list.ts) so that both see one
   * snapshot, where a plain transaction's statements each see the latest commit: PostgreSQL's default READ COMMITTED,
   * and MySQL's when a server is set to it. Absent: a plain transaction already reads one snapshot (SQLite; CockroachDB
   * runs SERIALIZABLE).
   */
  listIsolation?: IsolationLevel;
  /**
   * How long the health check's `SELECT 1` may take before the database counts as unreachable (1.5 s where absent).
   * SQLite's one connection runs every query in turn, so there the ping waits behind the writes queued before it: a
   * busy database, not an unreachable one (under issue 38's attacks on 2 cores it waited up to 1.7 s).
   */
  healthTimeoutMs?: number;
  /**
   * What an upsert sets a counter column to so that a row that exists already gets the new count added to its own
   * (analytics: instances flushing the same minute into one database sum exactly). knex writes the surrounding
   * `on conflict (…) do update set` (SQLite, PostgreSQL) or `on duplicate key update` (MySQL).
   */
  addedCount(table: string, column: string): string;
}

/** The knex configuration's key naming the dialect table's entry (ormOptions sets it; rows.ts's dialectOfKnex reads it). */
export const KNEX_DIALECT_KEY = 'flagpoleDialect';

/** SQLite's limit on one text or blob (SQLITE_LIMIT_LENGTH): 256 MiB, half of V8's longest string. */
export const SQLITE_MAX_TEXT_BYTES = 256 * 1024 * 1024;
/** How long a SQLite statement waits for another connection's lock before it fails with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

const PG_LOCK = { acquire: 'select pg_advisory_xact_lock(727274321)' };
/** The conflicting row is `excluded` (SQLite, PostgreSQL) or `values(column)` (MySQL, MariaDB). */
const addedFromExcluded = (table: string, column: string) => `"${table}"."${column}" + excluded."${column}"`;
const addedFromValues = (_table: string, column: string) => `\`${column}\` + values(\`${column}\`)`;

const MYSQL_LOCK = { acquire: "select get_lock('flagpole_migrations', 300)", release: "select release_lock('flagpole_migrations')" };

/** MySQL compares keys case-insensitively and drops milliseconds unless told otherwise. */
const MYSQL_SESSION = { charset: 'utf8mb4', collate: 'utf8mb4_bin', timezone: '+00:00' } as const;

export const DIALECTS: readonly Dialect[] = [
  {
    name: 'sqlite',
    schemes: ['file', 'sqlite', 'sqlite3'],
    migrations: 'sqlite',
    addedCount: addedFromExcluded,
    rowLocks: false,
    // Deletes nothing; as a write, it takes the file's write lock.
    writeLockFirst: 'delete from namespaces where 0',
    healthTimeoutMs: 2 * SQLITE_BUSY_TIMEOUT_MS,
    // The SQL and its rules (order, exact REALs): sqlite-json.ts.
    packedRows: {
      select: packedRowsSql,
      tooLarge: (error) => (error as { code?: unknown } | null)?.code === 'SQLITE_TOOBIG',
    },
    packedFlags: { select: packedFlagsSql, text: (result) => (result as Array<{ rows: string }>)[0].rows },
    orm(url) {
      const file = sqlitePath(url);
      if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
      // One connection: SQLite has one writer, and a shared connection keeps `pragma foreign_keys` on. Its text
      // limit is below the longest string Node can hold, so that a packed read too large for one JavaScript string
      // fails as SQLITE_TOOBIG (and is read another way) rather than in the driver.
      // Required here, not in the hook: a pool may open a connection late (in tests, after Jest tore its module
      // registry down, which then prints a stack trace for the require).
      const { LIMIT_LENGTH } = require('sqlite3') as { LIMIT_LENGTH: number };
      const afterCreate = (connection: { configure(option: 'limit', id: number, value: number): void; configure(option: 'busyTimeout', ms: number): void }, done: (e: Error | null, c: unknown) => void) => {
        connection.configure('limit', LIMIT_LENGTH, SQLITE_MAX_TEXT_BYTES);
        // With the write worker (server.write_worker) two connections share the file: one waits for the other's lock.
        connection.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
        done(null, connection);
      };
      return { driver: require('@mikro-orm/sqlite').SqliteDriver, dbName: file, pool: { min: 1, max: 1, afterCreate } };
    },
  },
  {
    name: 'postgres',
    schemes: ['postgres', 'postgresql', 'pgx'],
    migrations: 'postgres',
    addedCount: addedFromExcluded,
    testUrlEnv: 'FLAGPOLE_TEST_POSTGRES_URL',
    migrationLock: PG_LOCK,
    listIsolation: IsolationLevel.REPEATABLE_READ,
    // The SQL and why it reads what the rows give: pg-json.ts. Not CockroachDB's (below): no CI here runs it.
    packedFlags: { select: packedFlagsSqlPg, text: packedTextPg },
    orm: (url) => ({ driver: require('@mikro-orm/postgresql').PostgreSqlDriver, clientUrl: withScheme(url, 'postgresql') }),
  },
  {
    name: 'cockroach',
    schemes: ['cockroach', 'cockroachdb'],
    migrations: 'postgres',
    addedCount: addedFromExcluded,
    orm: (url) => ({ driver: require('@mikro-orm/postgresql').PostgreSqlDriver, clientUrl: withScheme(url, 'postgresql') }),
  },
  {
    name: 'mysql',
    schemes: ['mysql'],
    migrations: 'mysql',
    addedCount: addedFromValues,
    testUrlEnv: 'FLAGPOLE_TEST_MYSQL_URL',
    migrationLock: MYSQL_LOCK,
    transactionalDdl: false,
    listIsolation: IsolationLevel.REPEATABLE_READ,
    orm: (url) => ({ driver: require('@mikro-orm/mysql').MySqlDriver, clientUrl: url, ...MYSQL_SESSION }),
  },
  {
    name: 'mariadb',
    schemes: ['mariadb'],
    migrations: 'mysql',
    addedCount: addedFromValues,
    migrationLock: MYSQL_LOCK,
    transactionalDdl: false,
    listIsolation: IsolationLevel.REPEATABLE_READ,
    orm: (url) => ({ driver: require('@mikro-orm/mariadb').MariaDbDriver, clientUrl: withScheme(url, 'mysql'), ...MYSQL_SESSION }),
  },
];

export class UnknownDatabaseError extends Error {}

export function dialectOf(url: string): Dialect {
  const scheme = /^([a-z0-9+.-]+):/i.exec(url)?.[1]?.toLowerCase() ?? '';
  const dialect = DIALECTS.find((d) => d.schemes.includes(scheme));
  if (!dialect) throw new UnknownDatabaseError(`unknown database driver for: ${JSON.stringify(scheme || url)}`);
  return dialect;
}

/** `file:/abs/x.db`, `file:./rel.db`, `file://x.db`, `sqlite:x.db` → the file path (query string dropped). */
export function sqlitePath(url: string): string {
  const rest = url.replace(/^[a-z0-9]+:/i, '').replace(/^\/\/(?=\/)/, '').replace(/^\/\/(?!\/)/, '');
  return rest.split('?')[0] || ':memory:';
}

function withScheme(url: string, scheme: string): string {
  return url.replace(/^[a-z0-9+.-]+:/i, `${scheme}:`);
}

export function migrationsPath(dialect: Dialect): string {
  // Same depth from src/storage (tests) and dist/storage (built): the repository's migrations/ folder.
  return resolve(__dirname, '..', '..', 'migrations', dialect.migrations);
}
