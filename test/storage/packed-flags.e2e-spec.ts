/**
 * Where the dialect packs a page of flags into one statement of nested JSON (SQLite and PostgreSQL: the dialect
 * table's `packedFlags`, storage/flag-tree.ts), the flags it reads must be exactly those the row-by-row read gives
 * (the other dialects' way): every field, every child, in the same order. Whole loads in pages of several sizes (cut
 * inside a tie of creation times), a write's read of named flags, text that JSON must escape, REALs that 15 digits
 * would round, and (SQLite) a page too large for one text (read row by row instead). On MySQL both reads are the
 * row-by-row one and the comparisons hold trivially; the cursor and the order are checked all the same.
 */
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import type { SourceFlag } from '../../src/core';
import { Database } from '../../src/storage/database.service';
import { DIALECTS, SQLITE_MAX_TEXT_BYTES } from '../../src/storage/dialects';
import { flagPages, loadFlags, type ReadHow } from '../../src/storage/evaluation-source';
import { dialectOfKnex } from '../../src/storage/rows';
import { PACKING_DIALECTS, TEST_DIALECT, withSqliteLengthLimit } from '../support/databases';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { buildNamespace, type FlagSpec } from '../evaluation/fixtures';

const NS = 'packed';
/** Text JSON must escape or carry as it is: quotes, backslashes, control characters, non-ASCII, JSON-looking text. */
const TEXTS = ['plain', 'quo"te', 'back\\slash', 'tab\there', 'line\nbreak', 'ünï € 日本', 'emoji 🚩', '{"not": "json"}', '\u0001\u001f'];
const ATTACHMENTS = ['{"a":1,"b":[true,null,"x\\"y"]}', '{"text":"line\\nbreak ü 🚩"}', '[1.5,2e-7,33.33333333333333]', '"just a string"', '{}'];
/** Rollouts no REAL's 15 digits give back, summing to 100. */
const SHARES = [Math.fround(33.3), 33.33333333333333, 100 - Math.fround(33.3) - 33.33333333333333];

function flagSpec(i: number): FlagSpec {
  const text = TEXTS[i % TEXTS.length];
  const common = { key: `flag-${String(i).padStart(2, '0')}`, name: `name ${text}`, description: `description ${text}`, enabled: i % 3 !== 0 };
  if (i % 4 === 3) {
    return {
      ...common,
      type: 'BOOLEAN_FLAG_TYPE',
      rollouts: [
        { description: `threshold ${text}`, threshold: { percentage: SHARES[i % 3], value: i % 2 === 0 } },
        { description: 'both segments', segment: { segments: ['beta', 'gamma'], operator: 'AND_SEGMENT_OPERATOR', value: true } },
        { segment: { segments: ['gamma'], value: false } },
      ],
    };
  }
  if (i % 7 === 5) return { ...common, type: 'VARIANT_FLAG_TYPE' }; // no variants, no rules
  return {
    ...common,
    type: 'VARIANT_FLAG_TYPE',
    variants: [
      { key: 'a', attachment: ATTACHMENTS[i % ATTACHMENTS.length] },
      { key: `b-${i}` },
      { key: 'c', attachment: ATTACHMENTS[(i + 2) % ATTACHMENTS.length] },
    ],
    defaultVariant: i % 2 === 0 ? 'a' : undefined,
    rules: [
      { segments: ['gamma', 'beta'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['c', SHARES[0]], ['a', SHARES[1]], [`b-${i}`, SHARES[2]]] },
      { segments: ['beta'], distributions: [['a', 0], [`b-${i}`, 100]] },
      { segments: ['gamma'] },
    ],
  };
}

const COUNT = 30;

