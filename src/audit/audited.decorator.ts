/**
 * `@Audited(type, action)` on a write route: once the handler has answered (its transaction committed), the
 * AuditInterceptor turns the request and the answer into one audit event. Created and updated events take their
 * payload from the answer; deleted events (and reorders) from the request's identifying fields: the path parameters,
 * the resolved namespace and the `fields` named here (query or body).
 */
import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import type { AuditAction, AuditType } from './audit-event';
import { AUDITED, type AuditedRoute } from './audited-route';
import { AuditInterceptor } from './audit.interceptor';

export const Audited = (type: AuditType, action: AuditAction, options: Omit<AuditedRoute, 'type' | 'action'> = {}) =>
  applyDecorators(SetMetadata(AUDITED, { type, action, ...options } satisfies AuditedRoute), UseInterceptors(AuditInterceptor));
