import { Entity, ManyToOne, PrimaryKey, Property, Rel, Unique } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';
import type { Flag } from './flag.entity';

@Entity({ tableName: 'variants' })
@Unique({ properties: ['flag', 'key'] })
export class Variant {
  @PrimaryKey(KEY())
  id!: string;

  @ManyToOne({ entity: 'Flag', fieldName: 'flag_id', deleteRule: 'cascade' })
  flag!: Rel<Flag>;

  @Property(KEY())
  key!: string;

  @Property(KEY())
  name: string = '';

  @Property(TEXT())
  description: string = '';

  /** Compact JSON text; NULL when empty. */
  @Property({ ...TEXT(), nullable: true })
  attachment: string | null = null;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;
}
