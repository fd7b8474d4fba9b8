import { Entity, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';

@Entity({ tableName: 'namespaces' })
export class Namespace {
  [PrimaryKeyProp]?: 'key';

  @PrimaryKey(KEY())
  key!: string;

  @Property(KEY())
  name!: string;

  @Property(TEXT())
  description: string = '';

  @Property({ type: 'boolean', default: false })
  protected: boolean = false;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;

  /** Bumped by every write inside the namespace: the snapshot version and ETag derive from it. */
  @Property({ ...TIMESTAMP(), nullable: true })
  stateModifiedAt: Date | null = null;
}
