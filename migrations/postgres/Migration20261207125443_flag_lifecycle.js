'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

/**
 * Flag lifecycle (docs/api.md, Flag lifecycle): each flag's state as the last check found it, keyed by namespace and
 * flag key; the (namespace, state) index serves the `?stale` filter and the flag-health report.
 */
class Migration20261207125443_flag_lifecycle extends Migration {

  async up() {
    this.addSql(`create table "flag_lifecycle" ("namespace_key" varchar(255) not null, "flag_key" varchar(255) not null, "kind" varchar(32) not null, "state" varchar(32) not null, "reasons" text not null, "since" timestamptz(3) not null, "checked_at" timestamptz(3) not null, "last_evaluated_at" timestamptz(3) null, constraint "flag_lifecycle_pkey" primary key ("namespace_key", "flag_key"));`);
    this.addSql(`create index "flag_lifecycle_namespace_key_state_index" on "flag_lifecycle" ("namespace_key", "state");`);
  }

  async down() {
    this.addSql(`drop table if exists "flag_lifecycle" cascade;`);
  }

}
exports.Migration20261207125443_flag_lifecycle = Migration20261207125443_flag_lifecycle;
