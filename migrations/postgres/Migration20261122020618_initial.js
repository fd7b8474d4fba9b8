'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122020618_initial extends Migration {

  async up() {
    this.addSql(`create table "namespaces" ("key" varchar(255) not null, "name" varchar(255) not null, "description" text not null, "protected" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "state_modified_at" timestamptz(3) null, constraint "namespaces_pkey" primary key ("key"));`);

    this.addSql(`create table "flags" ("id" varchar(255) not null, "namespace_key" varchar(255) not null, "key" varchar(255) not null, "name" varchar(255) not null, "description" text not null, "enabled" boolean not null default false, "type" int not null default 0, "default_variant_id" varchar(255) null, "metadata" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "flags_pkey" primary key ("id"));`);
    this.addSql(`alter table "flags" add constraint "flags_namespace_key_key_unique" unique ("namespace_key", "key");`);

    this.addSql(`create table "rollouts" ("id" varchar(255) not null, "flag_id" varchar(255) not null, "type" int not null, "rank" int not null default 1, "description" text not null, "percentage" double precision null, "segment_operator" int not null default 0, "value" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "rollouts_pkey" primary key ("id"));`);

    this.addSql(`create table "rules" ("id" varchar(255) not null, "flag_id" varchar(255) not null, "rank" int not null default 1, "segment_operator" int not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "rules_pkey" primary key ("id"));`);

    this.addSql(`create table "segments" ("id" varchar(255) not null, "namespace_key" varchar(255) not null, "key" varchar(255) not null, "name" varchar(255) not null, "description" text not null, "match_type" int not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "segments_pkey" primary key ("id"));`);
    this.addSql(`alter table "segments" add constraint "segments_namespace_key_key_unique" unique ("namespace_key", "key");`);

    this.addSql(`create table "rule_segments" ("rule_id" varchar(255) not null, "segment_id" varchar(255) not null, "position" int not null default 0, constraint "rule_segments_pkey" primary key ("rule_id", "segment_id"));`);

    this.addSql(`create table "rollout_segments" ("rollout_id" varchar(255) not null, "segment_id" varchar(255) not null, "position" int not null default 0, constraint "rollout_segments_pkey" primary key ("rollout_id", "segment_id"));`);

    this.addSql(`create table "constraints" ("id" varchar(255) not null, "segment_id" varchar(255) not null, "type" int not null, "property" varchar(255) not null, "operator" varchar(255) not null, "value" text not null, "description" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "constraints_pkey" primary key ("id"));`);

    this.addSql(`create table "variants" ("id" varchar(255) not null, "flag_id" varchar(255) not null, "key" varchar(255) not null, "name" varchar(255) not null, "description" text not null, "attachment" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "variants_pkey" primary key ("id"));`);
    this.addSql(`alter table "variants" add constraint "variants_flag_id_key_unique" unique ("flag_id", "key");`);

    this.addSql(`create table "distributions" ("id" varchar(255) not null, "rule_id" varchar(255) not null, "variant_id" varchar(255) not null, "rollout" double precision not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "distributions_pkey" primary key ("id"));`);

    this.addSql(`alter table "flags" add constraint "flags_namespace_key_foreign" foreign key ("namespace_key") references "namespaces" ("key") on update cascade on delete cascade;`);

    this.addSql(`alter table "rollouts" add constraint "rollouts_flag_id_foreign" foreign key ("flag_id") references "flags" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "rules" add constraint "rules_flag_id_foreign" foreign key ("flag_id") references "flags" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "segments" add constraint "segments_namespace_key_foreign" foreign key ("namespace_key") references "namespaces" ("key") on update cascade on delete cascade;`);

    this.addSql(`alter table "rule_segments" add constraint "rule_segments_rule_id_foreign" foreign key ("rule_id") references "rules" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "rule_segments" add constraint "rule_segments_segment_id_foreign" foreign key ("segment_id") references "segments" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "rollout_segments" add constraint "rollout_segments_rollout_id_foreign" foreign key ("rollout_id") references "rollouts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "rollout_segments" add constraint "rollout_segments_segment_id_foreign" foreign key ("segment_id") references "segments" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "constraints" add constraint "constraints_segment_id_foreign" foreign key ("segment_id") references "segments" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "variants" add constraint "variants_flag_id_foreign" foreign key ("flag_id") references "flags" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "distributions" add constraint "distributions_rule_id_foreign" foreign key ("rule_id") references "rules" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "distributions" add constraint "distributions_variant_id_foreign" foreign key ("variant_id") references "variants" ("id") on update cascade on delete cascade;`);
    // Like Flipt, every database starts with the protected `default` namespace.
    const now = new Date();
    this.addSql(this.getKnex().insert({ key: 'default', name: 'Default', description: 'Default namespace', protected: true, created_at: now, updated_at: now }).into('namespaces'));
  }

  async down() {
    this.addSql(`alter table "flags" drop constraint "flags_namespace_key_foreign";`);

    this.addSql(`alter table "segments" drop constraint "segments_namespace_key_foreign";`);

    this.addSql(`alter table "rollouts" drop constraint "rollouts_flag_id_foreign";`);

    this.addSql(`alter table "rules" drop constraint "rules_flag_id_foreign";`);

    this.addSql(`alter table "variants" drop constraint "variants_flag_id_foreign";`);

    this.addSql(`alter table "rollout_segments" drop constraint "rollout_segments_rollout_id_foreign";`);

    this.addSql(`alter table "rule_segments" drop constraint "rule_segments_rule_id_foreign";`);

    this.addSql(`alter table "distributions" drop constraint "distributions_rule_id_foreign";`);

    this.addSql(`alter table "rule_segments" drop constraint "rule_segments_segment_id_foreign";`);

    this.addSql(`alter table "rollout_segments" drop constraint "rollout_segments_segment_id_foreign";`);

    this.addSql(`alter table "constraints" drop constraint "constraints_segment_id_foreign";`);

    this.addSql(`alter table "distributions" drop constraint "distributions_variant_id_foreign";`);

    this.addSql(`drop table if exists "namespaces" cascade;`);

    this.addSql(`drop table if exists "flags" cascade;`);

    this.addSql(`drop table if exists "rollouts" cascade;`);

    this.addSql(`drop table if exists "rules" cascade;`);

    this.addSql(`drop table if exists "segments" cascade;`);

    this.addSql(`drop table if exists "rule_segments" cascade;`);

    this.addSql(`drop table if exists "rollout_segments" cascade;`);

    this.addSql(`drop table if exists "constraints" cascade;`);

    this.addSql(`drop table if exists "variants" cascade;`);

    this.addSql(`drop table if exists "distributions" cascade;`);
  }

}
exports.Migration20261122020618_initial = Migration20261122020618_initial;
