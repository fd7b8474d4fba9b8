import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';

/**
 * A stored authentication (Flipt's table `authentications`). Only the hash of the client token is kept
 * (client-token.ts); `metadata` is the JSON text of a string map.
 */
@Entity({ tableName: 'authentications' })
@Index({ properties: ['method', 'expiresAt'] })
export class Authentication {
  @PrimaryKey(KEY())
  id!: string;

  @Property({ ...KEY(), unique: true })
  hashedClientToken!: string;

  @Property({ type: 'integer' })
  method!: number;

  @Property(TEXT())
  metadata!: string;

  @Property({ ...TIMESTAMP(), nullable: true })
  expiresAt: Date | null = null;

  @Property(TIMESTAMP())
  createdAt!: Date;

  @Property(TIMESTAMP())
  updatedAt!: Date;
}
