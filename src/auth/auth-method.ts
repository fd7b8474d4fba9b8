/**
 * What every authentication method is to the rest of Flagpole. A method lives in `methods/<name>/` and is registered
 * by one line in `methods/index.ts`; `GET /auth/v1/method`, the client-token strategy and the cleanup task only ever
 * see this interface. How a request is authenticated is a Passport strategy's business (method-module.ts).
 */
import type { AuthenticationCleanupConfig } from '../config/config.types';
import type { AuthenticationRecord } from './authentication.record';

/** Flipt's `flipt.auth.Method`; the member names are the names on the wire. */
export enum Method {
  METHOD_NONE = 0,
  METHOD_TOKEN = 1,
  METHOD_OIDC = 2,
  METHOD_KUBERNETES = 3,
  METHOD_GITHUB = 4,
  METHOD_JWT = 5,
  /** Deprecated in Flipt and never issued; kept so that the number keeps its meaning. */
  METHOD_CLOUD = 6,
}

export type MethodName = 'token' | 'github' | 'oidc' | 'kubernetes' | 'jwt';

/** `Method` from its wire name or number (query strings carry either); undefined when it is neither. */
export function methodOf(value: unknown): Method | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value in Method ? (value as Method) : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\d+$/.test(value)) return methodOf(Number(value));
  const byName = (Method as unknown as Record<string, number>)[value];
  return typeof byName === 'number' ? byName : undefined;
}

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
