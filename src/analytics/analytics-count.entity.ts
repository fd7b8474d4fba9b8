import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY } from '../storage/columns';

/**
 * One stored evaluation count (`analytics_counts`): how many evaluations of one flag ended with one variant (or
 * boolean value) for one reason within one minute. The primary key is the row's whole identity, so that each
 * instance's flush adds to the row with one upsert (analytics.repository.ts). Never hydrated: the repository reads and
 * writes it with plain queries; the entity keeps the migrations and the schema check honest.
 */
@Entity({ tableName: 'analytics_counts' })
@Index({ properties: ['minute'] })
export class AnalyticsCount {
  @PrimaryKey(KEY())
  namespaceKey!: string;

  @PrimaryKey(KEY())
  flagKey!: string;

  /** Minutes since the Unix epoch (UTC): one number on every dialect, no time zone to convert. */
  @PrimaryKey({ type: 'integer' })
  minute!: number;

  /** The variant key (`''` when no variant was chosen), or `true`/`false` for boolean flags. */
  @PrimaryKey(KEY())
  variantKey!: string;

  /** Flipt's EvaluationReason number: 0 unknown, 1 flag disabled, 2 match, 3 default. */
  @PrimaryKey({ type: 'smallint' })
  reason!: number;

  @Property({ type: 'bigint' })
  count!: number;
}
