/**
 * SQLite SQL that hands results over as JSON text built in C (the dialect table's `packedRows` and `packedFlags`):
 * node-sqlite3 builds every row's object through N-API on the event loop, and JSON.parse reads the same values
 * several times faster.
 *
 * Two rules hold throughout. A subquery with ORDER BY under an aggregate is never flattened, so an array keeps the
 * subquery's order. JSON writes a REAL with 15 significant digits, which does not give back every double (a float32
 * percentage such as 33.29999923706055 would come back 33.2999992370605): REALs are written as text with 17, exact
 * (read numbers with `num`).
 */

import { FlagType } from '../wire';
import { DISTRIBUTION_COLUMNS, FLAG_COLUMNS, ROLLOUT_COLUMNS, RULE_COLUMNS, VARIANT_COLUMNS } from './flag-tree';

/** The column's value for json_array: a REAL as exact text, anything else as it is. `column` is quoted by the caller. */
export function exactValue(column: string): string {
  return `case typeof(${column}) when 'real' then printf('%!.17g', ${column}) else ${column} end`;
}

/** The rows of `sql` (result columns `columns`, in order) as one JSON array of arrays, in the column `rows`. */
export function packedRowsSql(sql: string, columns: readonly string[]): string {
  const values = columns.map((c) => exactValue(`"${c}"`));
  return `select json_group_array(json_array(${values.join(', ')})) as "rows" from (${sql})`;
}

/** A JSON array of the subquery's one text column `x` (each already JSON), in its order; `[]` when it has no rows. */
const arrayOf = (subquery: string) => `coalesce((select '[' || group_concat(x, ',') || ']' from (${subquery})), '[]')`;

/** The segment keys a rule or rollout names, in their position order. */
const segmentKeys = (table: string, owner: string, id: string) =>
  arrayOf(`select json_quote(s.key) x from ${table} ls join segments s on s.id = ls.segment_id where ls.${owner} = ${id} order by ls.position`);

/** json_array of the columns of the row `alias`. */
const values = (alias: string, columns: readonly string[]) => `json_array(${columns.map((c) => exactValue(`${alias}.${c}`)).join(', ')})`;

const VARIANTS = arrayOf(`select ${values('v', VARIANT_COLUMNS)} x from variants v where v.flag_id = f.id order by v.created_at, v.id`);
const DISTRIBUTIONS = arrayOf(`select ${values('d', DISTRIBUTION_COLUMNS)} x from distributions d where d.rule_id = r.id order by d.created_at, d.id`);
const RULES = arrayOf(
  `select '[' || ${values('r', RULE_COLUMNS)} || ',' || ${segmentKeys('rule_segments', 'rule_id', 'r.id')} || ',' || ${DISTRIBUTIONS} || ']' x ` +
    `from rules r where r.flag_id = f.id order by r.rank, r.created_at, r.id`,
);
const ROLLOUTS = arrayOf(
  `select '[' || ${values('o', ROLLOUT_COLUMNS)} || ',' || ${segmentKeys('rollout_segments', 'rollout_id', 'o.id')} || ']' x ` +
    `from rollouts o where o.flag_id = f.id order by o.rank, o.created_at, o.id`,
);

/** The flags `flagsSql` selects as one JSON array of flag trees (flag-tree.ts) in the column `rows`. */
export function packedFlagsSql(flagsSql: string): string {
  const boolean = `f.type = ${FlagType.BOOLEAN}`;
  const tree =
    `'[' || ${values('f', FLAG_COLUMNS)} || ',' || case when ${boolean} then '[]' else ${VARIANTS} end || ',' || ` +
    `case when ${boolean} then '[]' else ${RULES} end || ',' || case when ${boolean} then ${ROLLOUTS} else '[]' end || ']'`;
  return `select coalesce('[' || group_concat(x, ',') || ']', '[]') as "rows" from (select ${tree} x from (${flagsSql}) f order by f.created_at, f.id)`;
}
