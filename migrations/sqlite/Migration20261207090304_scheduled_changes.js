'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261207090304_scheduled_changes extends Migration {

  async up() {
    this.addSql(`create table \`scheduled_changes\` (\`id\` text not null, \`namespace_key\` text not null, \`flag_key\` text not null, \`type\` text not null, \`target_id\` text not null, \`description\` text not null, \`status\` text not null, \`steps\` text not null, \`author\` text not null, \`next_at\` datetime null, \`version\` integer not null, \`lease_until\` datetime null, \`created_at\` datetime not null, \`updated_at\` datetime not null, primary key (\`id\`));`);
    this.addSql(`create index \`scheduled_changes_next_at_index\` on \`scheduled_changes\` (\`next_at\`);`);
    this.addSql(`create index \`scheduled_changes_namespace_key_flag_key_index\` on \`scheduled_changes\` (\`namespace_key\`, \`flag_key\`);`);
  }

}
exports.Migration20261207090304_scheduled_changes = Migration20261207090304_scheduled_changes;
