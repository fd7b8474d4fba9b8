/**
 * From the start of shutdown every response says `Connection: close`. The HTTP server stops accepting connections
 * when it closes, but a kept-alive connection whose request was in flight would otherwise stay open after its
 * response (Node closes idle connections only once, when close begins) and hold the shutdown until its keep-alive
 * timeout ran out.
 */
import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HealthService } from './health.service';

/** The request pipeline's respond stage calls `beforeSend` for every response (request-pipeline.ts). */
@Injectable()
export class ConnectionDrain {
  constructor(private readonly health: HealthService) {}

  beforeSend(reply: FastifyReply): void {
    if (this.health.isStopping()) reply.header('connection', 'close');
  }
}
