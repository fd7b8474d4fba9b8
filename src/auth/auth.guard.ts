/**
 * The one guard (registered as APP_GUARD). It composes the enabled methods' Passport strategies (auth-strategies.ts)
 * on a Passport instance of its own, one per application, and applies each route's policy (route-policy.ts, worked
 * out once per route at start-up). With `authentication.required` off it enforces nothing, as Flipt installs no
 * authentication at all then. Where a route requires an authentication:
 *   1. Passport tries the strategies in order: a stream ticket (only on the routes that read one), JWT (when
 *      enabled), then client tokens; the first that finds its credential decides, and one that refuses it ends the
 *      attempt;
 *   2. a namespaced static token must be used on a namespace-scoped route, in its namespace;
 *   3. with `authorization.required`, the credential's grant must allow what the route needs (its RouteAccess) in
 *      the request's namespace (authorization/authorizer.service.ts); the grant is left on the request for routes
 *      that cut their answer to it (the namespace list).
 * Every refusal of 1 and 2 is Flipt's 401 `request was not authenticated`; of 3, Flipt's 403 `permission denied`,
 * logged with who asked for what, and audited as `denied` on audited routes (Denials). The authentication is usually
 * worked out before the body is read (pre-body-authentication.ts, by `authenticate` below) and taken here; the
 * evaluation fast path calls `admit` itself.
 */
