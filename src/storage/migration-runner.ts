/** Brings the schema up to date before anything else touches the database (start-up and `flagpole migrate`). */
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { dialectOf } from './dialects';
import type { DatabaseSettings } from './orm-options';

export const DATABASE_SETTINGS = Symbol('DATABASE_SETTINGS');

/**
 * Applies pending migrations. Instances starting together against one database take the dialect's lock first, so
 * one of them migrates and the others find nothing left to do.
 */
export async function migrate(orm: MikroORM, url: string): Promise<string[]> {
  const lock = dialectOf(url).migrationLock;
  const up = async () => (await orm.getMigrator().up()).map((m) => m.name);
  if (!lock) return up();
  const knex = (orm.em as SqlEntityManager).getKnex();
  return knex.transaction(async (trx) => {
    await trx.raw(lock.acquire);
    try {
      return await up();
    } finally {
      if (lock.release) await trx.raw(lock.release);
    }
  });
}

@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger('Storage');

  constructor(
    private readonly orm: MikroORM,
    @Inject(DATABASE_SETTINGS) private readonly db: DatabaseSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    const applied = await migrate(this.orm, this.db.url);
    if (applied.length) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}