describe(`packed flag pages read what rows give (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole;
  let db: Database;

  beforeAll(async () => {
    fp = await startFlagpole();
    await buildNamespace(client(fp.url), {
      key: NS,
      segments: [
        { key: 'beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }] },
        { key: 'gamma', matchType: 'ANY_MATCH_TYPE' },
      ],
      flags: Array.from({ length: COUNT }, (_, i) => flagSpec(i)),
    });
    db = fp.app.get(Database);
    // Eight flags share one creation time, so that pages are cut inside the tie (by id).
    await read(async (knex) => {
      const [first] = await knex('flags').select('created_at').where({ namespace_key: NS, key: 'flag-04' });
      await knex('flags').where('namespace_key', NS).whereIn('key', ['flag-05', 'flag-06', 'flag-07', 'flag-08', 'flag-09', 'flag-10', 'flag-11']).update({ created_at: first.created_at });
    });
  }, 120_000);
  afterAll(() => fp?.close());

  function read<T>(work: (knex: Knex) => Promise<T>): Promise<T> {
    return db.read((em) => work((em as SqlEntityManager).getKnex()));
  }

  async function paged(knex: Knex, perPage: number, how: ReadHow): Promise<SourceFlag[]> {
    const all: SourceFlag[] = [];
    for await (const page of flagPages(knex, NS, perPage, how)) {
      expect(page.length).toBeLessThanOrEqual(perPage);
      all.push(...page);
    }
    return all;
  }

  it('the packed read is the one in use where the dialect packs', async () => {
    await read(async (knex) => expect(dialectOfKnex(knex)?.packedFlags !== undefined).toBe(PACKING_DIALECTS.includes(TEST_DIALECT)));
  });

  it.each([1, 7, 500])('whole, in pages of %i: the same flags, fields and order', async (perPage) => {
    const [packed, rows] = await read(async (knex) => [await paged(knex, perPage, {}), await paged(knex, perPage, { rows: true })]);
    expect(packed).toHaveLength(COUNT);
    expect(new Set(packed.map((f) => f.key)).size).toBe(COUNT);
    expect(packed).toEqual(rows);
  });

  it('named flags (a write\'s delta): the same flags', async () => {
    const keys = ['flag-00', 'flag-03', 'flag-05', 'flag-07', 'flag-12', 'flag-29', 'no-such-flag'];
    const [packed, rows] = await read(async (knex) => [await loadFlags(knex, NS, keys), await loadFlags(knex, NS, keys, { rows: true })]);
    expect(packed.map((f) => f.key).sort()).toEqual(keys.slice(0, -1));
    expect(packed).toEqual(rows);
  });

  it('carries text, attachments and REALs exactly', async () => {
    const flags = await read((knex) => loadFlags(knex, NS, ['flag-01', 'flag-03', 'flag-08']));
    const byKey = new Map(flags.map((f) => [f.key, f]));
    const variantFlag = byKey.get('flag-01')!;
    expect(variantFlag.name).toBe(`name ${TEXTS[1]}`);
    expect(variantFlag.variants.map((v) => [v.key, v.attachment])).toEqual([['a', ATTACHMENTS[1]], ['b-1', ''], ['c', ATTACHMENTS[3]]]);
    expect(variantFlag.rules.map((r) => r.segmentKeys)).toEqual([['gamma', 'beta'], ['beta'], ['gamma']]);
    expect(variantFlag.rules[0].distributions.map((d) => d.rollout)).toEqual(SHARES);
    expect(variantFlag.rollouts).toEqual([]);
    const booleanFlag = byKey.get('flag-03')!;
    expect(booleanFlag.description).toBe(`description ${TEXTS[3]}`);
    expect(booleanFlag.variants).toEqual([]);
    expect(booleanFlag.rules).toEqual([]);
    expect(booleanFlag.rollouts.map((r) => r.threshold?.percentage ?? r.segment?.segmentKeys)).toEqual([SHARES[0], ['beta', 'gamma'], ['gamma']]);
    expect(byKey.get('flag-08')!.name).toBe(`name ${TEXTS[8]}`);
  });

  (TEST_DIALECT === 'sqlite' ? it : it.skip)('SQLite: a page too large for one text is read row by row instead', async () => {
    const rows = await read((knex) => paged(knex, 500, { rows: true }));
    // The page's packed text is about 20 KB; every value is shorter.
    const limited = await read((knex) => withSqliteLengthLimit(knex, 4_000, () => paged(knex, 500, {})));
    expect(limited).toEqual(rows);
  });

  (TEST_DIALECT === 'sqlite' ? it : it.skip)('SQLite: texts are limited below the longest string Node holds, and a longer one is "too large"', async () => {
    const tooLarge = await read((knex) => knex.raw('select zeroblob(?) as b', [SQLITE_MAX_TEXT_BYTES + 1]).then(() => null, (e: unknown) => e));
    expect(SQLITE_MAX_TEXT_BYTES).toBeLessThan(2 ** 29 - 24); // V8's longest string on 64-bit
    expect(tooLarge).not.toBeNull();
    expect(DIALECTS.find((d) => d.name === 'sqlite')!.packedRows!.tooLarge(tooLarge)).toBe(true);
  });
});
