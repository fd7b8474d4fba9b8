import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { tap, type Observable } from 'rxjs';
import { AUTHENTICATION, type AuthenticatedRequest } from '../auth/auth.decorators';
import { requestNamespace, type ScopedRequest } from '../auth/request-namespace';
import { jsonField } from '../wire';
import { Denials } from '../auth/denials';
import { actorOf, auditEvent, type AuditStatus } from './audit-event';
import { payloadFromAnswer, payloadFromRequest, subjectOf } from './audit-payloads';
import { AuditTrail } from './audit-trail.service';
import { AUDITED, type AuditedRoute } from './audited-route';

/**
 * Records the audit event of an `@Audited` route after its handler succeeded; a refused or failed write (an error)
 * records nothing. The actor is the authentication the guard found (audit-event.ts actorOf) and the client's address
 * as Fastify reports it (`X-Forwarded-For` counts only where the server is told to trust its proxy).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
    denials: Denials,
  ) {
    denials.listen((context) => this.denied(context));
  }

  /** A write authorization refused: recorded as `denied`, its payload what the request named (as for deletes). */
  private denied(context: ExecutionContext): void {
    const route = this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
    if (!route) return;
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    try {
      this.record({ ...route, payload: undefined, fromRequest: route.fromRequest ?? ['key'] }, request, undefined, 'denied');
    } catch (e) {
      this.logger.error(`audit event of the denied ${request.method} ${request.url} not recorded: ${(e as Error).message}`);
    }
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<AuditedRoute | undefined>(AUDITED, context.getHandler());
    if (!route) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    return next.handle().pipe(
      tap((answer) => {
        // The write has committed: a fault in recording it must not turn its answer into an error.
        try {
          this.record(route, request, answer);
        } catch (e) {
          this.logger.error(`audit event of ${request.method} ${request.url} not recorded: ${(e as Error).message}`);
        }
      }),
    );
  }

  private record(route: AuditedRoute, request: FastifyRequest & AuthenticatedRequest, answer: unknown, status: AuditStatus = 'success'): void {
    const params = (request.params ?? {}) as Record<string, string>;
    const namespace = route.type === 'token' || route.type === 'namespace' ? null : requestNamespace(request as unknown as ScopedRequest, 'namespaceKey');
    let payload: Record<string, unknown>;
    if (route.payload) {
      payload = route.payload({ params, body: request.body, query: request.query, authentication: request[AUTHENTICATION] }, answer);
    } else if (route.fromRequest || route.action === 'deleted' || route.type === 'token') {
      const message = request.method === 'GET' || request.method === 'DELETE' ? request.query : request.body;
      const fields: Record<string, unknown> = { ...params };
      for (const name of route.fromRequest ?? []) {
        const value = isObject(message) ? jsonField(message, name) : undefined;
        if (value !== undefined) fields[name] = value;
      }
      if (namespace !== null) fields.namespaceKey = namespace;
      payload = payloadFromRequest(fields);
    } else {
      payload = payloadFromAnswer(route.type as Exclude<typeof route.type, 'token'>, answer);
    }
    const event = auditEvent(route.type, route.action, payload, actorOf(request[AUTHENTICATION], request.ip), new Date(), status);
    this.trail.record(event, subjectOf(route.type, route.action, payload, namespace, params));
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
