/**
 * Which schema migrations a database still lacks, without loading MikroORM's Migrator: the files of the dialect's
 * migrations folder against the names in the migrations table. Loading the Migrator (umzug and its CLI libraries)
 * took about a tenth of a start-up, and a started database has nothing pending.
 */
import { readdirSync } from 'node:fs';
import type { Knex } from '@mikro-orm/knex';

/** MikroORM's default name, set explicitly so that this check and the Migrator read the same table. */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/** The Migrator's names for the files of a migrations folder: `.js` or `.ts`, not declarations, without extension. */
export function migrationNames(folder: string): string[] {
  const files = readdirSync(folder).filter((file) => /\.[jt]s$/.test(file) && !/\.d\.[jt]s$/.test(file));
  return [...new Set(files.map((file) => file.replace(/\.[jt]s$/, '')))].sort();
}

/**
 * Whether any migration of `folder` is not recorded as applied. A database without the table (a new one), or one
 * that cannot be read, counts as pending: the Migrator then runs and reports what is really wrong.
 */
export async function hasPendingMigrations(knex: Knex, folder: string): Promise<boolean> {
  const names = migrationNames(folder);
  try {
    const rows: { name: string }[] = await knex.select('name').from(MIGRATIONS_TABLE);
    const applied = new Set(rows.map((r) => r.name));
    return names.some((name) => !applied.has(name));
  } catch {
    return true;
  }
}
