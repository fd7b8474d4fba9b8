/**
 * What every authentication method is to the rest of Flagpole. A method lives in `methods/<name>/` and is registered
 * by one line in `methods/index.ts`; `GET /auth/v1/method`, the client-token strategy and the cleanup task only ever
 * see this interface. How a request is authenticated is a Passport strategy's business (method-module.ts).
 */
import type { AuthenticationCleanupConfig } from '../config/config.types';
import { Method } from '../wire';
import type { AuthenticationRecord } from './authentication.record';

// Flipt's enum lives in src/wire/; re-exported beside the interface that names it, where the auth code imports it.
export { Method } from '../wire';

export type MethodName = 'token' | 'github' | 'oidc' | 'kubernetes' | 'jwt';

export interface AuthMethod {
  /** The config section (`authentication.methods.<name>`) and path segment (`/auth/v1/method/<name>`). */
  readonly name: MethodName;
  readonly method: Method;
  readonly enabled: boolean;
  /** Browser sessions (cookie) come from this method: OIDC and GitHub. */
  readonly sessionCompatible: boolean;
  /**
   * Set for methods that store authentications: their expired rows are deleted on this schedule by the cleanup
   * task. JWT authentications live only for one request and have none.
   */
  readonly cleanup?: AuthenticationCleanupConfig;
  /**
   * Refuses an authentication of this method that has stopped being acceptable since it was stored (OIDC's
   * `email_matches`): true = acceptable.
   */
  admits?(authentication: AuthenticationRecord): boolean;
  /** `MethodInfo.metadata` (the login URLs); `prefix` is the `X-Forwarded-Prefix` the request came through. */
  info?(prefix: string): Record<string, unknown>;
}

/** Injection token of every method, in Flipt's `GET /auth/v1/method` order. */
export const AUTH_METHODS = Symbol('AUTH_METHODS');
