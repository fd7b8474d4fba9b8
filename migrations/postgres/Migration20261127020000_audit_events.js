'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127020000_audit_events extends Migration {

  async up() {
    this.addSql(`create table "audit_events" ("id" varchar(36) not null, "occurred_at" timestamptz(3) not null, "namespace_key" varchar(255) null, "type" varchar(255) not null, "action" varchar(255) not null, "status" varchar(255) not null, "flag_key" varchar(255) null, "segment_key" varchar(255) null, "resource" varchar(64) not null, "actor_authentication" varchar(255) not null, "actor_email" varchar(255) null, "actor_name" varchar(255) null, "event" text not null, "previous_payload" text null, constraint "audit_events_pkey" primary key ("id"));`);
    this.addSql(`create index "audit_events_namespace_key_id_index" on "audit_events" ("namespace_key", "id");`);
    this.addSql(`create index "audit_events_resource_id_index" on "audit_events" ("resource", "id");`);
    this.addSql(`create index "audit_events_occurred_at_index" on "audit_events" ("occurred_at");`);
  }

  async down() {
    this.addSql(`drop table if exists "audit_events" cascade;`);
  }

}
exports.Migration20261127020000_audit_events = Migration20261127020000_audit_events;
