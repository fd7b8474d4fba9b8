/**
 * Passport strategy for client tokens — `Authorization: Bearer <token>` or the session cookie — whichever method
 * issued them (static tokens, OIDC, GitHub, Kubernetes). It authenticates on its own: the token is looked up in the
 * store (remembered verifications answer without a query, authentication.store.ts), then refused when expired or no
 * longer admitted by the method that issued it (OIDC's `email_matches`). A request without a client token is not
 * this strategy's (Passport tries the next); a client token that does not authenticate is refused outright.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnauthenticatedError } from '../common/errors';
import { AUTH_METHODS, type AuthMethod, Method } from './auth-method';
import { RequestStrategy, type Validation } from './auth-strategies';
import { isExpired, type AuthenticationRecord } from './authentication.record';
import { AuthenticationStore } from './authentication.store';
import { credentialOf, type CredentialRequest } from './credentials';
import { andThen } from '../common/maybe-async';

export const CLIENT_TOKEN_STRATEGY = 'client-token';

@Injectable()
export class ClientTokenStrategy extends RequestStrategy(CLIENT_TOKEN_STRATEGY) {
  private readonly logger = new Logger('Authentication');
  private readonly byMethod: Map<Method, AuthMethod>;
  private readonly jwtEnabled: boolean;

  constructor(
    private readonly store: AuthenticationStore,
    @Inject(AUTH_METHODS) methods: AuthMethod[],
  ) {
    super();
    this.byMethod = new Map(methods.filter((m) => m.enabled).map((m) => [m.method, m]));
    // With the JWT method on, `Authorization: JWT …` is its credential, not a missing client token.
    this.jwtEnabled = this.byMethod.has(Method.METHOD_JWT);
  }

  validate(request: CredentialRequest): Validation {
    const credential = credentialOf(request, this.jwtEnabled);
    if (credential?.kind !== 'client-token') return null;
    const found = this.store.getByClientToken(credential.value);
    return andThen(found, (a) => this.admit(a));
  }

  /** The authentication, unless expired or no longer admitted by its method (also for stream tickets' records). */
  admit(authentication: AuthenticationRecord | null): AuthenticationRecord {
    if (!authentication) return this.refuse('unknown client token');
    if (isExpired(authentication)) return this.refuse(`authentication ${authentication.id} expired`);
    if (this.byMethod.get(authentication.method)?.admits?.(authentication) === false) {
      return this.refuse(`authentication ${authentication.id} no longer admitted by its method`);
    }
    return authentication;
  }

  private refuse(reason: string): never {
    this.logger.debug(`unauthenticated: ${reason}`);
    throw new UnauthenticatedError();
  }
}
