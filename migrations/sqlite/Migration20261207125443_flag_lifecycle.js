'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

/**
 * Flag lifecycle (docs/api.md, Flag lifecycle): each flag's state as the last check found it, keyed by namespace and
 * flag key; the (namespace, state) index serves the `?stale` filter and the flag-health report.
 */
class Migration20261207125443_flag_lifecycle extends Migration {

  async up() {
    this.addSql(`create table \`flag_lifecycle\` (\`namespace_key\` text not null, \`flag_key\` text not null, \`kind\` text not null, \`state\` text not null, \`reasons\` text not null, \`since\` datetime not null, \`checked_at\` datetime not null, \`last_evaluated_at\` datetime null, primary key (\`namespace_key\`, \`flag_key\`));`);
    this.addSql(`create index \`flag_lifecycle_namespace_key_state_index\` on \`flag_lifecycle\` (\`namespace_key\`, \`state\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`flag_lifecycle\`;`);
  }

}
exports.Migration20261207125443_flag_lifecycle = Migration20261207125443_flag_lifecycle;
