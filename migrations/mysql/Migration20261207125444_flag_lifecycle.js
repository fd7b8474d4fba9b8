'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

/**
 * Flag lifecycle (docs/api.md, Flag lifecycle): each flag's state as the last check found it, keyed by namespace and
 * flag key; the (namespace, state) index serves the `?stale` filter and the flag-health report.
 */
class Migration20261207125444_flag_lifecycle extends Migration {

  async up() {
    this.addSql(`create table \`flag_lifecycle\` (\`namespace_key\` varchar(255) not null, \`flag_key\` varchar(255) not null, \`kind\` varchar(32) not null, \`state\` varchar(32) not null, \`reasons\` mediumtext not null, \`since\` datetime(3) not null, \`checked_at\` datetime(3) not null, \`last_evaluated_at\` datetime(3) null, primary key (\`namespace_key\`, \`flag_key\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`flag_lifecycle\` add index \`flag_lifecycle_namespace_key_state_index\`(\`namespace_key\`, \`state\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`flag_lifecycle\`;`);
  }

}
exports.Migration20261207125444_flag_lifecycle = Migration20261207125444_flag_lifecycle;
