'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122022151_auth extends Migration {

  async up() {
    this.addSql(`create table \`authentications\` (\`id\` varchar(255) not null, \`hashed_client_token\` varchar(255) not null, \`method\` int not null, \`metadata\` mediumtext not null, \`expires_at\` datetime(3) null, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`authentications\` add unique \`authentications_hashed_client_token_unique\`(\`hashed_client_token\`);`);
    this.addSql(`alter table \`authentications\` add index \`authentications_method_expires_at_index\`(\`method\`, \`expires_at\`);`);

    this.addSql(`create table \`operation_lock\` (\`operation\` varchar(255) not null, \`version\` int not null, \`last_acquired_at\` datetime(3) not null, \`acquired_until\` datetime(3) not null, primary key (\`operation\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
  }

  async down() {
    this.addSql(`drop table if exists \`authentications\`;`);

    this.addSql(`drop table if exists \`operation_lock\`;`);
  }

}
exports.Migration20261122022151_auth = Migration20261122022151_auth;
