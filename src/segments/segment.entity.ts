import { Collection, Entity, ManyToOne, OneToMany, PrimaryKey, Property, Rel, Unique } from '@mikro-orm/core';
import { Namespace } from '../namespaces/namespace.entity';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';
import { MatchType } from '../wire';
import { Constraint } from './constraint.entity';

@Entity({ tableName: 'segments' })
@Unique({ properties: ['namespace', 'key'] })
export class Segment {
  @PrimaryKey(KEY())
  id!: string;

  @ManyToOne({ entity: () => Namespace, fieldName: 'namespace_key', deleteRule: 'cascade' })
  namespace!: Rel<Namespace>;

  @Property(KEY())
  key!: string;

  @Property(KEY())
  name!: string;

  @Property(TEXT())
  description: string = '';

  @Property({ type: 'integer', default: 0 })
  matchType: MatchType = MatchType.ALL;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;

  @OneToMany({ entity: () => Constraint, mappedBy: 'segment', orderBy: { createdAt: 'asc', id: 'asc' } })
  constraints = new Collection<Constraint>(this);
}
