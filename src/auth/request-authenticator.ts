/**
 * The bridge between Passport and the application serving a request. Passport keeps its strategies in one
 * process-wide registry, while one process may hold several Flagpole applications (the test suites start many), so
 * the strategies hold no state: each asks the RequestAuthenticator that the one guard puts on the request before
 * Passport runs — that application's stores and methods.
 */
import type { AuthMethod } from './auth-method';
import type { AuthenticationRecord } from './authentication.record';
import type { CredentialRequest } from './credentials';

const AUTHENTICATOR = Symbol('flagpole.authenticator');

/** The Passport strategy that looks up client tokens (static, OIDC, GitHub and Kubernetes sessions alike). */
export const CLIENT_TOKEN_STRATEGY = 'client-token';

export interface RequestAuthenticator {
  /** The stored authentication of the request's client token; throws UnauthenticatedError when there is none. */
  authenticateClientToken(request: CredentialRequest): Promise<AuthenticationRecord>;
  /** The enabled method of that name, for strategies of methods that read a credential on every request (JWT). */
  enabledMethod(name: AuthMethod['name']): AuthMethod | undefined;
}

type Carrier = CredentialRequest & { [AUTHENTICATOR]?: RequestAuthenticator };

export function attachAuthenticator(request: CredentialRequest, authenticator: RequestAuthenticator): void {
  (request as Carrier)[AUTHENTICATOR] = authenticator;
}

export function authenticatorOf(request: CredentialRequest): RequestAuthenticator {
  const authenticator = (request as Carrier)[AUTHENTICATOR];
  if (!authenticator) throw new Error('a Flagpole strategy ran outside the authentication guard');
  return authenticator;
}
