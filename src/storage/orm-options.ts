import type { EntityClass, Options } from '@mikro-orm/core';
import { dialectOf, KNEX_DIALECT_KEY, migrationsPath } from './dialects';
import { MIGRATIONS_TABLE } from './migration-files';

export const ACQUIRE_TIMEOUT_MS = 10_000;

export interface DatabaseSettings {
  url: string;
  maxOpenConn?: number;
  maxIdleConn?: number;
  connMaxLifetime?: number;
}

/**
 * MikroORM's options for this database. `entities`: the application's entity classes (src/entities.ts, which the
 * app's assembly hands to StorageModule); storage itself names none. Without them (`flagpole migrate`, which runs
 * migration files only) MikroORM starts with no metadata.
 */
export function ormOptions(db: DatabaseSettings, entities: readonly EntityClass<object>[] = []): Options {
  const dialect = dialectOf(db.url);
  const base = dialect.orm(db.url);
  const pool = base.pool ?? {
    min: 0,
    max: db.maxOpenConn && db.maxOpenConn > 0 ? db.maxOpenConn : 10,
    // A database that accepts connections but never answers fails a query after 10 s (knex's default is 60 s), so
    // writes get their 503 and evaluation snapshots retry their reload instead of waiting a minute.
    acquireTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    ...(db.connMaxLifetime ? { idleTimeoutMillis: db.connMaxLifetime } : {}),
  };
  return {
    ...base,
    pool,
    // Merged into knex's configuration by MikroORM: readers tell the dialect from it (rows.ts, dialectOfKnex).
    driverOptions: { ...base.driverOptions, [KNEX_DIALECT_KEY]: dialect.name },
    entities: [...entities],
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    // Entities are plain data to services; they are mapped to Flipt's JSON explicitly.
    serialization: { forceObject: true },
    // The Migrator (@mikro-orm/migrations, umzug) is not registered here: migration-runner.ts loads and registers it
    // when a migration is pending, which a started database does not have.
    migrations: {
      tableName: MIGRATIONS_TABLE,
      path: migrationsPath(dialect),
      glob: '!(*.d).{js,ts}',
      emit: 'js',
      transactional: dialect.transactionalDdl !== false,
      allOrNothing: dialect.transactionalDdl !== false,
      snapshot: false,
      disableForeignKeys: false,
      silent: true,
    },
    // No DEFAULTs from initialisers: services always write every column, and MySQL 8 refuses DEFAULT on TEXT.
    discovery: { warnWhenNoEntities: entities.length > 0, inferDefaultValues: false },
  };
}
