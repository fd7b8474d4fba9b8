'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261207090304_scheduled_changes extends Migration {

  async up() {
    this.addSql(`create table "scheduled_changes" ("id" varchar(36) not null, "namespace_key" varchar(255) not null, "flag_key" varchar(255) not null, "type" varchar(32) not null, "target_id" varchar(255) not null, "description" text not null, "status" varchar(16) not null, "steps" text not null, "author" text not null, "next_at" timestamptz(3) null, "version" int not null, "lease_until" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "scheduled_changes_pkey" primary key ("id"));`);
    this.addSql(`create index "scheduled_changes_next_at_index" on "scheduled_changes" ("next_at");`);
    this.addSql(`create index "scheduled_changes_namespace_key_flag_key_index" on "scheduled_changes" ("namespace_key", "flag_key");`);
  }

  async down() {
    this.addSql(`drop table if exists "scheduled_changes" cascade;`);
  }

}
exports.Migration20261207090304_scheduled_changes = Migration20261207090304_scheduled_changes;
