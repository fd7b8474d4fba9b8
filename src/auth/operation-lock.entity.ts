import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY, TIMESTAMP } from '../storage/columns';

/**
 * One row per periodic operation that only one instance should run at a time (Flipt's `operation_lock`). An
 * instance holds the operation until `acquiredUntil`; taking it over is a compare-and-swap on `version`.
 */
@Entity({ tableName: 'operation_lock' })
export class OperationLock {
  @PrimaryKey(KEY())
  operation!: string;

  @Property({ type: 'integer' })
  version!: number;

  @Property(TIMESTAMP())
  lastAcquiredAt!: Date;

  @Property(TIMESTAMP())
  acquiredUntil!: Date;
}
