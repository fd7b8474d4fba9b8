'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122022150_auth extends Migration {

  async up() {
    this.addSql(`create table \`authentications\` (\`id\` text not null, \`hashed_client_token\` text not null, \`method\` integer not null, \`metadata\` text not null, \`expires_at\` datetime null, \`created_at\` datetime not null, \`updated_at\` datetime not null, primary key (\`id\`));`);
    this.addSql(`create unique index \`authentications_hashed_client_token_unique\` on \`authentications\` (\`hashed_client_token\`);`);
    this.addSql(`create index \`authentications_method_expires_at_index\` on \`authentications\` (\`method\`, \`expires_at\`);`);

    this.addSql(`create table \`operation_lock\` (\`operation\` text not null, \`version\` integer not null, \`last_acquired_at\` datetime not null, \`acquired_until\` datetime not null, primary key (\`operation\`));`);
  }

}
exports.Migration20261122022150_auth = Migration20261122022150_auth;
