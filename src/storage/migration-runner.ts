/** Brings the schema up to date before anything else touches the database (start-up and `flagpole migrate`). */
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
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
