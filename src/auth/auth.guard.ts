/**
 * The one guard (registered as APP_GUARD), composing the methods' Passport strategies. With
 * `authentication.required` off it enforces nothing, as Flipt installs no authentication at all then. With it on,
 * every route needs an authentication except `@Public()` routes and routes whose `@Excludable(group)` is switched
 * off by `authentication.exclude.<group>`:
 *   1. the strategies of methods that read a credential from every request (JWT) try first;
 *   2. then the client-token strategy looks the Bearer token or session cookie up; expired → refused;
 *   3. the authentication's own method may still refuse it (OIDC `email_matches`);
 *   4. a namespaced static token must be used on a `@NamespaceScoped` route, in its namespace.
 * Every refusal is Flipt's 401 `request was not authenticated`.
 */
import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { AUTH_METHODS, AuthMethod, Method } from './auth-method';
import {
  AUTHENTICATION, AuthenticatedRequest, EXCLUDABLE, ExcludableGroup, NAMESPACE_SCOPE, NamespaceSource, PUBLIC,
} from './auth.decorators';
import { AuthenticationStore } from './authentication.store';
import { isExpired, type AuthenticationRecord } from './authentication.record';
import { credentialOf, type Credential, type CredentialRequest } from './credentials';
import { METHODS } from './methods';
import {
  attachAuthenticator, CLIENT_TOKEN_STRATEGY, RequestAuthenticator, takeEarlyAuthentication,
} from './request-authenticator';
import { requestNamespace } from './request-namespace';
import { clearRefusedSession } from './session-cookies';
import { TOKEN_NAMESPACE } from './methods/token/token.metadata';

/** Passport strategies in the order they are tried: per-request methods first, then client tokens. */
const STRATEGIES = [...METHODS.flatMap((m) => (m.strategy ? [m.name] : [])), CLIENT_TOKEN_STRATEGY];

@Injectable()
export class AuthGuard extends PassportGuard(STRATEGIES) implements RequestAuthenticator {
  private readonly logger = new Logger('Authentication');
  private readonly byName: Map<string, AuthMethod>;
  private readonly byMethod: Map<Method, AuthMethod>;
  private readonly jwtEnabled: boolean;

  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    @Inject(AUTH_METHODS) methods: AuthMethod[],
    private readonly store: AuthenticationStore,
  ) {
    super();
    const enabled = methods.filter((m) => m.enabled);
    this.byName = new Map(enabled.map((m) => [m.name, m]));
    this.byMethod = new Map(enabled.map((m) => [m.method, m]));
    this.jwtEnabled = this.byMethod.has(Method.METHOD_JWT);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || !this.enforcedOn(context.getHandler(), context.getClass())) return true;
    const targets = [context.getHandler(), context.getClass()];
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & AuthenticatedRequest>();
    try {
      attachAuthenticator(request, this);
      await super.canActivate(context);
      const authentication = (request as { user?: AuthenticationRecord }).user!;
      this.checkNamespace(authentication, request, this.reflector.getAllAndOverride(NAMESPACE_SCOPE, targets));
      request[AUTHENTICATION] = authentication;
      return true;
    } catch (e) {
      if (e instanceof UnauthenticatedError) {
        clearRefusedSession(request, http.getResponse<FastifyReply>(), this.config.authentication.session);
      }
      throw e;
    }
  }

  /**
   * Whether a route needs an authentication: `authentication.required` is on, the route is not `@Public()`, and its
   * `@Excludable` group is not excluded. It depends on configuration and route metadata only, so a caller may ask
   * once per route (the evaluation fast path does).
   */
  enforcedOn(handler: Function, controller: Function): boolean {
    if (!this.config.authentication.required) return false;
    const targets = [handler, controller];
    const open = this.reflector.getAllAndOverride<boolean | ((config: FlagpoleConfig) => boolean) | undefined>(PUBLIC, targets);
    if (open === true || (typeof open === 'function' && !open(this.config))) return false;
    const group = this.reflector.getAllAndOverride<ExcludableGroup | undefined>(EXCLUDABLE, targets);
    return !(group && this.config.authentication.exclude[group]);
  }

  /** Passport's verdict: a strategy's error (a JWT that does not verify, an unknown token) or no strategy matched. */
  override handleRequest<T>(error: unknown, user: T | false): T {
    if (error) throw error;
    if (!user) this.refuse('no strategy authenticated the request');
    return user;
  }

  enabledMethod(name: AuthMethod['name']): AuthMethod | undefined {
    return this.byName.get(name);
  }

  authenticateClientToken(request: CredentialRequest): Promise<AuthenticationRecord> {
    return takeEarlyAuthentication(request) ?? this.lookUpClientToken(request);
  }

  /** The request's credential as the strategies will read it (pre-body-authentication.ts asks before the body). */
  requestCredential(request: CredentialRequest): Credential | null {
    return credentialOf(request, this.jwtEnabled);
  }

  private async lookUpClientToken(request: CredentialRequest): Promise<AuthenticationRecord> {
    const credential = credentialOf(request, this.jwtEnabled);
    if (credential?.kind !== 'client-token') return this.refuse('no authorization provided');
    const authentication = await this.store.getByClientToken(credential.value);
    if (!authentication) return this.refuse('unknown client token');
    if (isExpired(authentication)) return this.refuse(`authentication ${authentication.id} expired`);
    if (this.byMethod.get(authentication.method)?.admits?.(authentication) === false) {
      return this.refuse(`authentication ${authentication.id} no longer admitted by its method`);
    }
    return authentication;
  }

  /** Flipt's NamespaceMatchingInterceptor: only static tokens carry a namespace, and only when that method is on. */
  private checkNamespace(a: AuthenticationRecord, request: FastifyRequest, scope: NamespaceSource | null | undefined): void {
    if (a.method !== Method.METHOD_TOKEN || !this.byMethod.has(Method.METHOD_TOKEN)) return;
    const bound = a.metadata[TOKEN_NAMESPACE];
    if (bound === undefined) return;
    if (!scope) this.refuse('namespaced token used on a route that is not scoped to a namespace');
    if (bound.trim() === '') return;
    const namespace = requestNamespace(request, scope!);
    if (namespace !== bound.trim()) this.refuse(`namespaced token for ${JSON.stringify(bound.trim())} used in another namespace`);
  }

  private refuse(reason: string): never {
    this.logger.debug(`unauthenticated: ${reason}`);
    throw new UnauthenticatedError();
  }
}
