/**
 * The state of a browser login (OIDC, GitHub), as Flipt keeps it: the `state` the client passed is wrapped with a
 * fresh random security token, sent to the provider and set as the `flagpole_client_state` cookie; the callback's
 * `state` must equal that cookie. Unlike Flipt, an empty or absent callback `state` is refused too: skipping the
 * check let anyone send a victim's browser to the callback with a code for the attacker's account (login CSRF).
 */
import { randomBytes } from 'node:crypto';
import { UnauthenticatedError } from '../common/errors';

export function newLoginState(originalState: string): string {
  const payload = { security_token: randomBytes(64).toString('base64url'), original_state: originalState };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** `what` names the flow in the refusal: `handling OIDC callback: missing state parameter`. */
export function checkLoginState(state: string | undefined, cookie: string | undefined, what: string): string {
  if (!state || !cookie) throw new UnauthenticatedError(`handling ${what} callback: missing state parameter`);
  if (cookie !== state) throw new UnauthenticatedError(`handling ${what} callback: unexpected state parameter`);
  return state;
}
