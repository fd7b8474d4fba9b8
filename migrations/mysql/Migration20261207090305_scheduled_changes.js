'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261207090305_scheduled_changes extends Migration {

  async up() {
    this.addSql(`create table \`scheduled_changes\` (\`id\` varchar(36) not null, \`namespace_key\` varchar(255) not null, \`flag_key\` varchar(255) not null, \`type\` varchar(32) not null, \`target_id\` varchar(255) not null, \`description\` mediumtext not null, \`status\` varchar(16) not null, \`steps\` mediumtext not null, \`author\` mediumtext not null, \`next_at\` datetime(3) null, \`version\` int not null, \`lease_until\` datetime(3) null, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`scheduled_changes\` add index \`scheduled_changes_next_at_index\`(\`next_at\`);`);
    this.addSql(`alter table \`scheduled_changes\` add index \`scheduled_changes_namespace_key_flag_key_index\`(\`namespace_key\`, \`flag_key\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`scheduled_changes\`;`);
  }

}
exports.Migration20261207090305_scheduled_changes = Migration20261207090305_scheduled_changes;
