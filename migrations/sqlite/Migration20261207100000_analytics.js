'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
const { Migration } = require('@mikro-orm/migrations');

/**
 * Evaluation counts (analytics.enabled): one row per minute (since the Unix epoch, UTC), namespace, flag, variant
 * (`true`/`false` for boolean flags) and reason (Flipt's EvaluationReason number). Instances add to a row with an
 * upsert, so the primary key is the row's whole identity; the minute index serves the retention's delete.
 */
class Migration20261207100000_analytics extends Migration {

  async up() {
    this.addSql(`create table \`analytics_counts\` (\`namespace_key\` text not null, \`flag_key\` text not null, \`minute\` integer not null, \`variant_key\` text not null, \`reason\` integer not null, \`count\` bigint not null, primary key (\`namespace_key\`, \`flag_key\`, \`minute\`, \`variant_key\`, \`reason\`));`);
    this.addSql(`create index \`analytics_counts_minute_index\` on \`analytics_counts\` (\`minute\`);`);
  }

  async down() {
    this.addSql(`drop table if exists \`analytics_counts\`;`);
  }

}
exports.Migration20261207100000_analytics = Migration20261207100000_analytics;
