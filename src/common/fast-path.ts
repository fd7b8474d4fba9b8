/**
 * Flagpole's hot routes skip Nest's router pipeline. Its layers around a handler (execution context, pipe and
 * interceptor chains, several promise layers) cost about a quarter of the evaluation routes' throughput (measured:
 * 11.0k vs 14.7k req/s on 2 cores) and nearly half of OFREP's (97 vs 54 µs of CPU per request). A controller method
 * marked `@FastPath(make)` keeps its Nest declaration (Swagger documents it, the route policy and error format are
 * read from it), but as Fastify registers the route its handler is swapped for `make(controller)`, a plain Fastify
 * handler made from the controller instance, which keeps what the pipeline did for such routes:
 *   - where the route's policy (auth/route-policy.ts, settled once as the route is registered) requires an
 *     authentication, the one guard admits the request (AuthGuard.admit) before the handler runs;
 *   - the status is 200 unless the handler sets another, and the body is what it returns (a value returned
 *     synchronously is sent without a promise on the way; undefined sends no body); a `response` schema makes
 *     Fastify serialise it with a compiled serialiser;
 *   - errors reach the one filter (Fastify's error handler is Nest's; a synchronous throw reaches it too), in the
 *     route's declared format (`@ErrorFormat`).
 * The Nest handler of such a method calls the same code, so both answer alike; it answers until the application is
 * bound (never, in practice: routes serve only after start).
 */
import type { Type } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { addRouteConfig, type RouteConfig } from './route-config';

export type FastHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** What the fast path reads of a route's policy (auth/route-policy.ts, RoutePolicy). */
interface Policy {
  readonly authenticate: boolean;
}

/** What the fast path needs of the one guard (auth/auth.guard.ts, AuthGuard.admit): admitting a request to a route. */
export interface Admission<P extends Policy> {
  admit(request: FastifyRequest, reply: FastifyReply, policy: P): void | Promise<void>;
}

interface Declaration {
  controller: Type<unknown>;
  make: (controller: never) => FastHandler;
  response?: object;
}

const FAST_PATH = Symbol('flagpole:fast-path');

/**
 * Marks a controller method whose route skips Nest's pipeline: `make` turns the controller instance into the
 * route's handler; `response` is the 200 answer's JSON schema, for a compiled serialiser.
 */
export function FastPath<C>(make: (controller: C) => FastHandler, response?: object): MethodDecorator {
  return (target, _key, descriptor) => {
    const declaration: Declaration = { controller: target.constructor as Type<unknown>, make: make as Declaration['make'], response };
    addRouteConfig(descriptor.value as Function, { [FAST_PATH]: declaration });
  };
}

interface Taken {
  declaration: Declaration;
  handler: FastHandler | null;
}

/** What a handler returned, for Fastify: undefined (or a promise of it) is an answer without body (a 304). */
function answer(reply: FastifyReply, value: unknown): unknown {
  if (value instanceof Promise) return value.then((v: unknown) => answer(reply, v));
  if (value !== undefined) return value;
  void reply.send();
  return reply;
}

export class FastPaths<P extends Policy> {
  private readonly taken: Taken[] = [];
  private guard: Admission<P> | null = null;
  private controllerOf: ((type: Type<unknown>) => unknown) | null = null;

  /** For Fastify's `onRoute` hook, with the route's policy: takes over the marked routes' handlers and schemas. */
  onRoute(route: RouteOptions, policy: P | undefined): void {
    const declaration = (route.config as RouteConfig | undefined)?.[FAST_PATH] as Declaration | undefined;
    if (!declaration) return;
    if (declaration.response) route.schema = { ...route.schema, response: { 200: declaration.response } };
    const taken: Taken = { declaration, handler: null };
    this.taken.push(taken);
    // Nest registers its routes as the application initialises, after `bind`: such a route is made at once.
    if (this.controllerOf) taken.handler = this.make(taken.declaration);
    const nest = route.handler;
    const paths = this;
    route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const handler = taken.handler;
      const guard = paths.guard;
      if (!handler || !guard) return nest.call(this as never, request, reply);
      if (!policy?.authenticate) return answer(reply, handler(request, reply));
      const admitted = guard.admit(request, reply, policy);
      return admitted ? admitted.then(() => answer(reply, handler(request, reply))) : answer(reply, handler(request, reply));
    };
  }

  /**
   * Once the application is made: each route's handler from its controller instance, for the routes taken so far
   * and (through `onRoute`) for those Nest registers later, as it initialises.
   */
  bind(controllerOf: (type: Type<unknown>) => unknown, guard: Admission<P>): void {
    this.controllerOf = controllerOf;
    this.guard = guard;
    for (const taken of this.taken) taken.handler = this.make(taken.declaration);
  }

  private make(declaration: Declaration): FastHandler {
    return declaration.make(this.controllerOf!(declaration.controller) as never);
  }
}
