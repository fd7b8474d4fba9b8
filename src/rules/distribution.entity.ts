import { Entity, Index, ManyToOne, PrimaryKey, Property, Rel } from '@mikro-orm/core';
import { Variant } from '../flags/variant.entity';
import { KEY, TIMESTAMP } from '../storage/columns';
import type { Rule } from './rule.entity';

@Entity({ tableName: 'distributions' })
export class Distribution {
  @PrimaryKey(KEY())
  id!: string;

  @Index()
  @ManyToOne({ entity: 'Rule', fieldName: 'rule_id', deleteRule: 'cascade' })
  rule!: Rel<Rule>;

  @Index()
  @ManyToOne({ entity: () => Variant, fieldName: 'variant_id', deleteRule: 'cascade' })
  variant!: Rel<Variant>;

  @Property({ type: 'double', default: 0 })
  rollout: number = 0;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;
}
