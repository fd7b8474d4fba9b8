/**
 * Passport strategy for stream tickets (docs/api.md "Stream tickets"), tried first, and only on routes that accept
 * them (stream-ticket.route.ts): a request there with a `ticket` query parameter is authenticated by the ticket
 * alone, whatever headers or cookies it also carries. The ticket must verify, be unexpired and name the namespace of
 * the route's path; its authentication is then read from the database (not from memory: a token deleted a moment ago
 * must not open a stream) and admitted as a client token would be (not expired, still admitted by its method). The
 * guard goes on as for any credential: namespaced tokens and authorization are checked against the record.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { NotFoundError, UnauthenticatedError } from '../common/errors';
import { RequestStrategy, type Validation } from './auth-strategies';
import { AuthenticationStore } from './authentication.store';
import { ClientTokenStrategy } from './client-token.strategy';
import type { CredentialRequest } from './credentials';
import { acceptsStreamTicket, STREAM_TICKET_PARAM } from './stream-ticket.route';
import { StreamTickets } from './stream-tickets.service';

export const STREAM_TICKET_STRATEGY = 'stream-ticket';

@Injectable()
export class StreamTicketStrategy extends RequestStrategy(STREAM_TICKET_STRATEGY) {
  private readonly logger = new Logger('Authentication');

  constructor(
    private readonly tickets: StreamTickets,
    private readonly store: AuthenticationStore,
    private readonly clientTokens: ClientTokenStrategy,
  ) {
    super();
  }

  validate(credentialRequest: CredentialRequest): Validation {
    // Passport hands the strategy the request the guard authenticates: Fastify's, with its route and query.
    const request = credentialRequest as FastifyRequest;
    if (!acceptsStreamTicket(request)) return null;
    const ticket = (request.query as Record<string, unknown> | undefined)?.[STREAM_TICKET_PARAM];
    if (ticket === undefined) return null;
    if (typeof ticket !== 'string') return this.refuse('ticket given more than once');
    const claims = this.tickets.read(ticket);
    if ('refused' in claims) return this.refuse(claims.refused);
    const namespace = (request.params as Record<string, unknown> | undefined)?.namespaceKey;
    if (claims.namespace !== namespace) return this.refuse('ticket for another namespace');
    return this.store.get(claims.authenticationId).then(
      (authentication) => this.clientTokens.admit(authentication),
      (e: unknown) => (e instanceof NotFoundError ? this.refuse(`authentication ${claims.authenticationId} of a ticket no longer exists`) : Promise.reject(e)),
    );
  }

  private refuse(reason: string): never {
    this.logger.debug(`unauthenticated: stream ticket refused: ${reason}`);
    throw new UnauthenticatedError();
  }
}
