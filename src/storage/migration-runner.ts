/** Brings the schema up to date before anything else touches the database (start-up and `flagpole migrate`). */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { dialectOf } from './dialects';

/**
 * Applies pending migrations. Instances starting together against one database take the dialect's lock first, so
 * one of them migrates and the others find nothing left to do.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const lock = dialectOf(orm.config.get('clientUrl') ?? `file:${orm.config.get('dbName')}`).migrationLock;
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

  constructor(private readonly orm: MikroORM) {}

  async onModuleInit(): Promise<void> {
    const applied = await migrate(this.orm);
    if (applied.length) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}
