/** `flagpole migrate`: applies pending schema migrations and exits, without starting the server. */
import { MikroORM } from '@mikro-orm/core';
import { migrate } from './migration-runner';
import { DatabaseSettings, ormOptions } from './orm-options';

export async function runMigrateCommand(db: DatabaseSettings): Promise<void> {
  const orm = await MikroORM.init(ormOptions(db));
  try {
    const applied = await migrate(orm, db.url);
    console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await orm.close(true);
  }
}
