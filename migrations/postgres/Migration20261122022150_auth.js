'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122022150_auth extends Migration {

  async up() {
    this.addSql(`create table "authentications" ("id" varchar(255) not null, "hashed_client_token" varchar(255) not null, "method" int not null, "metadata" text not null, "expires_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "authentications_pkey" primary key ("id"));`);
    this.addSql(`alter table "authentications" add constraint "authentications_hashed_client_token_unique" unique ("hashed_client_token");`);
    this.addSql(`create index "authentications_method_expires_at_index" on "authentications" ("method", "expires_at");`);

    this.addSql(`create table "operation_lock" ("operation" varchar(255) not null, "version" int not null, "last_acquired_at" timestamptz(3) not null, "acquired_until" timestamptz(3) not null, constraint "operation_lock_pkey" primary key ("operation"));`);
  }

  async down() {
    this.addSql(`drop table if exists "authentications" cascade;`);

    this.addSql(`drop table if exists "operation_lock" cascade;`);
  }

}
exports.Migration20261122022150_auth = Migration20261122022150_auth;
