/**
 * Stream tickets (docs/api.md "Stream tickets"): the credential a browser's EventSource cannot send as a header,
 * carried in the event stream's URL instead. A ticket names one stored authentication, one namespace and an expiry,
 * signed with HMAC-SHA256: `<payload>.<signature>`, both base64url, the payload the JSON array `[id, namespace,
 * expiry in Unix seconds]`. Pure functions over a key, tested beside.
 *
 * The signature covers a label of its own before the payload, so no other HMAC Flagpole makes with a shared secret
 * could pass for a ticket. Tickets are synchronous to make and check (node:crypto): one is made per authenticated
 * bulk answer, on the evaluation hot path, where jose's promise-only signing would cost every answer a turn.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const LABEL = 'flagpole.ofrep-stream-ticket.v1\n';
/** The longest ticket read: an id (a UUID) and a namespace key (at most a few hundred characters) fit well within. */
export const MAX_TICKET_LENGTH = 2048;

export interface TicketClaims {
  /** The stored authentication's id. */
  authenticationId: string;
  namespace: string;
  /** Unix seconds; the ticket is refused from then on. */
  expiresAt: number;
}

export function signTicket(key: Buffer, claims: TicketClaims): string {
  const payload = Buffer.from(JSON.stringify([claims.authenticationId, claims.namespace, claims.expiresAt])).toString('base64url');
  return `${payload}.${signatureOf(key, payload).toString('base64url')}`;
}

/**
 * The ticket's claims when it is well formed, signed with `key` and not expired at `nowSec`; otherwise why not (for
 * the debug log only: the caller answers every refusal alike).
 */
export function readTicket(key: Buffer, ticket: string, nowSec: number): TicketClaims | { refused: string } {
  if (ticket.length > MAX_TICKET_LENGTH) return { refused: 'ticket too long' };
  const dot = ticket.indexOf('.');
  if (dot <= 0) return { refused: 'malformed ticket' };
  const payload = ticket.slice(0, dot);
  const given = Buffer.from(ticket.slice(dot + 1), 'base64url');
  const expected = signatureOf(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refused: 'ticket signature does not verify' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { refused: 'malformed ticket' };
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return { refused: 'malformed ticket' };
  const [authenticationId, namespace, expiresAt] = parsed as unknown[];
  if (typeof authenticationId !== 'string' || typeof namespace !== 'string' || typeof expiresAt !== 'number') return { refused: 'malformed ticket' };
  if (expiresAt <= nowSec) return { refused: 'ticket expired' };
  return { authenticationId, namespace, expiresAt };
}

/**
 * The expiry of a ticket issued at `nowSec`: the end of the period after the current one, so that every ticket for
 * one credential and namespace issued within a period is the same (the advertised URL, and the bulk answer's ETag,
 * stay stable) and each is valid for at least `periodSec` after it is issued, at most twice that. Never later than
 * the credential's own expiry.
 */
export function ticketExpiry(nowSec: number, periodSec: number, credentialExpiresAt: Date | null): number {
  const end = (Math.floor(nowSec / periodSec) + 2) * periodSec;
  if (credentialExpiresAt === null) return end;
  return Math.min(end, Math.floor(credentialExpiresAt.getTime() / 1000));
}

function signatureOf(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(LABEL).update(payload).digest();
}
