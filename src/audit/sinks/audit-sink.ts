import type { AuditEvent } from '../audit-event';

/**
 * A destination for audit events (the log, a webhook, one webhook template). `close` waits up to `waitMs` for what
 * is pending and resolves with how many events it could not deliver.
 */
export interface AuditSink {
  readonly name: string;
  send(event: AuditEvent): void;
  close(waitMs: number): Promise<number>;
}
