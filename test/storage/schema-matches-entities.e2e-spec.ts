/**
 * Entities are the schema's source of truth (CONTRIBUTING.md, Schema migrations): a database migrated to the head
 * must have the schema the entities describe, so that the next `npm run migration:create` writes only what an entity
 * change asks for. An index a migration adds but no entity declares would be dropped by it (PostgreSQL's
 * foreign-key indexes were one: MikroORM indexes foreign keys by itself on SQLite and MySQL, not on PostgreSQL).
 * Tables no entity maps (the migrations table) are left aside. MariaDB is left out: MikroORM's comparator reads its
 * nullable columns' default as the text 'NULL' and reports changes that are not there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { migrate } from '../../src/storage/migration-runner';
import { ENTITIES } from '../../src/entities';
import { ormOptions } from '../../src/storage/orm-options';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';

describe(`a migrated database has the schema the entities describe (${TEST_DIALECT})`, () => {
  (TEST_DIALECT === 'mysql' ? it.skip : it)('no schema change between the migrations and the entities', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-schema-'));
    const url = await freshDatabaseUrl(dir);
    const orm = await MikroORM.init(ormOptions({ url }, ENTITIES));
    try {
      await migrate(orm, url);
      const sql = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, dropTables: false });
      expect(sql.trim()).toBe('');
    } finally {
      await orm.close(true);
      await dropDatabase(url);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
