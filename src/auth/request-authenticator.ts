/**
 * The bridge between Passport and the application serving a request. Passport keeps its strategies in one
 * process-wide registry, while one process may hold several Flagpole applications (the test suites start many), so
 * the strategies hold no state: each asks the RequestAuthenticator that the one guard puts on the request before
 * Passport runs — that application's stores and methods.
 */
import type { AuthMethod } from './auth-method';
import type { AuthenticationRecord } from './authentication.record';
import { FRESH_MS } from './authentication.store';
import type { CredentialRequest } from './credentials';

const AUTHENTICATOR = Symbol('flagpole.authenticator');
const EARLY = Symbol('flagpole.early-authentication');

/** The Passport strategy that looks up client tokens (static, OIDC, GitHub and Kubernetes sessions alike). */
export const CLIENT_TOKEN_STRATEGY = 'client-token';

export interface RequestAuthenticator {
  /** The stored authentication of the request's client token; throws UnauthenticatedError when there is none. */
  authenticateClientToken(request: CredentialRequest): Promise<AuthenticationRecord>;
  /** The enabled method of that name, for strategies of methods that read a credential on every request (JWT). */
  enabledMethod(name: AuthMethod['name']): AuthMethod | undefined;
}

type Carrier = CredentialRequest & {
  [AUTHENTICATOR]?: RequestAuthenticator;
  [EARLY]?: { pending: Promise<AuthenticationRecord>; at: number };
};

export function attachAuthenticator(request: CredentialRequest, authenticator: RequestAuthenticator): void {
  (request as Carrier)[AUTHENTICATOR] = authenticator;
}

export function authenticatorOf(request: CredentialRequest): RequestAuthenticator {
  const authenticator = (request as Carrier)[AUTHENTICATOR];
  if (!authenticator) throw new Error('a Flagpole strategy ran outside the authentication guard');
  return authenticator;
}

/**
 * The client-token lookup started before the body was read (pre-body-authentication.ts), kept for the guard, so that a
 * request is looked up once however many times it is checked.
 */
export function keepEarlyAuthentication(request: CredentialRequest, pending: Promise<AuthenticationRecord>): void {
  (request as Carrier)[EARLY] = { pending, at: Date.now() };
}

/**
 * The early lookup of the request, once; undefined when there was none, or when it is older than a remembered
 * verification may be (FRESH_MS): a body trickled in for longer must not carry a credential revoked meanwhile.
 */
export function takeEarlyAuthentication(request: CredentialRequest): Promise<AuthenticationRecord> | undefined {
  const carrier = request as Carrier;
  const early = carrier[EARLY];
  if (!early) return undefined;
  carrier[EARLY] = undefined;
  return Date.now() - early.at < FRESH_MS ? early.pending : undefined;
}
