'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127020000_audit_events extends Migration {

  async up() {
    this.addSql(`create table \`audit_events\` (\`id\` text not null, \`occurred_at\` datetime not null, \`namespace_key\` text null, \`type\` text not null, \`action\` text not null, \`status\` text not null, \`flag_key\` text null, \`segment_key\` text null, \`resource\` text not null, \`actor_authentication\` text not null, \`actor_email\` text null, \`actor_name\` text null, \`event\` text not null, \`previous_payload\` text null, primary key (\`id\`));`);
    this.addSql(`create index \`audit_events_namespace_key_id_index\` on \`audit_events\` (\`namespace_key\`, \`id\`);`);
    this.addSql(`create index \`audit_events_resource_id_index\` on \`audit_events\` (\`resource\`, \`id\`);`);
    this.addSql(`create index \`audit_events_occurred_at_index\` on \`audit_events\` (\`occurred_at\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`audit_events\`;`);
  }

}
exports.Migration20261127020000_audit_events = Migration20261127020000_audit_events;
