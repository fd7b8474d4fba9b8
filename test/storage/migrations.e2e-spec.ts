/**
 * Start-up's check for pending migrations (storage/migration-files.ts) on the dialect under test: a new database has
 * every migration pending, a migrated one none, and a migration file the database has not recorded is pending again,
 * so the Migrator (loaded only then) applies it. `migrate` on an up-to-date database applies nothing.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { dialectOf, migrationsPath } from '../../src/storage/dialects';
import { hasPendingMigrations, migrationNames, MIGRATIONS_TABLE } from '../../src/storage/migration-files';
import { migrate } from '../../src/storage/migration-runner';
import { ENTITIES } from '../../src/entities';
import { ormOptions } from '../../src/storage/orm-options';
import { dropDatabase, freshDatabaseUrl } from '../support/databases';

describe('pending migrations, checked without the Migrator', () => {
  let dir: string;
  let url: string;
  let orm: MikroORM;
  let knex: Knex;
  let folder: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-migrations-'));
    url = await freshDatabaseUrl(dir);
    orm = await MikroORM.init(ormOptions({ url }, ENTITIES));
    knex = (orm.em as SqlEntityManager).getKnex();
    folder = migrationsPath(dialectOf(url));
  });

  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  it("names a folder's migrations as the Migrator does: .js and .ts files, no declarations, no extension", () => {
    const other = join(dir, 'names');
    mkdirSync(other);
    for (const file of ['Migration2_b.ts', 'Migration1_a.js', 'Migration1_a.d.ts', 'Migration3_c.js.map', 'README.md']) {
      writeFileSync(join(other, file), '');
    }
    expect(migrationNames(other)).toEqual(['Migration1_a', 'Migration2_b']);
    expect(migrationNames(folder).length).toBeGreaterThanOrEqual(4);
  });

  it('a new database (no migrations table) has every migration pending; migrate applies them all, from any working directory', async () => {
    await expect(hasPendingMigrations(knex, folder)).resolves.toBe(true);
    // Started from elsewhere than its folder (MikroORM alone would look for its Migrator from the working directory).
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await expect(migrate(orm, url)).resolves.toEqual(migrationNames(folder));
    } finally {
      process.chdir(cwd);
    }
    const recorded = (await knex.select('name').from(MIGRATIONS_TABLE)).map((r: { name: string }) => r.name);
    expect(recorded.sort()).toEqual(migrationNames(folder));
  });

  it('a migrated database has none pending, and migrate applies nothing', async () => {
    await expect(hasPendingMigrations(knex, folder)).resolves.toBe(false);
    await expect(migrate(orm, url)).resolves.toEqual([]);
  });

  it('a migration file the database has not recorded is pending', async () => {
    const newer = join(dir, 'newer');
    mkdirSync(newer);
    for (const file of readdirSync(folder)) copyFileSync(join(folder, file), join(newer, file));
    writeFileSync(join(newer, 'Migration29991231000000_later.js'), '');
    await expect(hasPendingMigrations(knex, newer)).resolves.toBe(true);
  });

  it('a migration whose record is gone is pending again', async () => {
    const [last] = migrationNames(folder).slice(-1);
    const row = await knex(MIGRATIONS_TABLE).where({ name: last }).first();
    await knex(MIGRATIONS_TABLE).where({ name: last }).delete();
    try {
      await expect(hasPendingMigrations(knex, folder)).resolves.toBe(true);
    } finally {
      await knex(MIGRATIONS_TABLE).insert(row);
    }
    await expect(hasPendingMigrations(knex, folder)).resolves.toBe(false);
  });
});
