/**
 * Turns an `@Audited` route's request (and answer) into one audit event and hands it to the AuditTrail: a committed
 * write's event (from the AuditInterceptor), and a write authorization refused (`denied`, reported by the guard
 * through Denials). One per application: Nest makes an interceptor per module that uses it, and each of those
 * listening for refusals recorded every refusal once per module (issue 38, item 4).
 */
import { Injectable, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AUTHENTICATION, type AuthenticatedRequest } from '../auth/auth.decorators';
import { Denials } from '../authorization/denials';
import { requestNamespace, type ScopedRequest } from '../auth/request-namespace';
import { jsonField } from '../wire';
import { actorOf, auditEvent, type AuditStatus } from './audit-event';
import { payloadFromAnswer, payloadFromRequest, subjectOf } from './audit-payloads';
import { AuditTrail } from './audit-trail.service';
import { AUDITED, type AuditedRoute } from './audited-route';
import { boundedRequestField } from './denied-fields';

export type AuditedRequest = FastifyRequest & AuthenticatedRequest;

@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
    denials: Denials,
  ) {
    denials.listen((context) => this.denied(context));
  }

  /** The route's `@Audited` declaration, if it has one. */
  routeOf(context: ExecutionContext): AuditedRoute | undefined {
    return this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
  }

  /** A committed write: its event. A fault here must not turn the write's answer into an error. */
  committed(route: AuditedRoute, request: AuditedRequest, answer: unknown): void {
    try {
      this.record(route, request, answer, 'success');
    } catch (e) {
      this.logger.error(`audit event of ${request.method} ${request.url} not recorded: ${(e as Error).message}`);
    }
  }

  /**
   * A write authorization refused (by the guard, or by the handler, as a token that would outgrant its creator):
   * recorded as `denied`. The guard refused before the body was validated, so its
   * payload holds only what identifies the target (path, namespace, the named fields), each cut to a small size: a
   * refused request leaves one small record, whatever it sent.
   */
  denied(context: ExecutionContext): void {
    const route = this.routeOf(context);
    if (!route) return;
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    try {
      const named = route.fromRequest ?? (route.type === 'token' ? ['name', 'namespaceKey'] : ['key']);
      this.record({ ...route, payload: undefined, fromRequest: named }, request, undefined, 'denied');
    } catch (e) {
      this.logger.error(`audit event of the denied ${request.method} ${request.url} not recorded: ${(e as Error).message}`);
    }
  }

  private record(route: AuditedRoute, request: AuditedRequest, answer: unknown, status: AuditStatus): void {
    const params = (request.params ?? {}) as Record<string, string>;
    const namespace = route.type === 'token' || route.type === 'namespace' ? null : requestNamespace(request as unknown as ScopedRequest, 'namespaceKey');
    const bound = status === 'denied' ? boundedRequestField : (value: unknown) => value;
    let payload: Record<string, unknown>;
    if (route.payload) {
      payload = route.payload({ params, body: request.body, query: request.query, authentication: request[AUTHENTICATION] }, answer);
    } else if (route.fromRequest || route.action === 'deleted' || route.type === 'token') {
      const message = request.method === 'GET' || request.method === 'DELETE' ? request.query : request.body;
      const fields: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(params)) fields[name] = bound(value);
      for (const name of route.fromRequest ?? []) {
        const value = isObject(message) ? bound(jsonField(message, name)) : undefined;
        if (value !== undefined) fields[name] = value;
      }
      if (namespace !== null) fields.namespaceKey = bound(namespace);
      payload = payloadFromRequest(fields);
    } else {
      payload = payloadFromAnswer(route.type as Exclude<typeof route.type, 'token'>, answer);
    }
    const event = auditEvent(route.type, route.action, payload, actorOf(request[AUTHENTICATION], request.ip), new Date(), status);
    this.trail.record(event, subjectOf(route.type, route.action, payload, namespace, params));
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
