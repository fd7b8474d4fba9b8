'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122020618_initial extends Migration {

  async up() {
    this.addSql(`create table \`namespaces\` (\`key\` text not null, \`name\` text not null, \`description\` text not null, \`protected\` integer not null default false, \`created_at\` datetime not null, \`updated_at\` datetime not null, \`state_modified_at\` datetime null, primary key (\`key\`));`);

    this.addSql(`create table \`flags\` (\`id\` text not null, \`namespace_key\` text not null, \`key\` text not null, \`name\` text not null, \`description\` text not null, \`enabled\` integer not null default false, \`type\` integer not null default 0, \`default_variant_id\` text null, \`metadata\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`flags_namespace_key_foreign\` foreign key(\`namespace_key\`) references \`namespaces\`(\`key\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`flags_namespace_key_index\` on \`flags\` (\`namespace_key\`);`);
    this.addSql(`create unique index \`flags_namespace_key_key_unique\` on \`flags\` (\`namespace_key\`, \`key\`);`);

    this.addSql(`create table \`rollouts\` (\`id\` text not null, \`flag_id\` text not null, \`type\` integer not null, \`rank\` integer not null default 1, \`description\` text not null, \`percentage\` double null, \`segment_operator\` integer not null default 0, \`value\` integer not null default false, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`rollouts_flag_id_foreign\` foreign key(\`flag_id\`) references \`flags\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`rollouts_flag_id_index\` on \`rollouts\` (\`flag_id\`);`);

    this.addSql(`create table \`rules\` (\`id\` text not null, \`flag_id\` text not null, \`rank\` integer not null default 1, \`segment_operator\` integer not null default 0, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`rules_flag_id_foreign\` foreign key(\`flag_id\`) references \`flags\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`rules_flag_id_index\` on \`rules\` (\`flag_id\`);`);

    this.addSql(`create table \`segments\` (\`id\` text not null, \`namespace_key\` text not null, \`key\` text not null, \`name\` text not null, \`description\` text not null, \`match_type\` integer not null default 0, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`segments_namespace_key_foreign\` foreign key(\`namespace_key\`) references \`namespaces\`(\`key\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`segments_namespace_key_index\` on \`segments\` (\`namespace_key\`);`);
    this.addSql(`create unique index \`segments_namespace_key_key_unique\` on \`segments\` (\`namespace_key\`, \`key\`);`);

    this.addSql(`create table \`rule_segments\` (\`rule_id\` text not null, \`segment_id\` text not null, \`position\` integer not null default 0, constraint \`rule_segments_rule_id_foreign\` foreign key(\`rule_id\`) references \`rules\`(\`id\`) on delete cascade on update cascade, constraint \`rule_segments_segment_id_foreign\` foreign key(\`segment_id\`) references \`segments\`(\`id\`) on delete no action on update cascade, primary key (\`rule_id\`, \`segment_id\`));`);
    this.addSql(`create index \`rule_segments_rule_id_index\` on \`rule_segments\` (\`rule_id\`);`);
    this.addSql(`create index \`rule_segments_segment_id_index\` on \`rule_segments\` (\`segment_id\`);`);

    this.addSql(`create table \`rollout_segments\` (\`rollout_id\` text not null, \`segment_id\` text not null, \`position\` integer not null default 0, constraint \`rollout_segments_rollout_id_foreign\` foreign key(\`rollout_id\`) references \`rollouts\`(\`id\`) on delete cascade on update cascade, constraint \`rollout_segments_segment_id_foreign\` foreign key(\`segment_id\`) references \`segments\`(\`id\`) on delete no action on update cascade, primary key (\`rollout_id\`, \`segment_id\`));`);
    this.addSql(`create index \`rollout_segments_rollout_id_index\` on \`rollout_segments\` (\`rollout_id\`);`);
    this.addSql(`create index \`rollout_segments_segment_id_index\` on \`rollout_segments\` (\`segment_id\`);`);

    this.addSql(`create table \`constraints\` (\`id\` text not null, \`segment_id\` text not null, \`type\` integer not null, \`property\` text not null, \`operator\` text not null, \`value\` text not null, \`description\` text not null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`constraints_segment_id_foreign\` foreign key(\`segment_id\`) references \`segments\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`constraints_segment_id_index\` on \`constraints\` (\`segment_id\`);`);

    this.addSql(`create table \`variants\` (\`id\` text not null, \`flag_id\` text not null, \`key\` text not null, \`name\` text not null, \`description\` text not null, \`attachment\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`variants_flag_id_foreign\` foreign key(\`flag_id\`) references \`flags\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`variants_flag_id_index\` on \`variants\` (\`flag_id\`);`);
    this.addSql(`create unique index \`variants_flag_id_key_unique\` on \`variants\` (\`flag_id\`, \`key\`);`);

    this.addSql(`create table \`distributions\` (\`id\` text not null, \`rule_id\` text not null, \`variant_id\` text not null, \`rollout\` double not null default 0, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`distributions_rule_id_foreign\` foreign key(\`rule_id\`) references \`rules\`(\`id\`) on delete cascade on update cascade, constraint \`distributions_variant_id_foreign\` foreign key(\`variant_id\`) references \`variants\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`distributions_rule_id_index\` on \`distributions\` (\`rule_id\`);`);
    this.addSql(`create index \`distributions_variant_id_index\` on \`distributions\` (\`variant_id\`);`);
    // Like Flipt, every database starts with the protected `default` namespace.
    const now = new Date();
    this.addSql(this.getKnex().insert({ key: 'default', name: 'Default', description: 'Default namespace', protected: true, created_at: now, updated_at: now }).into('namespaces'));
  }

}
exports.Migration20261122020618_initial = Migration20261122020618_initial;
