/**
 * Where a request's credential is, as Flipt reads it: `Authorization: JWT <jwt>` for the JWT method (when enabled),
 * `Authorization: Bearer <client token>`, or — only when there is no Authorization header at all — the session
 * cookie. Any other Authorization scheme carries no credential.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';

export const TOKEN_COOKIE = 'flagpole_client_token';
export const STATE_COOKIE = 'flagpole_client_state';

/** The part of a request the credential is read from (a Fastify or Node request both fit). */
export interface CredentialRequest {
  headers: IncomingHttpHeaders;
}

export type Credential =
  | { kind: 'jwt'; value: string }
  | { kind: 'client-token'; value: string; fromCookie: boolean };

export function credentialOf(request: CredentialRequest, jwtEnabled: boolean): Credential | null {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    if (jwtEnabled && authorization.startsWith('JWT ')) return { kind: 'jwt', value: authorization.slice(4) };
    if (authorization.startsWith('Bearer ')) return { kind: 'client-token', value: authorization.slice(7), fromCookie: false };
    return null;
  }
  const token = cookieOf(request, TOKEN_COOKIE);
  return token === undefined ? null : { kind: 'client-token', value: token, fromCookie: true };
}

export function cookieOf(request: CredentialRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return parseCookies(header)[name];
}
