/**
 * Issues and reads stream tickets (stream-ticket.ts) with this process's key: `streams.ticket_secret` when set, so
 * that every instance behind one load balancer accepts the others' tickets, else a random key made at start (a
 * ticket is then accepted only where it was issued; see docs/security.md "Stream tickets" for why no key is kept in
 * the database). Only stored authentications get tickets: a JWT is verified per request and has no id to look up
 * again when the ticket is used.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { isExpired, type AuthenticationRecord } from './authentication.record';
import { readTicket, signTicket, ticketExpiry, type TicketClaims } from './stream-ticket';

/** Tickets remembered (per authentication and namespace) so that the bulk answers of one period sign once. */
const MAX_REMEMBERED = 10_000;

@Injectable()
export class StreamTickets {
  private readonly key: Buffer;
  private readonly periodSec: number;
  private readonly recent = new Map<string, { expiresAt: number; ticket: string }>();

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    const { ticketSecret, ticketTtl } = config.streams;
    // Derived, not used as given: the same secret keyed anything else in the future still signs nothing alike.
    this.key = ticketSecret === '' ? randomBytes(32) : Buffer.from(hkdfSync('sha256', ticketSecret, '', 'flagpole stream tickets', 32));
    this.periodSec = Math.max(1, Math.round(ticketTtl / 1000));
  }

  /** A ticket for the namespace's stream under this authentication, or undefined when it cannot have one. */
  issue(authentication: AuthenticationRecord | undefined, namespace: string): string | undefined {
    if (!authentication?.id || isExpired(authentication)) return undefined;
    const nowSec = Math.floor(Date.now() / 1000);
    const expiresAt = ticketExpiry(nowSec, this.periodSec, authentication.expiresAt);
    if (expiresAt <= nowSec) return undefined;
    const memo = `${authentication.id}\n${namespace}`;
    const remembered = this.recent.get(memo);
    if (remembered?.expiresAt === expiresAt) return remembered.ticket;
    const ticket = signTicket(this.key, { authenticationId: authentication.id, namespace, expiresAt });
    this.recent.delete(memo);
    if (this.recent.size >= MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(memo, { expiresAt, ticket });
    return ticket;
  }

  read(ticket: string): TicketClaims | { refused: string } {
    return readTicket(this.key, ticket, Math.floor(Date.now() / 1000));
  }
}
