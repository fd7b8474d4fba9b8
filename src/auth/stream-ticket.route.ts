/**
 * Which routes read a stream ticket: only those that declare `@AcceptsStreamTicket()` (OFREP's event stream). On any
 * other route the `ticket` query parameter is no credential at all, so a ticket cannot stand in for a token there.
 */
import type { FastifyRequest } from 'fastify';
import { addRouteConfig, type RouteConfig } from '../common/route-config';

/** The query parameter of the advertised stream URL that carries the ticket. */
export const STREAM_TICKET_PARAM = 'ticket';

const ACCEPTS = 'flagpole:stream-ticket';

export const AcceptsStreamTicket = (): MethodDecorator => (_target, _key, descriptor) => {
  addRouteConfig(descriptor.value as Function, { [ACCEPTS]: true });
};

export function acceptsStreamTicket(request: FastifyRequest): boolean {
  return (request.routeOptions?.config as unknown as RouteConfig | undefined)?.[ACCEPTS] === true;
}