import { ExecutionContext, Inject, Injectable, Logger, type CanActivate } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Passport } from 'passport';
import { Authorizer } from '../authorization/authorizer.service';
import { credentialLabel } from '../authorization/credential-label';
import type { Grant, Permission } from '../authorization/grant';
import { GRANT, type AuthorizedRequest } from '../authorization/request-grant';
import { PermissionDeniedError, UnauthenticatedError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { Method } from './auth-method';
import { AUTH_STRATEGIES, type NamedStrategy } from './auth-strategies';
import { AUTHENTICATION, type AuthenticatedRequest } from './auth.decorators';
import type { AuthenticationRecord } from './authentication.record';
import { takeEarlyAuthentication, type Authentication } from './early-authentication';
import { TOKEN_NAMESPACE } from './methods/token/token.metadata';
import { Denials } from '../authorization/denials';
import { batchNamespaces, namesNamespace, requestNamespace } from './request-namespace';
import { policyOfRequest, type RoutePolicy } from './route-policy';
import { clearRefusedSession } from './session-cookies';
import { acceptsStreamTicket } from './stream-ticket.route';
import { STREAM_TICKET_STRATEGY } from './stream-ticket.strategy';

/**
 * The response Passport's middleware is called with: with a callback (as here) Passport hands the outcome to it and
 * never touches the response, so an empty object stands in for it (docs/authentication.md, Passport's public API).
 */
const NO_RESPONSE = {};

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Authentication');
  private readonly authzLogger = new Logger('Authorization');
  private readonly passport = new Passport();
  /** The strategies Passport tries on a route that reads stream tickets (OFREP's event stream), and on the others. */
  private readonly ticketRouteStrategies: string[];
  private readonly strategies: string[];
  private readonly tokensEnabled: boolean;

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    @Inject(AUTH_STRATEGIES) strategies: NamedStrategy[],
    private readonly authorizer: Authorizer,
    private readonly denials: Denials,
  ) {
    for (const s of strategies) this.passport.use(s.name, s.strategy);
    this.ticketRouteStrategies = strategies.map((s) => s.name);
    // Elsewhere a ticket is no credential: Passport need not try that strategy (an attempt per request saved).
    this.strategies = this.ticketRouteStrategies.filter((name) => name !== STREAM_TICKET_STRATEGY);
    this.tokensEnabled = config.authentication.methods.token.enabled;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const policy = policyOfRequest(request, this.config);
    if (!policy.authenticate) return policy.identify ? this.identify(request, policy) : true;
    try {
      const admitted = this.admit(request, http.getResponse<FastifyReply>(), policy);
      return admitted ? admitted.then(() => true, (e: unknown) => this.reportDenial(e, context)) : true;
    } catch (e) {
      return this.reportDenial(e, context);
    }
  }

  /**
   * A public route that answers more to a caller it knows: a valid credential goes on the request as on any route;
   * none, a refused one, or a lookup that fails (the database is down: `/health` must still answer) leaves it off.
   */
  private identify(request: FastifyRequest, policy: RoutePolicy): true | Promise<true> {
    const keep = (a: AuthenticationRecord): true => {
      try {
        this.checkNamespace(a, request, policy);
        (request as AuthenticatedRequest)[AUTHENTICATION] = a;
      } catch {
        // A namespaced token on a route of no namespace: not a caller this route knows.
      }
      return true;
    };
    let authentication: Authentication;
    try {
      authentication = this.authenticate(request);
    } catch {
      return true;
    }
    return authentication instanceof Promise ? authentication.then(keep, () => true) : keep(authentication);
  }

  private reportDenial(e: unknown, context: ExecutionContext): never {
    if (e instanceof PermissionDeniedError) this.denials.report(context);
    throw e;
  }

  /**
   * Lets the request through under `policy` (which requires an authentication), with its authentication on the
   * request (`@CurrentAuthentication()`), or throws UnauthenticatedError. Synchronous (undefined) when the
   * authentication was at hand, a promise when it had to be waited for.
   */
  admit(request: FastifyRequest, reply: FastifyReply, policy: RoutePolicy): void | Promise<void> {
    let authentication: Authentication;
    try {
      authentication = takeEarlyAuthentication(request) ?? this.authenticate(request);
    } catch (e) {
      return this.refused(e, request, reply);
    }
    if (!(authentication instanceof Promise)) return this.grant(authentication, request, reply, policy);
    return authentication.then(
      (a) => this.grant(a, request, reply, policy),
      (e: unknown) => this.refused(e, request, reply),
    );
  }

  /**
   * The request's authentication by the first strategy that finds its credential, or UnauthenticatedError when
   * none does. Synchronous when every strategy that ran answered from memory.
   */
  authenticate(request: FastifyRequest): Authentication {
    let outcome: { user: AuthenticationRecord } | { error: unknown } | undefined;
    let settle: ((o: NonNullable<typeof outcome>) => void) | undefined;
    const done = (error: unknown, user?: AuthenticationRecord | false | null) => {
      const o = error ? { error } : user ? { user } : { error: this.refusal('no credential of an enabled method') };
      if (settle) settle(o);
      else outcome = o;
    };
    const strategies = acceptsStreamTicket(request) ? this.ticketRouteStrategies : this.strategies;
    this.passport.authenticate(strategies, { session: false }, done)(request, NO_RESPONSE, done);
    if (outcome) {
      if ('error' in outcome) throw outcome.error;
      return outcome.user;
    }
    return new Promise((resolve, reject) => {
      settle = (o) => ('error' in o ? reject(o.error) : resolve(o.user));
    });
  }

  private grant(a: AuthenticationRecord, request: FastifyRequest, reply: FastifyReply, policy: RoutePolicy): void {
    try {
      this.checkNamespace(a, request, policy);
    } catch (e) {
      this.refused(e, request, reply);
    }
    (request as AuthenticatedRequest)[AUTHENTICATION] = a;
    if (this.authorizer.enabled) this.authorize(a, request, policy);
  }

  /** Step 3: throws PermissionDeniedError unless the credential's grant allows what the route needs, here. */
  private authorize(a: AuthenticationRecord, request: FastifyRequest, policy: RoutePolicy): void {
    const access = policy.access;
    if (access.kind === 'any') return;
    const grant = this.authorizer.grantOf(a);
    if (access.kind === 'viewable') {
      // Only the namespace list reads it: other requests keep their shape (an added property costs every access).
      (request as AuthorizedRequest)[GRANT] = grant;
      return;
    }
    if (access.kind === 'undeclared') throw this.denial(a, request, 'a route that declares no permission', null);
    let namespace: string | null = null;
    if (access.namespace === 'scope' || (access.namespace === 'ifNamed' && namesNamespace(request))) {
      namespace = policy.scope ? requestNamespace(request, policy.scope) : null;
      // A v2 batch whose items span namespaces names no single one: it is allowed where each of them is.
      if (namespace === null && policy.scope === 'requests') {
        const namespaces = batchNamespaces(request.body);
        if (namespaces.length > 0) {
          for (const ns of namespaces) this.check(a, request, grant, access.needs, ns);
          return;
        }
      }
    }
    this.check(a, request, grant, access.needs, namespace);
  }

  private check(a: AuthenticationRecord, request: FastifyRequest, grant: Grant, needs: readonly Permission[], namespace: string | null): void {
    for (const { action, resource } of needs) {
      if (!grant.allows(action, resource, namespace)) throw this.denial(a, request, `${action} on ${resource}`, namespace, grant.roles);
    }
  }

  private denial(a: AuthenticationRecord, request: FastifyRequest, what: string, namespace: string | null, roles: readonly string[] = []): PermissionDeniedError {
    const where = namespace === null ? '' : ` in namespace ${JSON.stringify(namespace)}`;
    // The path only: a query may carry a credential (a stream ticket).
    const path = request.url.split('?', 1)[0];
    this.authzLogger.warn(`denied: ${request.method} ${path}: ${credentialLabel(a, roles)} may not ${what}${where}`);
    return new PermissionDeniedError();
  }

  private refused(e: unknown, request: FastifyRequest, reply: FastifyReply): never {
    if (e instanceof UnauthenticatedError) clearRefusedSession(request, reply, this.config.authentication.session);
    throw e;
  }

  /** Flipt's NamespaceMatchingInterceptor: only static tokens carry a namespace, and only when that method is on. */
  private checkNamespace(a: AuthenticationRecord, request: FastifyRequest, policy: RoutePolicy): void {
    if (a.method !== Method.METHOD_TOKEN || !this.tokensEnabled) return;
    const bound = a.metadata[TOKEN_NAMESPACE];
    if (bound === undefined) return;
    if (!policy.scope) throw this.refusal('namespaced token used on a route that is not scoped to a namespace');
    if (bound.trim() === '') return;
    const namespace = requestNamespace(request, policy.scope);
    if (namespace !== bound.trim()) throw this.refusal(`namespaced token for ${JSON.stringify(bound.trim())} used in another namespace`);
  }

  private refusal(reason: string): UnauthenticatedError {
    this.logger.debug(`unauthenticated: ${reason}`);
    return new UnauthenticatedError();
  }
}
