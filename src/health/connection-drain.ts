/**
 * From the start of shutdown every response says `Connection: close`. The HTTP server stops accepting connections
 * when it closes, but a kept-alive connection whose request was in flight would otherwise stay open after its
 * response (Node closes idle connections only once, when close begins) and hold the shutdown until its keep-alive
 * timeout ran out.
 */
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HealthService } from './health.service';

@Injectable()
export class ConnectionDrain implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly health: HealthService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (_req, reply, payload, done) => {
      if (this.health.isStopping()) reply.header('connection', 'close');
      done(null, payload);
    });
  }
}
