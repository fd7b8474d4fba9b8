'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261127020001_audit_events extends Migration {

  async up() {
    this.addSql(`create table \`audit_events\` (\`id\` varchar(36) not null, \`occurred_at\` datetime(3) not null, \`namespace_key\` varchar(255) null, \`type\` varchar(255) not null, \`action\` varchar(255) not null, \`status\` varchar(255) not null, \`flag_key\` varchar(255) null, \`segment_key\` varchar(255) null, \`resource\` varchar(64) not null, \`actor_authentication\` varchar(255) not null, \`actor_email\` varchar(255) null, \`actor_name\` varchar(255) null, \`event\` mediumtext not null, \`previous_payload\` mediumtext null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`audit_events\` add index \`audit_events_namespace_key_id_index\`(\`namespace_key\`, \`id\`);`);
    this.addSql(`alter table \`audit_events\` add index \`audit_events_resource_id_index\`(\`resource\`, \`id\`);`);
    this.addSql(`alter table \`audit_events\` add index \`audit_events_occurred_at_index\`(\`occurred_at\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`audit_events\`;`);
  }

}
exports.Migration20261127020001_audit_events = Migration20261127020001_audit_events;
