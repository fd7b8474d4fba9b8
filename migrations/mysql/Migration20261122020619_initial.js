'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261122020619_initial extends Migration {

  async up() {
    this.addSql(`create table \`namespaces\` (\`key\` varchar(255) not null, \`name\` varchar(255) not null, \`description\` mediumtext not null, \`protected\` tinyint(1) not null default false, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, \`state_modified_at\` datetime(3) null, primary key (\`key\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);

    this.addSql(`create table \`flags\` (\`id\` varchar(255) not null, \`namespace_key\` varchar(255) not null, \`key\` varchar(255) not null, \`name\` varchar(255) not null, \`description\` mediumtext not null, \`enabled\` tinyint(1) not null default false, \`type\` int not null default 0, \`default_variant_id\` varchar(255) null, \`metadata\` mediumtext null, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`flags\` add index \`flags_namespace_key_index\`(\`namespace_key\`);`);
    this.addSql(`alter table \`flags\` add unique \`flags_namespace_key_key_unique\`(\`namespace_key\`, \`key\`);`);

    this.addSql(`create table \`rollouts\` (\`id\` varchar(255) not null, \`flag_id\` varchar(255) not null, \`type\` int not null, \`rank\` int not null default 1, \`description\` mediumtext not null, \`percentage\` double null, \`segment_operator\` int not null default 0, \`value\` tinyint(1) not null default false, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`rollouts\` add index \`rollouts_flag_id_index\`(\`flag_id\`);`);

    this.addSql(`create table \`rules\` (\`id\` varchar(255) not null, \`flag_id\` varchar(255) not null, \`rank\` int not null default 1, \`segment_operator\` int not null default 0, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`rules\` add index \`rules_flag_id_index\`(\`flag_id\`);`);

    this.addSql(`create table \`segments\` (\`id\` varchar(255) not null, \`namespace_key\` varchar(255) not null, \`key\` varchar(255) not null, \`name\` varchar(255) not null, \`description\` mediumtext not null, \`match_type\` int not null default 0, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`segments\` add index \`segments_namespace_key_index\`(\`namespace_key\`);`);
    this.addSql(`alter table \`segments\` add unique \`segments_namespace_key_key_unique\`(\`namespace_key\`, \`key\`);`);

    this.addSql(`create table \`rule_segments\` (\`rule_id\` varchar(255) not null, \`segment_id\` varchar(255) not null, \`position\` int not null default 0, primary key (\`rule_id\`, \`segment_id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`rule_segments\` add index \`rule_segments_rule_id_index\`(\`rule_id\`);`);
    this.addSql(`alter table \`rule_segments\` add index \`rule_segments_segment_id_index\`(\`segment_id\`);`);

    this.addSql(`create table \`rollout_segments\` (\`rollout_id\` varchar(255) not null, \`segment_id\` varchar(255) not null, \`position\` int not null default 0, primary key (\`rollout_id\`, \`segment_id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`rollout_segments\` add index \`rollout_segments_rollout_id_index\`(\`rollout_id\`);`);
    this.addSql(`alter table \`rollout_segments\` add index \`rollout_segments_segment_id_index\`(\`segment_id\`);`);

    this.addSql(`create table \`constraints\` (\`id\` varchar(255) not null, \`segment_id\` varchar(255) not null, \`type\` int not null, \`property\` varchar(255) not null, \`operator\` varchar(255) not null, \`value\` mediumtext not null, \`description\` mediumtext not null, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`constraints\` add index \`constraints_segment_id_index\`(\`segment_id\`);`);

    this.addSql(`create table \`variants\` (\`id\` varchar(255) not null, \`flag_id\` varchar(255) not null, \`key\` varchar(255) not null, \`name\` varchar(255) not null, \`description\` mediumtext not null, \`attachment\` mediumtext null, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`variants\` add index \`variants_flag_id_index\`(\`flag_id\`);`);
    this.addSql(`alter table \`variants\` add unique \`variants_flag_id_key_unique\`(\`flag_id\`, \`key\`);`);

    this.addSql(`create table \`distributions\` (\`id\` varchar(255) not null, \`rule_id\` varchar(255) not null, \`variant_id\` varchar(255) not null, \`rollout\` double not null default 0, \`created_at\` datetime(3) not null, \`updated_at\` datetime(3) not null, primary key (\`id\`)) default character set utf8mb4 collate utf8mb4_bin engine = InnoDB;`);
    this.addSql(`alter table \`distributions\` add index \`distributions_rule_id_index\`(\`rule_id\`);`);
    this.addSql(`alter table \`distributions\` add index \`distributions_variant_id_index\`(\`variant_id\`);`);

    this.addSql(`alter table \`flags\` add constraint \`flags_namespace_key_foreign\` foreign key (\`namespace_key\`) references \`namespaces\` (\`key\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`rollouts\` add constraint \`rollouts_flag_id_foreign\` foreign key (\`flag_id\`) references \`flags\` (\`id\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`rules\` add constraint \`rules_flag_id_foreign\` foreign key (\`flag_id\`) references \`flags\` (\`id\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`segments\` add constraint \`segments_namespace_key_foreign\` foreign key (\`namespace_key\`) references \`namespaces\` (\`key\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`rule_segments\` add constraint \`rule_segments_rule_id_foreign\` foreign key (\`rule_id\`) references \`rules\` (\`id\`) on update cascade on delete cascade;`);
    this.addSql(`alter table \`rule_segments\` add constraint \`rule_segments_segment_id_foreign\` foreign key (\`segment_id\`) references \`segments\` (\`id\`) on update cascade on delete no action;`);

    this.addSql(`alter table \`rollout_segments\` add constraint \`rollout_segments_rollout_id_foreign\` foreign key (\`rollout_id\`) references \`rollouts\` (\`id\`) on update cascade on delete cascade;`);
    this.addSql(`alter table \`rollout_segments\` add constraint \`rollout_segments_segment_id_foreign\` foreign key (\`segment_id\`) references \`segments\` (\`id\`) on update cascade on delete no action;`);

    this.addSql(`alter table \`constraints\` add constraint \`constraints_segment_id_foreign\` foreign key (\`segment_id\`) references \`segments\` (\`id\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`variants\` add constraint \`variants_flag_id_foreign\` foreign key (\`flag_id\`) references \`flags\` (\`id\`) on update cascade on delete cascade;`);

    this.addSql(`alter table \`distributions\` add constraint \`distributions_rule_id_foreign\` foreign key (\`rule_id\`) references \`rules\` (\`id\`) on update cascade on delete cascade;`);
    this.addSql(`alter table \`distributions\` add constraint \`distributions_variant_id_foreign\` foreign key (\`variant_id\`) references \`variants\` (\`id\`) on update cascade on delete cascade;`);
    // Like Flipt, every database starts with the protected `default` namespace.
    const now = new Date();
    this.addSql(this.getKnex().insert({ key: 'default', name: 'Default', description: 'Default namespace', protected: true, created_at: now, updated_at: now }).into('namespaces'));
  }

  async down() {
    this.addSql(`alter table \`flags\` drop foreign key \`flags_namespace_key_foreign\`;`);

    this.addSql(`alter table \`segments\` drop foreign key \`segments_namespace_key_foreign\`;`);

    this.addSql(`alter table \`rollouts\` drop foreign key \`rollouts_flag_id_foreign\`;`);

    this.addSql(`alter table \`rules\` drop foreign key \`rules_flag_id_foreign\`;`);

    this.addSql(`alter table \`variants\` drop foreign key \`variants_flag_id_foreign\`;`);

    this.addSql(`alter table \`rollout_segments\` drop foreign key \`rollout_segments_rollout_id_foreign\`;`);

    this.addSql(`alter table \`rule_segments\` drop foreign key \`rule_segments_rule_id_foreign\`;`);

    this.addSql(`alter table \`distributions\` drop foreign key \`distributions_rule_id_foreign\`;`);

    this.addSql(`alter table \`rule_segments\` drop foreign key \`rule_segments_segment_id_foreign\`;`);

    this.addSql(`alter table \`rollout_segments\` drop foreign key \`rollout_segments_segment_id_foreign\`;`);

    this.addSql(`alter table \`constraints\` drop foreign key \`constraints_segment_id_foreign\`;`);

    this.addSql(`alter table \`distributions\` drop foreign key \`distributions_variant_id_foreign\`;`);

    this.addSql(`drop table if exists \`namespaces\`;`);

    this.addSql(`drop table if exists \`flags\`;`);

    this.addSql(`drop table if exists \`rollouts\`;`);

    this.addSql(`drop table if exists \`rules\`;`);

    this.addSql(`drop table if exists \`segments\`;`);

    this.addSql(`drop table if exists \`rule_segments\`;`);

    this.addSql(`drop table if exists \`rollout_segments\`;`);

    this.addSql(`drop table if exists \`constraints\`;`);

    this.addSql(`drop table if exists \`variants\`;`);

    this.addSql(`drop table if exists \`distributions\`;`);
  }

}
exports.Migration20261122020619_initial = Migration20261122020619_initial;
