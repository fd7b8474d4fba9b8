/**
 * PostgreSQL SQL that hands a page of flags over as one JSON text (the dialect table's `packedFlags`), in the layout
 * flag-tree.ts describes. A page is then one statement whose text JSON.parse reads, not seven statements whose rows
 * node-postgres parses one by one and the event loop groups; a write's delta (its flags re-read inside the write's
 * transaction) is one statement instead of five.
 *
 * What makes it the same as the row read: every aggregate takes its order from the ORDER BY inside it;
 * json_build_array writes a double precision as PostgreSQL prints it (since PostgreSQL 12 the shortest text that
 * reads back exactly), which is the text node-postgres parses for the row read; a timestamp comes as ISO 8601 text
 * with the session's offset, read by `toDate`. The result is cast to text, so that node-postgres hands it over
 * unparsed, for JSON.parse once.
 */

import { FlagType } from '../wire';
import { DISTRIBUTION_COLUMNS, FLAG_COLUMNS, ROLLOUT_COLUMNS, RULE_COLUMNS, VARIANT_COLUMNS } from './flag-tree';

/** json_build_array of the columns of the row `alias`. */
const values = (alias: string, columns: readonly string[]) => `json_build_array(${columns.map((c) => `${alias}.${c}`).join(', ')})`;

/** A JSON array of `element` over `from` (a FROM … WHERE clause), in `order`; `[]` when it has no rows. */
const arrayOf = (element: string, from: string, order: string) => `coalesce((select json_agg(${element} order by ${order}) ${from}), '[]'::json)`;

/** The segment keys a rule or rollout names, in their position order. */
const segmentKeys = (table: string, owner: string, id: string) =>
  arrayOf('s.key', `from ${table} ls join segments s on s.id = ls.segment_id where ls.${owner} = ${id}`, 'ls.position');

const VARIANTS = arrayOf(values('v', VARIANT_COLUMNS), 'from variants v where v.flag_id = f.id', 'v.created_at, v.id');
const DISTRIBUTIONS = arrayOf(values('d', DISTRIBUTION_COLUMNS), 'from distributions d where d.rule_id = r.id', 'd.created_at, d.id');
const RULES = arrayOf(
  `json_build_array(${values('r', RULE_COLUMNS)}, ${segmentKeys('rule_segments', 'rule_id', 'r.id')}, ${DISTRIBUTIONS})`,
  'from rules r where r.flag_id = f.id',
  'r.rank, r.created_at, r.id',
);
const ROLLOUTS = arrayOf(
  `json_build_array(${values('o', ROLLOUT_COLUMNS)}, ${segmentKeys('rollout_segments', 'rollout_id', 'o.id')})`,
  'from rollouts o where o.flag_id = f.id',
  'o.rank, o.created_at, o.id',
);

/** The flags `flagsSql` selects as one JSON array of flag trees (flag-tree.ts) in the column `rows`, as text. */
export function packedFlagsSqlPg(flagsSql: string): string {
  const boolean = `f.type = ${FlagType.BOOLEAN}`;
  const none = `'[]'::json`;
  const tree =
    `json_build_array(${values('f', FLAG_COLUMNS)}, case when ${boolean} then ${none} else ${VARIANTS} end, ` +
    `case when ${boolean} then ${none} else ${RULES} end, case when ${boolean} then ${ROLLOUTS} else ${none} end)`;
  return `select coalesce(json_agg(${tree} order by f.created_at, f.id), ${none})::text as "rows" from (${flagsSql}) f`;
}

/** The text of the packed read's one row, from knex's raw result on node-postgres. */
export function packedTextPg(result: unknown): string {
  return (result as { rows: Array<{ rows: string }> }).rows[0].rows;
}
