/**
 * Whose allowance a stream counts against (`limits.max_event_streams_per_credential`, docs/api.md "Event streams"):
 * the authentication that opened it (a static token, a session: its id), a JWT's issuer and subject (a JWT is
 * verified per request and stored nowhere, so it has no id), or, without either, the address the connection comes
 * from. Flagpole trusts no forwarding header, so behind a proxy every stream without a credential shares the proxy's
 * address and its allowance.
 */
import type { AuthenticationRecord } from '../auth/authentication.record';

export function streamCaller(authentication: AuthenticationRecord | undefined, address: string): string {
  if (authentication?.id) return `authentication ${authentication.id}`;
  const sub = authentication?.claims?.sub;
  if (typeof sub === 'string' && sub !== '') return `jwt ${JSON.stringify([String(authentication?.claims?.iss ?? ''), sub])}`;
  return `address ${address}`;
}
