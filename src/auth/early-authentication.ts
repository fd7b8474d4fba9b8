/**
 * A request is authenticated once, as soon as its headers are in (pre-body-authentication.ts); the one guard takes
 * that result when the route's handler is about to run, so that it is not worked out twice.
 */
import { FRESH_MS } from './authentication.store';
import type { AuthenticationRecord } from './authentication.record';

const EARLY = Symbol('flagpole.early-authentication');

/** An authentication, or the promise of one when it had to be looked up. */
export type Authentication = AuthenticationRecord | Promise<AuthenticationRecord>;

type Carrier = { [EARLY]?: { authentication: Authentication; at: number } };

export function keepEarlyAuthentication(request: object, authentication: Authentication): void {
  (request as Carrier)[EARLY] = { authentication, at: Date.now() };
}

/**
 * The early authentication of the request, once; undefined when there was none, or when it is older than a
 * remembered verification may be (FRESH_MS): a body trickled in for longer must not carry a credential revoked
 * meanwhile.
 */
export function takeEarlyAuthentication(request: object): Authentication | undefined {
  const carrier = request as Carrier;
  const early = carrier[EARLY];
  if (!early) return undefined;
  carrier[EARLY] = undefined;
  return Date.now() - early.at < FRESH_MS ? early.authentication : undefined;
}
