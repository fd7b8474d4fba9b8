/**
 * The one guard (registered as APP_GUARD). With `authentication.required` off it enforces nothing, as Flipt installs
 * no authentication at all then. With it on, every route needs an authentication except `@Public()` routes and
 * routes whose `@Excludable(group)` is switched off by `authentication.exclude.<group>`:
 *   1. the methods that read a credential from every request (JWT) try first;
 *   2. otherwise the client token (Bearer, or the session cookie) is looked up; expired → refused;
 *   3. the authentication's own method may still refuse it (OIDC `email_matches`);
 *   4. a namespaced static token must be used on a `@NamespaceScoped` route, in its namespace.
 * Every refusal is Flipt's 401 `request was not authenticated`.
 */
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
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
import { credentialOf } from './credentials';
import { requestNamespace } from './request-namespace';
import { clearRefusedSession } from './session-cookies';
import { TOKEN_NAMESPACE } from './methods/token/token.metadata';

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Authentication');
  private readonly perRequest: AuthMethod[];
  private readonly byMethod: Map<Method, AuthMethod>;
  private readonly jwtEnabled: boolean;

  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    @Inject(AUTH_METHODS) methods: AuthMethod[],
    private readonly store: AuthenticationStore,
  ) {
    const enabled = methods.filter((m) => m.enabled);
    this.perRequest = enabled.filter((m) => m.authenticate);
    this.byMethod = new Map(enabled.map((m) => [m.method, m]));
    this.jwtEnabled = this.perRequest.some((m) => m.method === Method.METHOD_JWT);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || !this.config.authentication.required) return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const group = this.reflector.getAllAndOverride<ExcludableGroup | undefined>(EXCLUDABLE, targets);
    if (group && this.config.authentication.exclude[group]) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & AuthenticatedRequest>();
    try {
      const authentication = await this.authenticate(request);
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

  private async authenticate(request: FastifyRequest): Promise<AuthenticationRecord> {
    for (const method of this.perRequest) {
      const authentication = await method.authenticate!(request);
      if (authentication) return authentication;
    }
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
