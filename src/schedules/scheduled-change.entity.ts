import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';

/**
 * One schedule: changes to one thing of one flag at set times (docs/api.md, Scheduled changes). Its steps, the author
 * and the target are JSON texts read and written whole; `nextAt` (the time of the next pending step while the schedule
 * is active, else null) is a column so that the due ones are one indexed query. Instances claim a due schedule by a
 * compare-and-swap on `version` that also sets `leaseUntil`.
 */
@Entity({ tableName: 'scheduled_changes' })
@Index({ properties: ['namespaceKey', 'flagKey'] })
@Index({ properties: ['nextAt'] })
export class ScheduledChange {
  @PrimaryKey({ type: 'string', length: 36 })
  id!: string;

  @Property(KEY())
  namespaceKey!: string;

  @Property(KEY())
  flagKey!: string;

  @Property({ type: 'string', length: 32 })
  type!: string;

  /** The rollout's or rule's id; '' for a change of the flag itself. */
  @Property(KEY())
  targetId!: string;

  @Property(TEXT())
  description!: string;

  @Property({ type: 'string', length: 16 })
  status!: string;

  /** JSON: the steps (schedule-steps.ts StoredStep[]). */
  @Property(TEXT())
  steps!: string;

  /** JSON: who created it (schedule-author.ts ScheduleAuthor). */
  @Property(TEXT())
  author!: string;

  @Property({ ...TIMESTAMP(), nullable: true })
  nextAt!: Date | null;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ ...TIMESTAMP(), nullable: true })
  leaseUntil!: Date | null;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;
}
