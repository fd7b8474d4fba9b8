import { Entity, Index, ManyToOne, PrimaryKeyProp, Property, Rel } from '@mikro-orm/core';
import { Segment } from '../segments/segment.entity';
import type { Rule } from './rule.entity';

/** A rule's reference to one of its segments. The segment side restricts deletion: a segment in use stays. */
@Entity({ tableName: 'rule_segments' })
export class RuleSegment {
  [PrimaryKeyProp]?: ['rule', 'segment'];

  @ManyToOne({ entity: 'Rule', fieldName: 'rule_id', primary: true, deleteRule: 'cascade' })
  rule!: Rel<Rule>;

  @Index()
  @ManyToOne({ entity: () => Segment, fieldName: 'segment_id', primary: true, deleteRule: 'no action' })
  segment!: Rel<Segment>;

  /** Keeps the segment keys in the order they were given. */
  @Property({ type: 'integer', default: 0 })
  position: number = 0;
}
