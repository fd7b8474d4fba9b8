/**
 * Credentials are in the headers, so a request is authenticated before its body is read: without this, every
 * unauthenticated client could make Flagpole buffer a 4 MiB body per connection. On each route whose policy requires
 * an authentication (route-policy.ts), an onRequest hook runs the one guard's authentication and answers the guard's
 * own 401 when it refuses. An authentication that passes is kept for the guard (early-authentication.ts), so a
 * request is authenticated once.
 *
 * The hooks are route-level, attached as Fastify registers each route, so routes without authentication pay nothing.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { sendError } from '../common/error.filter';
import { addOnRequest } from '../common/route-config';
import { UnauthenticatedError } from '../common/errors';
import type { AuthenticationSessionConfig } from '../config/config.types';
import type { AuthGuard } from './auth.guard';
import { keepEarlyAuthentication, type Authentication } from './early-authentication';
import type { RoutePolicy } from './route-policy';
import { clearRefusedSession } from './session-cookies';

export class PreBodyAuthentication {
  private guard: AuthGuard | null = null;
  private readonly hook: onRequestHookHandler = (request, reply, done) => this.check(request, reply, done);

  constructor(private readonly session: AuthenticationSessionConfig) {}

  /** The guard whose authentication runs; routes serve only after it is bound (app.ts). */
  bind(guard: AuthGuard): void {
    this.guard = guard;
  }

  /** For Fastify's `onRoute` hook, with the route's policy. */
  onRoute(route: RouteOptions, policy: RoutePolicy | undefined): void {
    if (!policy?.authenticate) return;
    addOnRequest(route, this.hook);
  }

  private check(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    let authentication: Authentication;
    try {
      authentication = this.guard!.authenticate(request);
    } catch (e) {
      return e instanceof UnauthenticatedError ? this.refuse(request, reply) : done(e as Error);
    }
    keepEarlyAuthentication(request, authentication);
    if (!(authentication instanceof Promise)) return done();
    authentication.then(
      () => done(),
      // Anything but a refusal (a database outage) is the guard's to report, through the one filter.
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
