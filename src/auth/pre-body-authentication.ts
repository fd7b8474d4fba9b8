/**
 * Credentials are in the headers, so a request that the one guard would refuse is refused before its body is read:
 * without this, every unauthenticated client could make Flagpole buffer a 4 MiB body per connection. On each route
 * where the guard enforces anything (AuthGuard.enforcedOn), an onRequest hook answers the guard's own 401 when the
 * request carries no credential, or a client token that the guard's lookup refuses (unknown, expired, no longer
 * admitted). A client token that passes is looked up once: the guard takes the same lookup later
 * (request-authenticator.ts), so valid requests cost what they did. A JWT is still verified by the guard alone.
 *
 * The hooks are route-level, attached as Fastify registers each route, so routes without authentication pay nothing.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { sendError } from '../common/error.filter';
import { UnauthenticatedError } from '../common/errors';
import type { NestRoute } from '../common/nest-routes';
import type { AuthenticationSessionConfig } from '../config/config.types';
import type { AuthGuard } from './auth.guard';
import { keepEarlyAuthentication } from './request-authenticator';
import { clearRefusedSession } from './session-cookies';

export class PreBodyAuthentication {
  private guard: AuthGuard | null = null;
  private readonly enforced = new Set<string>();
  private readonly hook: onRequestHookHandler = (request, reply, done) => this.check(request, reply, done);

  constructor(private readonly session: AuthenticationSessionConfig) {}

  /** Which routes the guard enforces anything on; must be called before Nest registers its routes (app.init). */
  bind(guard: AuthGuard, routes: readonly NestRoute[]): void {
    this.guard = guard;
    for (const r of routes) if (guard.enforcedOn(r.handler, r.controller)) this.enforced.add(`${r.method} ${r.url}`);
  }

  /** For Fastify's `onRoute` hook. */
  onRoute(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Fastify's HEAD twin of a GET route is registered from the GET route's options, hook included.
    if (!methods.some((m) => this.enforced.has(`${m === 'HEAD' ? 'GET' : m} ${route.url}`))) return;
    const hooks = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    if (!hooks.includes(this.hook)) route.onRequest = [...hooks, this.hook];
  }

  private check(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    const guard = this.guard!;
    const credential = guard.requestCredential(request);
    if (credential === null) return this.refuse(request, reply);
    if (credential.kind !== 'client-token') return done();
    const pending = guard.authenticateClientToken(request);
    keepEarlyAuthentication(request, pending);
    pending.then(
      () => done(),
      // Anything but a refusal (a database outage) is the guard's to report, through the one filter, as before.
      (e: unknown) => (e instanceof UnauthenticatedError ? this.refuse(request, reply) : done()),
    );
  }

  /**
   * The guard's refusal, as the one filter sends it. A large body (or one of unknown size) still on its way is not
   * waited for: the connection closes. A small one is read and dropped by Node, so the connection stays usable and
   * the client is never reset while it still writes.
   */
  private refuse(request: FastifyRequest, reply: FastifyReply): void {
    const e = new UnauthenticatedError();
    clearRefusedSession(request, reply, this.session);
    if (largeBody(request.headers)) reply.header('connection', 'close');
    sendError(reply, e.code, e.message);
  }
}

const SMALL_BODY_BYTES = 64 * 1024;

function largeBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > SMALL_BODY_BYTES;
}
