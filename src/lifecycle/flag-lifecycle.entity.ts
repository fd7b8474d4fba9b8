import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';

/**
 * One flag's lifecycle as the last check found it (`flag_lifecycle`): what the `?stale` filter, the flag-health report
 * and the gauge read. Keyed by namespace and flag key, not by the flag's id, so that an import or a declarative
 * mirror that writes the flag again keeps its state (and its `since`); rows of flags that are gone are dropped by the
 * next check, and readers join the flags table. Written and read with plain queries (lifecycle.repository.ts).
 */
@Entity({ tableName: 'flag_lifecycle' })
@Index({ properties: ['namespaceKey', 'state'] })
export class FlagLifecycle {
  @PrimaryKey(KEY())
  namespaceKey!: string;

  @PrimaryKey(KEY())
  flagKey!: string;

  /** The kind the check judged it as (its metadata's, or the namespace's default). */
  @Property({ type: 'string', length: 32 })
  kind!: string;

  /** new, live, potentially_stale or archived (lifecycle-state.ts). */
  @Property({ type: 'string', length: 32 })
  state!: string;

  /** JSON array of `{reason, since, detail}`; `[]` unless potentially stale. */
  @Property(TEXT())
  reasons!: string;

  /** When the flag entered this state (as far as checks saw). */
  @Property(TIMESTAMP())
  since!: Date;

  @Property(TIMESTAMP())
  checkedAt!: Date;

  /**
   * The latest evaluation any check saw: analytics keeps counts for `analytics.retention` only, and a flag evaluated
   * before that must not look never evaluated.
   */
  @Property({ ...TIMESTAMP(), nullable: true })
  lastEvaluatedAt!: Date | null;
}
