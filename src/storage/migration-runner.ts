/** Brings the schema up to date before anything else touches the database (start-up and `flagpole migrate`). */
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { dialectOf, migrationsPath } from './dialects';
import { hasPendingMigrations } from './migration-files';
import type { DatabaseSettings } from './orm-options';

export const DATABASE_SETTINGS = Symbol('DATABASE_SETTINGS');

/**
 * Applies pending migrations. Instances starting together against one database take the dialect's lock first, so
 * one of them migrates and the others find nothing left to do.
 */
export async function migrate(orm: MikroORM, url: string): Promise<string[]> {
  const dialect = dialectOf(url);
  const knex = (orm.em as SqlEntityManager).getKnex();
  // Read without the lock: a migration another instance is applying meanwhile is pending here, so this one waits for
  // the lock and then finds nothing left to do.
  if (!(await hasPendingMigrations(knex, migrationsPath(dialect)))) return [];
  const lock = dialect.migrationLock;
  const up = async () => (await migratorOf(orm).up()).map((m) => m.name);
  if (!lock) return up();
  return knex.transaction(async (trx) => {
    await trx.raw(lock.acquire);
    try {
      return await up();
    } finally {
      if (lock.release) await trx.raw(lock.release);
    }
  });
}

/**
 * MikroORM's Migrator, loaded now (orm-options.ts does not register it). Registered explicitly: left to itself,
 * MikroORM looks for @mikro-orm/migrations from the working directory, which fails when Flagpole is started from
 * anywhere but its own folder.
 */
function migratorOf(orm: MikroORM) {
  (require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations')).Migrator.register(orm);
  return orm.migrator;
}

@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger('Storage');

  constructor(
    private readonly orm: MikroORM,
    @Inject(DATABASE_SETTINGS) private readonly db: DatabaseSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    // The write worker, started after the server migrated, finds nothing pending (one read of the migrations table).
    const applied = await migrate(this.orm, this.db.url);
    if (applied.length) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}
