import { Entity, Index, ManyToOne, PrimaryKeyProp, Property, Rel } from '@mikro-orm/core';
import { Segment } from '../segments/segment.entity';
import type { Rollout } from './rollout.entity';

/** A segment rollout's reference to one of its segments; restricts deleting a segment in use. */
@Entity({ tableName: 'rollout_segments' })
export class RolloutSegment {
  [PrimaryKeyProp]?: ['rollout', 'segment'];

  @ManyToOne({ entity: 'Rollout', fieldName: 'rollout_id', primary: true, deleteRule: 'cascade' })
  rollout!: Rel<Rollout>;

  @Index()
  @ManyToOne({ entity: () => Segment, fieldName: 'segment_id', primary: true, deleteRule: 'no action' })
  segment!: Rel<Segment>;

  @Property({ type: 'integer', default: 0 })
  position: number = 0;
}
