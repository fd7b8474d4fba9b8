import { Collection, Entity, Index, ManyToOne, OneToMany, PrimaryKey, Property, Rel, Unique } from '@mikro-orm/core';
import { Namespace } from '../namespaces/namespace.entity';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';
import { FlagType } from '../wire';
import { Variant } from './variant.entity';

@Entity({ tableName: 'flags' })
@Unique({ properties: ['namespace', 'key'] })
/** A full snapshot load reads a namespace's flags page by page in this order (storage/evaluation-source.ts). */
@Index({ properties: ['namespace', 'createdAt', 'id'] })
export class Flag {
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

  @Property({ type: 'boolean', default: false })
  enabled: boolean = false;

  @Property({ type: 'integer', default: 0 })
  type: FlagType = FlagType.VARIANT;

  /** Plain column, not a foreign key: deleting the variant clears it in the same transaction. */
  @Property({ ...KEY(), nullable: true })
  defaultVariantId: string | null = null;

  /** JSON object text, kept exactly as given; NULL when the flag has no metadata. */
  @Property({ ...TEXT(), nullable: true })
  metadata: string | null = null;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;

  @OneToMany({ entity: () => Variant, mappedBy: 'flag', orderBy: { createdAt: 'asc', id: 'asc' } })
  variants = new Collection<Variant>(this);
}
