/**
 * storage/rows.ts readAll on the dialect under test: the rows it gives are the rows the driver gives for the same
 * query, value for value and in order, whether they came packed (SQLite: one JSON text per read) or not, inside a
 * transaction and outside one. Doubles come back exact (JSON's 15 digits would round a float32 percentage).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { ormOptions } from '../../src/storage/orm-options';
import { num, read, readAll, str, type Row } from '../../src/storage/rows';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT, withSqliteLengthLimit } from '../support/databases';

const ROWS = 5000;
const doubles = [33.3, Math.fround(33.3), 33.33333333333333, 0.1 + 0.2, 1e-7, 100, 12.5, Math.fround(0.1)];
const texts = ['plain', "it's", 'quo"te', 'back\\slash', 'ünï €', 'line\nbreak', '', '{"json": [1, 2]}'];

describe('readAll gives the driver\'s rows, packed or not', () => {
  let dir: string;
  let url: string;
  let orm: MikroORM;
  let knex: Knex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-read-all-'));
    url = await freshDatabaseUrl(dir);
    orm = await MikroORM.init({ ...ormOptions({ url }), entities: [], discovery: { warnWhenNoEntities: false }, migrations: undefined });
    knex = (orm.em as SqlEntityManager).getKnex();
    await knex.schema.createTable('read_all_items', (t) => {
      t.string('id', 64).primary();
      t.integer('position').notNullable();
      t.double('share').nullable();
      t.text('label').nullable();
      t.boolean('flag').notNullable();
    });
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      id: `item-${String(i).padStart(5, '0')}`,
      // Inserted out of order, read back in order: the order is the query's, not the table's.
      position: (i * 7919) % ROWS,
      share: i % 11 === 0 ? null : i < doubles.length ? doubles[i] : Math.fround(Math.random() * 100),
      label: i % 13 === 0 ? null : texts[i % texts.length],
      flag: i % 2 === 0,
    }));
    for (let i = 0; i < rows.length; i += 500) await knex('read_all_items').insert(rows.slice(i, i + 500));
  });

  afterAll(async () => {
    await orm?.close(true);
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  const columns = ['id', 'position', 'share', 'label', 'flag'];
  const query = (k: Knex) => k('read_all_items').where('position', '>=', 10).orderBy('position');
  /** What evaluation-source and the document reader take from a row: numbers by num, text by str. */
  const normal = (rows: Row[]) => rows.map((r) => [str(r.id), num(r.position), r.share === null ? null : num(r.share), r.label, Boolean(num(r.flag))]);

  it('outside a transaction: the same values in the same order, doubles exact', async () => {
    const [direct] = [(await query(knex).select(columns)) as Row[]];
    const [got, again] = await readAll(knex, [read(query(knex), columns), read(query(knex).limit(3), columns)]);
    expect(got).toHaveLength(ROWS - 10);
    expect(normal(got)).toEqual(normal(direct));
    expect(got.map((r) => num(r.position))).toEqual([...Array(ROWS - 10).keys()].map((i) => i + 10));
    expect(again.map((r) => r.id)).toEqual(direct.slice(0, 3).map((r) => r.id));
    const exact = got.filter((r) => r.share !== null && doubles.includes(num(r.share)));
    expect(exact.length).toBeGreaterThanOrEqual(doubles.filter((_, i) => i % 11 !== 0).length - 1);
  });

  it('inside a transaction: reads what the transaction wrote', async () => {
    const undo = new Error('undo');
    let got: Row[] = [];
    await expect(knex.transaction(async (trx) => {
      await trx('read_all_items').insert({ id: 'item-in-trx', position: ROWS + 1, share: Math.fround(66.6), label: 'new', flag: true });
      [got] = await readAll(trx, [read(query(trx), columns)]);
      throw undo;
    })).rejects.toBe(undo);
    expect(got).toHaveLength(ROWS - 9);
    expect(normal(got.slice(-1))).toEqual([['item-in-trx', ROWS + 1, Math.fround(66.6), 'new', true]]);
    expect(await knex('read_all_items').where('id', 'item-in-trx')).toEqual([]);
  });

  it('table-qualified columns come under their own names, and an empty read is an empty list', async () => {
    const [joined, none] = await readAll(knex, [
      read(knex('read_all_items as a').join('read_all_items as b', 'b.id', 'a.id').where('a.position', '<', 3).orderBy('a.position'), ['a.id', 'b.label']),
      read(query(knex).where('position', '<', 0), columns),
    ]);
    expect(joined.map((r) => Object.keys(r))).toEqual([['id', 'label'], ['id', 'label'], ['id', 'label']]);
    expect(none).toEqual([]);
  });

  (TEST_DIALECT === 'sqlite' ? it : it.skip)('SQLite: rows too large for one text are read one by one instead', async () => {
    const direct = (await query(knex).select(columns)) as Row[];
    // The packed text of these rows is about 300 KB; each value is short.
    const [got] = await withSqliteLengthLimit(knex, 20_000, () => readAll(knex, [read(query(knex), columns)]));
    expect(normal(got)).toEqual(normal(direct));
  });
});
