import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { KEY, TEXT, TIMESTAMP } from '../storage/columns';

/**
 * One stored audit event (`audit_events`): the event as the sinks received it, with the columns the trail is
 * filtered by. `resource` is a digest of what the event is about (audit-payloads.ts subjectOf), so that an update's
 * previous state is one indexed lookup; `previous_payload` is that state when the event was stored.
 */
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['namespaceKey', 'id'] })
@Index({ properties: ['resource', 'id'] })
@Index({ properties: ['occurredAt'] })
export class AuditRecord {
  /** Time-ordered (common/time-ordered-id.ts), so the trail is listed by id. */
  @PrimaryKey({ type: 'string', length: 36 })
  id!: string;

  @Property(TIMESTAMP())
  occurredAt!: Date;

  @Property({ ...KEY(), nullable: true })
  namespaceKey!: string | null;

  @Property(KEY())
  type!: string;

  @Property(KEY())
  action!: string;

  @Property(KEY())
  status!: string;

  @Property({ ...KEY(), nullable: true })
  flagKey!: string | null;

  @Property({ ...KEY(), nullable: true })
  segmentKey!: string | null;

  @Property({ type: 'string', length: 64 })
  resource!: string;

  @Property(KEY())
  actorAuthentication!: string;

  @Property({ ...KEY(), nullable: true })
  actorEmail!: string | null;

  @Property({ ...KEY(), nullable: true })
  actorName!: string | null;

  /** The event's JSON. */
  @Property(TEXT())
  event!: string;

  /** The resource's payload as the previous stored event left it (JSON), when there is one (`before` in the API). */
  @Property({ ...TEXT(), nullable: true })
  previousPayload!: string | null;
}
