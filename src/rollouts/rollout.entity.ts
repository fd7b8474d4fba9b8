import { Collection, Entity, Index, ManyToOne, OneToMany, OptionalProps, PrimaryKey, Property, Rel } from '@mikro-orm/core';
import { Flag } from '../flags/flag.entity';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';
import { RolloutType, SegmentOperator } from '../wire';
import { RolloutSegment } from './rollout-segment.entity';

/** One table for both kinds: a threshold rollout fills `percentage`, a segment rollout its segment references. */
@Entity({ tableName: 'rollouts' })
export class Rollout {
  [OptionalProps]?: 'percentage' | 'segmentOperator' | 'value' | 'description' | 'rank';

  @PrimaryKey(KEY())
  id!: string;

  @Index()
  @ManyToOne({ entity: () => Flag, fieldName: 'flag_id', deleteRule: 'cascade' })
  flag!: Rel<Flag>;

  @Property({ type: 'integer' })
  type!: RolloutType;

  @Property({ type: 'integer', default: 1 })
  rank: number = 1;

  @Property(TEXT())
  description: string = '';

  @Property({ type: 'double', nullable: true })
  percentage: number | null = null;

  @Property({ type: 'integer', default: 0 })
  segmentOperator: number = SegmentOperator.OR;

  /** The boolean the rollout returns when it matches. */
  @Property({ type: 'boolean', default: false })
  value: boolean = false;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;

  @OneToMany({ entity: () => RolloutSegment, mappedBy: 'rollout', orderBy: { position: 'asc' } })
  segments = new Collection<RolloutSegment>(this);
}
