'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

class Migration20261126012230_flag_load_order extends Migration {

  async up() {
    this.addSql(`create index "flags_namespace_key_created_at_id_index" on "flags" ("namespace_key", "created_at", "id");`);
  }

  async down() {
    this.addSql(`drop index "flags_namespace_key_created_at_id_index";`);
  }

}
exports.Migration20261126012230_flag_load_order = Migration20261126012230_flag_load_order;
