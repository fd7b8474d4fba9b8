/**
 * The stored trail's queries: append a batch (each event with its resource's previous payload), list with filters
 * (newest first, Flipt's paging), and delete what is older than the retention.
 */
import { Injectable } from '@nestjs/common';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { createHash } from 'node:crypto';
import type { Page } from '../common/pagination';
import { Database } from '../storage/database.service';
import { ValidationError } from '../common/errors';
import { MAX_SEARCH_LENGTH } from '../common/list.dto';
import { containsCondition } from '../storage/list-filter';
import { pagedList, type PagedList } from '../storage/paged-list';
import type { AuditEvent, AuditSubject } from './audit-event';
import { AuditRecord } from './audit-record.entity';
import { beforeUpdate } from './audit-payloads';

export interface StoredEvent {
  id: string;
  event: AuditEvent;
  subject: AuditSubject;
}

export interface TrailFilter {
  namespace?: string;
  type?: string;
  action?: string;
  flag?: string;
  segment?: string;
  actor?: string;
  /** Part of the actor's email, name or authentication method, in any case (the UI's search). */
  actorContains?: string;
  since?: Date;
  until?: Date;
}

const cut = (s: string | undefined): string | null => (s ? s.slice(0, 255) : null);

/** An event's `before` (JSON): its resource's latest payload, an update's children as the update found them. */
function previousOf(event: AuditEvent, latest: string | null): string | null {
  if (latest === null || event.action !== 'updated') return latest;
  return JSON.stringify(beforeUpdate(event.type, JSON.parse(latest) as Record<string, unknown>, event.payload));
}

@Injectable()
export class AuditRepository {
  constructor(private readonly db: Database) {}

  /**
   * In one transaction of three statements whatever the batch's size: the latest stored event of each resource the
   * batch names, then one insert. Each event's `before` is its resource's latest payload, this batch's included
   * (denied events, which changed nothing, are never a `before`).
   */
  async append(batch: StoredEvent[]): Promise<void> {
    const digest = (resource: string) => createHash('sha256').update(resource).digest('hex');
    const resources = batch.map((e) => digest(e.subject.resource));
    await this.db.write(null, async (em) => {
      const knex = (em.getTransactionContext<Knex.Transaction>() ?? (em as SqlEntityManager).getKnex()) as Knex;
      const previous = (await knex('audit_events').select('resource', 'event')
        .whereIn('id', knex('audit_events').max('id').whereIn('resource', [...new Set(resources)]).andWhere('status', 'success').groupBy('resource'))) as Array<{ resource: string; event: string }>;
      const latest = new Map<string, string | null>();
      for (const row of previous) {
        const last = JSON.parse(row.event) as AuditEvent;
        latest.set(row.resource, last.action === 'deleted' ? null : JSON.stringify(last.payload));
      }
      const records = batch.map(({ id, event, subject }, i) => {
        const resource = resources[i];
        const actor = event.metadata.actor;
        const record = {
          id,
          occurredAt: new Date(event.timestamp),
          namespaceKey: subject.namespace,
          type: event.type,
          action: event.action,
          status: event.status,
          flagKey: subject.flag,
          segmentKey: subject.segment,
          resource,
          actorAuthentication: actor.authentication,
          actorEmail: cut(actor.email),
          actorName: cut(actor.name),
          event: JSON.stringify(event),
          previousPayload: previousOf(event, latest.get(resource) ?? null),
        };
        // A denied request changed nothing: the next event's `before` is still the last committed state.
        if (event.status === 'success') latest.set(resource, event.action === 'deleted' ? null : JSON.stringify(event.payload));
        return record;
      });
      await em.insertMany(AuditRecord, records);
    });
  }

  list(filter: TrailFilter, page: Page): Promise<PagedList<AuditRecord>> {
    const where: FilterQuery<AuditRecord> & Record<string, unknown> = {};
    if (filter.namespace !== undefined) where.namespaceKey = filter.namespace;
    if (filter.type) where.type = filter.type;
    if (filter.action) where.action = filter.action;
    if (filter.flag) where.flagKey = filter.flag;
    if (filter.segment) where.segmentKey = filter.segment;
    if (filter.actor) where.$or = [{ actorEmail: filter.actor }, { actorName: filter.actor }, { actorAuthentication: filter.actor }];
    const part = filter.actorContains?.trim();
    if (part && part.length > MAX_SEARCH_LENGTH) throw new ValidationError('actorContains', `must be at most ${MAX_SEARCH_LENGTH} characters`);
    if (filter.since || filter.until) {
      where.occurredAt = { ...(filter.since ? { $gte: filter.since } : {}), ...(filter.until ? { $lt: filter.until } : {}) };
    }
    // A function: the search's raw SQL may be used by one query only (paged-list.ts), and a page is two.
    const condition = (): FilterQuery<AuditRecord> =>
      part ? { ...where, $and: [containsCondition(['actor_email', 'actor_name', 'actor_authentication'], part)] } : where;
    return this.db.read((em) => pagedList<AuditRecord>(em, AuditRecord, condition, page, { orderBy: { id: 'desc' }, keyOf: (r) => r.id }));
  }

  /** Deletes events that occurred before `cutoff`; returns how many. */
  prune(cutoff: Date): Promise<number> {
    return this.db.write(null, (em) => em.nativeDelete(AuditRecord, { occurredAt: { $lt: cutoff } }));
  }
}
