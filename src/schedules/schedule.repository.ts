/**
 * Storage access for schedules. Every change of a row is a compare-and-swap on its `version`, so that the instance
 * applying a step (which holds the row's lease) and an API edit never overwrite each other.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ScheduleStatus } from './schedule-steps';
import { ScheduledChange } from './scheduled-change.entity';

/** The statuses a schedule never leaves. */
const CLOSED: ScheduleStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** Most schedules one list answers (a flag has at most `schedules.max_active_per_flag` open ones; the rest are records). */
export const MAX_LISTED = 500;

export type ScheduleFields = Partial<Pick<ScheduledChange, 'description' | 'status' | 'steps' | 'nextAt' | 'leaseUntil' | 'updatedAt'>>;

@Injectable()
export class ScheduleRepository {
  list(em: EntityManager, namespaceKey: string, flagKey: string | null, status: ScheduleStatus | undefined): Promise<ScheduledChange[]> {
    const where: FilterQuery<ScheduledChange> = { namespaceKey };
    if (flagKey !== null) where.flagKey = flagKey;
    if (status) where.status = status;
    return em.find(ScheduledChange, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: MAX_LISTED });
  }

  find(em: EntityManager, namespaceKey: string, flagKey: string, id: string): Promise<ScheduledChange | null> {
    return em.findOne(ScheduledChange, { id, namespaceKey, flagKey });
  }

  byId(em: EntityManager, id: string): Promise<ScheduledChange | null> {
    return em.findOne(ScheduledChange, { id });
  }

  /** Active or paused schedules of the flag. */
  countOpen(em: EntityManager, namespaceKey: string, flagKey: string): Promise<number> {
    return em.count(ScheduledChange, { namespaceKey, flagKey, status: { $in: ['ACTIVE', 'PAUSED'] } });
  }

  countActive(em: EntityManager): Promise<number> {
    return em.count(ScheduledChange, { status: 'ACTIVE' });
  }

  async insert(em: EntityManager, row: ScheduledChange): Promise<void> {
    await em.insert(ScheduledChange, row);
  }

  /** Active schedules with a step due at `at` that nobody holds, oldest due first. */
  due(em: EntityManager, at: Date, limit: number): Promise<ScheduledChange[]> {
    return em.find(
      ScheduledChange,
      { status: 'ACTIVE', nextAt: { $lte: at }, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: at } }] },
      { orderBy: { nextAt: 'asc', id: 'asc' }, limit },
    );
  }

  /** Deletes closed schedules (completed, failed, cancelled) last changed before `before`; answers how many. */
  pruneClosed(em: EntityManager, before: Date): Promise<number> {
    return em.nativeDelete(ScheduledChange, { status: { $in: CLOSED }, updatedAt: { $lt: before } });
  }

  /** The change, if the row is still at `version`: true when it was made (the version moved on by one). */
  async swap(em: EntityManager, id: string, version: number, fields: ScheduleFields): Promise<boolean> {
    return (await em.nativeUpdate(ScheduledChange, { id, version }, { ...fields, version: version + 1 })) === 1;
  }
}
