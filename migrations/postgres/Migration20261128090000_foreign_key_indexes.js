'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

/**
 * PostgreSQL does not index a foreign key's column by itself (SQLite's schema has these indexes from the start, and
 * MySQL's InnoDB makes them). Without them every read of one flag's rules, rollouts or distributions (a write's
 * delta, a packed page's subqueries) and every cascading delete scanned the whole table. Where the database made
 * them already (CockroachDB), `if not exists` does not apply to another name: a second index is harmless.
 */
const INDEXES = [
  ['rules', 'flag_id'],
  ['rollouts', 'flag_id'],
  ['distributions', 'rule_id'],
  ['distributions', 'variant_id'],
  ['constraints', 'segment_id'],
  ['rule_segments', 'segment_id'],
  ['rollout_segments', 'segment_id'],
];

class Migration20261128090000_foreign_key_indexes extends Migration {

  async up() {
    for (const [table, column] of INDEXES) this.addSql(`create index if not exists "${table}_${column}_index" on "${table}" ("${column}");`);
  }

  async down() {
    for (const [table, column] of INDEXES) this.addSql(`drop index if exists "${table}_${column}_index";`);
  }

}
exports.Migration20261128090000_foreign_key_indexes = Migration20261128090000_foreign_key_indexes;
