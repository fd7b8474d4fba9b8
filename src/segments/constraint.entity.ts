import { Entity, Index, ManyToOne, PrimaryKey, Property, Rel } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';
import type { Segment } from './segment.entity';

@Entity({ tableName: 'constraints' })
export class Constraint {
  @PrimaryKey(KEY())
  id!: string;

  @Index()
  @ManyToOne({ entity: 'Segment', fieldName: 'segment_id', deleteRule: 'cascade' })
  segment!: Rel<Segment>;

  /** Flipt's ComparisonType number (src/wire/comparison-type.ts). */
  @Property({ type: 'integer' })
  type!: number;

  @Property(KEY())
  property!: string;

  @Property(KEY())
  operator!: string;

  @Property(TEXT())
  value: string = '';

  @Property(TEXT())
  description: string = '';

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;
}
