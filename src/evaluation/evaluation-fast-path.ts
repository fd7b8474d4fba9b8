/**
 * The evaluation routes are Flagpole's hot path. Nest's router pipeline around a handler (execution context, pipe
 * and interceptor chains, several promise layers) cost about a quarter of their throughput (measured: 11.0k vs
 * 14.7k req/s on 2 cores), so as Fastify registers them their handlers are swapped for a direct call to
 * EvaluationService that keeps what the pipeline did for these routes:
 *   - where the route's policy (route-policy.ts, settled once as the route is registered) requires an
 *     authentication, the one guard admits the request (AuthGuard.admit) before the service runs;
 *   - the status is 200 and the body is the service's answer; single answers are serialised by a compiled serialiser
 *     from the route's response schema (evaluation-response.schemas.ts); answers are returned synchronously when the
 *     namespace's snapshot is in memory, so that no promise is made on the way;
 *   - errors reach the one filter (Fastify's error handler is Nest's; a synchronous throw reaches it too).
 * Nest still declares the routes (Swagger documents them from EvaluationController, whose methods carry
 * `@FastPath(operation)`); only the handler changes, and both handlers make the same call (EVALUATIONS). Until the
 * application is bound (never, in practice: routes serve only after start) Nest's handler answers.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthGuard } from '../auth/auth.guard';
import type { RoutePolicy } from '../auth/route-policy';
import { addRouteConfig, type RouteConfig } from '../common/route-config';
import { parseBatchEvaluationRequest, parseEvaluationRequest } from './evaluation-request';
import { BOOLEAN_RESPONSE_SCHEMA, VARIANT_RESPONSE_SCHEMA } from './evaluation-response.schemas';
import type { EvaluationService } from './evaluation.service';

type Operation = 'boolean' | 'variant' | 'batch';

const FAST_PATH = Symbol('flagpole:evaluation-fast-path');

/** Marks a controller method whose route this file takes over, and the evaluation it makes. */
export const FastPath = (operation: Operation): MethodDecorator => (_target, _key, descriptor) => {
  addRouteConfig(descriptor.value as Function, { [FAST_PATH]: operation });
};

/**
 * What each route's handler does with the body, the controller's and the fast one alike: parse it
 * (evaluation-request.ts), then call the service.
 */
export const EVALUATIONS = {
  boolean: (service: EvaluationService, body: unknown) => service.boolean(parseEvaluationRequest(body)),
  variant: (service: EvaluationService, body: unknown) => service.variant(parseEvaluationRequest(body)),
  batch: (service: EvaluationService, body: unknown) => service.batch(parseBatchEvaluationRequest(body, service.maxBatchRequests)),
} satisfies Record<Operation, (service: EvaluationService, body: unknown) => unknown>;

/** Batch answers are serialised by JSON.stringify (evaluation-response.schemas.ts says why). */
const RESPONSE_SCHEMAS: Partial<Record<Operation, object>> = {
  boolean: BOOLEAN_RESPONSE_SCHEMA,
  variant: VARIANT_RESPONSE_SCHEMA,
};

interface Bound {
  service: EvaluationService;
  guard: AuthGuard;
}

export class EvaluationFastPath {
  private bound: Bound | null = null;

  /** For Fastify's `onRoute` hook, with the route's policy: takes over the evaluation routes' handlers and schemas. */
  onRoute(route: RouteOptions, policy: RoutePolicy | undefined): void {
    const operation = (route.config as RouteConfig | undefined)?.[FAST_PATH] as Operation | undefined;
    if (!operation || route.method !== 'POST') return;
    const responseSchema = RESPONSE_SCHEMAS[operation];
    if (responseSchema) route.schema = { ...route.schema, response: { 200: responseSchema } };
    const nest = route.handler;
    const call: (service: EvaluationService, body: unknown) => unknown = EVALUATIONS[operation];
    const fastPath = this;
    route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const bound = fastPath.bound;
      if (!bound) return nest.call(this as never, request, reply);
      if (!policy?.authenticate) return call(bound.service, request.body);
      const admitted = bound.guard.admit(request, reply, policy);
      return admitted ? admitted.then(() => call(bound.service, request.body)) : call(bound.service, request.body);
    };
  }

  bind(service: EvaluationService, guard: AuthGuard): void {
    this.bound = { service, guard };
  }
}
