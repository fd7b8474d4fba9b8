import { Collection, Entity, Index, ManyToOne, OneToMany, PrimaryKey, Property, Rel } from '@mikro-orm/core';
import { Flag } from '../flags/flag.entity';
import { KEY, TIMESTAMP } from '../storage/columns';
import { SegmentOperator } from '../wire';
import { Distribution } from './distribution.entity';
import { RuleSegment } from './rule-segment.entity';

@Entity({ tableName: 'rules' })
export class Rule {
  @PrimaryKey(KEY())
  id!: string;

  @Index()
  @ManyToOne({ entity: () => Flag, fieldName: 'flag_id', deleteRule: 'cascade' })
  flag!: Rel<Flag>;

  @Property({ type: 'integer', default: 1 })
  rank: number = 1;

  @Property({ type: 'integer', default: 0 })
  segmentOperator: SegmentOperator = SegmentOperator.OR;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;

  @OneToMany({ entity: () => RuleSegment, mappedBy: 'rule', orderBy: { position: 'asc' } })
  segments = new Collection<RuleSegment>(this);

  @OneToMany({ entity: () => Distribution, mappedBy: 'rule', orderBy: { createdAt: 'asc', id: 'asc' } })
  distributions = new Collection<Distribution>(this);
}
