/** What `@Audited` records about a route (audited.decorator.ts), read by the AuditInterceptor. */
import type { AuditAction, AuditType } from './audit-event';

export const AUDITED = Symbol('flagpole:audited');

export interface AuditedRoute {
  type: AuditType;
  action: AuditAction;
  /** Payload from the request (path, namespace and these fields of body or query) rather than from the answer. */
  fromRequest?: readonly string[];
  /** Builds the payload itself (tokens: never the secret). */
  payload?: (
    request: { params: Record<string, string>; body: unknown; query: unknown; authentication?: { id: string } },
    answer: unknown,
  ) => Record<string, unknown>;
}
