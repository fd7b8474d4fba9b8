/**
 * The stored trail's queries: append a batch (each event with its resource's previous payload), list with filters
 * (newest first, Flipt's paging), and delete what is older than the retention.
 */
import { Injectable } from '@nestjs/common';
import type { FilterQuery } from '@mikro-orm/core';
import { createHash } from 'node:crypto';
import type { Page } from '../common/pagination';
import { Database } from '../storage/database.service';
import { pagedList, type PagedList } from '../storage/paged-list';
import type { AuditEvent, AuditSubject } from './audit-event';
import { AuditRecord } from './audit-record.entity';

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
  since?: Date;
  until?: Date;
}

const cut = (s: string | undefined): string | null => (s ? s.slice(0, 255) : null);

@Injectable()
export class AuditRepository {
  constructor(private readonly db: Database) {}

  /** In one transaction; each event's `before` is the latest stored payload of its resource (this batch's included). */
  async append(batch: StoredEvent[]): Promise<void> {
    await this.db.write(null, async (em) => {
      const latest = new Map<string, string | null>();
      for (const { id, event, subject } of batch) {
        const resource = createHash('sha256').update(subject.resource).digest('hex');
        if (!latest.has(resource)) {
          const previous = await em.findOne(AuditRecord, { resource }, { orderBy: { id: 'desc' }, fields: ['event'] });
          const last = previous ? (JSON.parse(previous.event) as AuditEvent) : null;
          latest.set(resource, last && last.action !== 'deleted' ? JSON.stringify(last.payload) : null);
        }
        const actor = event.metadata.actor;
        em.create(AuditRecord, {
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
          previousPayload: latest.get(resource) ?? null,
        });
        latest.set(resource, event.action === 'deleted' ? null : JSON.stringify(event.payload));
      }
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
    if (filter.since || filter.until) {
      where.occurredAt = { ...(filter.since ? { $gte: filter.since } : {}), ...(filter.until ? { $lt: filter.until } : {}) };
    }
    return this.db.read((em) => pagedList(em, AuditRecord, where, page, { orderBy: { id: 'desc' }, keyOf: (r) => r.id }));
  }

  /** Deletes events that occurred before `cutoff`; returns how many. */
  prune(cutoff: Date): Promise<number> {
    return this.db.write(null, (em) => em.nativeDelete(AuditRecord, { occurredAt: { $lt: cutoff } }));
  }
}
