/**
 * The browser-session cookies, with Flipt's attributes (facts §7.8):
 * - `flagpole_client_token`: Path=/, HttpOnly, SameSite=Strict, Secure per `session.secure`, Expires after
 *   `session.token_lifetime`, Domain=`session.domain`;
 * - `flagpole_client_state` (login in progress): Path=the method's callback, HttpOnly, SameSite=Lax, Expires after
 *   `session.state_lifetime`.
 * The Domain attribute is left out for `localhost`, which browsers refuse as a cookie domain.
 */
import { serialize, type SerializeOptions } from 'cookie';
import type { AuthenticationSessionConfig } from '../config/config.types';
import { cookieOf, STATE_COOKIE, TOKEN_COOKIE, type CredentialRequest } from './credentials';

/** Anything that can set response headers (a Fastify reply). */
export interface HeaderSink {
  header(name: string, value: string | string[]): unknown;
}

/** Values are base64url text, valid cookie octets as they are; Go writes them unencoded too. */
const AS_IS = { encode: (value: string) => value };

function domainOf(session: AuthenticationSessionConfig): Pick<SerializeOptions, 'domain'> {
  return session.domain && session.domain !== 'localhost' ? { domain: session.domain } : {};
}

export function tokenCookie(token: string, session: AuthenticationSessionConfig, at = Date.now()): string {
  return serialize(TOKEN_COOKIE, token, {
    ...AS_IS,
    ...domainOf(session),
    path: '/',
    expires: new Date(at + session.tokenLifetime),
    secure: session.secure,
    httpOnly: true,
    sameSite: 'strict',
  });
}

export function stateCookie(state: string, callbackPath: string, session: AuthenticationSessionConfig, at = Date.now()): string {
  return serialize(STATE_COOKIE, state, {
    ...AS_IS,
    ...domainOf(session),
    path: callbackPath,
    expires: new Date(at + session.stateLifetime),
    secure: session.secure,
    httpOnly: true,
    sameSite: 'lax',
  });
}

/** Both cookies emptied and expired (Go's MaxAge -1 is written `Max-Age=0`). */
export function clearedCookies(session: AuthenticationSessionConfig): string[] {
  return [STATE_COOKIE, TOKEN_COOKIE].map((name) => serialize(name, '', { ...domainOf(session), path: '/', maxAge: 0 }));
}

export function clearSession(reply: HeaderSink, session: AuthenticationSessionConfig): void {
  reply.header('set-cookie', clearedCookies(session));
}

/** Flipt clears the session when a request under /auth/v1 that carried the token cookie is refused. */
export function clearRefusedSession(
  request: CredentialRequest & { url: string },
  reply: HeaderSink,
  session: AuthenticationSessionConfig,
): void {
  if (request.url.startsWith('/auth/v1') && cookieOf(request, TOKEN_COOKIE) !== undefined) clearSession(reply, session);
}
