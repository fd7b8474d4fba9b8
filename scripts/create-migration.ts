/**
 * Writes the next schema migration for every dialect folder by diffing the entities against a database migrated to
 * the current head. Needs the local PostgreSQL and MariaDB (as in CI); SQLite uses a temporary file.
 *   npm run migration:create [-- name]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { ENTITIES } from '../src/entities';
import { ormOptions } from '../src/storage/orm-options';

const SCRATCH = 'flagpole_migration_scratch';
const TARGETS = [
  { name: 'sqlite', url: `file:${join(mkdtempSync(join(tmpdir(), 'flagpole-')), 'scratch.db')}` },
  { name: 'postgres', admin: process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  { name: 'mysql', admin: process.env.MYSQL_ADMIN_URL ?? 'mysql://root@127.0.0.1:3306/mysql' },
];

async function recreate(adminUrl: string): Promise<string> {
  const orm = await MikroORM.init({ ...ormOptions({ url: adminUrl }), entities: [], discovery: { warnWhenNoEntities: false } });
  const conn = orm.em.getConnection();
  await conn.execute(`drop database if exists ${SCRATCH}`);
  await conn.execute(`create database ${SCRATCH}`);
  await orm.close(true);
  return adminUrl.replace(/\/[^/]*$/, `/${SCRATCH}`);
}

async function main(): Promise<void> {
  const name = process.argv[2];
  for (const t of TARGETS) {
    const url = 'url' in t && t.url ? t.url : await recreate(t.admin!);
    const orm = await MikroORM.init(ormOptions({ url }, ENTITIES));
    const migrator = orm.getMigrator();
    await migrator.up();
    const result = await migrator.createMigration(undefined, false, false, name);
    console.log(`${t.name}: ${result.fileName || 'no schema changes'}`);
    await orm.close(true);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
