/**
 * With `server.write_worker`, the routes role.ts names get a preValidation hook that hands the request (its body
 * parsed and checked here, its credentials checked before the body was read) to the write worker and answers with
 * its answer; Nest's handler does not run on the main thread for them. The worker is bound once the application
 * (and with it the WriteWorker provider) exists.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { runsInWriteWorker } from './role';
import type { WriteWorker } from './write-worker.service';

export class WriteRoutes {
  private worker: WriteWorker | null = null;

  /** For Fastify's `onRoute` hook. */
  onRoute(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => runsInWriteWorker(method, route.url))) return;
    const forward = (request: FastifyRequest, reply: FastifyReply) => this.worker!.forward(request, reply);
    route.preValidation = [...(route.preValidation ? [route.preValidation].flat() : []), forward];
  }

  bind(worker: WriteWorker): void {
    this.worker = worker;
  }
}
