/**
 * What a browser login's HTTP endpoints send, as Flipt's gateway does: authorize sets the state cookie and answers
 * the provider URL as JSON; the callback sets the session cookie, answers 302 to `<X-Forwarded-Prefix>/` and keeps
 * the authentication in the body with the client token blanked.
 */
import type { AuthenticationSessionConfig } from '../config/config.types';
import type { AuthenticationJson } from './authentication.record';
import type { AuthorizeResponse, CallbackResponse } from './login.dto';
import { stateCookie, tokenCookie, type HeaderSink } from './session-cookies';

export interface Reply extends HeaderSink {
  status(code: number): unknown;
}

export function authorizeReply(
  reply: Reply, session: AuthenticationSessionConfig, callbackPath: string, state: string, authorizeUrl: string,
): AuthorizeResponse {
  reply.header('set-cookie', stateCookie(state, callbackPath, session));
  return { authorizeUrl };
}

export function callbackReply(
  reply: Reply, session: AuthenticationSessionConfig, prefix: string, clientToken: string, authentication: AuthenticationJson,
): CallbackResponse {
  reply.header('set-cookie', tokenCookie(clientToken, session));
  reply.header('location', `${prefix}/`);
  reply.status(302);
  return { clientToken: '', authentication };
}
