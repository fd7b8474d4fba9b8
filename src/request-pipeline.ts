/**
 * What runs for a request, in order. Every stage Flagpole adds to Fastify's and Nest's request lifecycle is put in
 * place here, once; the files named hold what each stage does. Fastify runs its hooks in the order they are added,
 * so the order below is the order of the code.
 *
 *   stage          runs as                                  what it does (file)
 *   ─────────────  ───────────────────────────────────────  ──────────────────────────────────────────────────────
 *   (route)        onRoute, once per route at start-up      the route's policy (auth/route-policy.ts), its fast path
 *                                                           (common/fast-path.ts), its pre-body authentication and
 *                                                           body limits, its hand-off to the write worker
 *   trace          onRequest … onResponse                   a server span (tracing/server-spans.ts)
 *   cors           onRequest                                @fastify/cors (common/cors-options.ts)
 *   headers        one onRequest hook                       nosniff and /docs' CSP (common/security-headers.ts), a
 *                                                           malformed X-Forwarded-Prefix dropped
 *                                                           (common/forwarded-prefix.ts), gRPC-gateway compatibility
 *                                                           (common/http-compat.ts)
 *   csrf           onRequest                                cross-origin writes refused (auth/cross-origin.ts)
 *   authenticate   onRequest, on routes that require it     the one guard's Passport strategies, before any body is
 *                                                           read (auth/pre-body-authentication.ts, auth/auth.guard.ts)
 *   parse          Fastify's content-type parser            JSON whatever the Content-Type, bounded in depth, bytes
 *                                                           and rate (common/json-body.ts, common/body-reader.ts)
 *   authorize      the guard (APP_GUARD), or the fast       the authentication kept from `authenticate`, the
 *                  path's admission                         namespace scope and the policy's grant
 *                                                           (auth/auth.guard.ts, authorization/)
 *   validate       the global pipe                          protobuf-JSON spellings, DTO types, storable text
 *                                                           (common/request.pipe.ts)
 *   handle         the controller, or its fast path         the route's one handler (common/fast-path.ts serves the
 *                                                           evaluation routes' handlers without Nest's layers)
 *   audit          interceptor of @Audited routes           the change's audit event (audit/audit.interceptor.ts)
 *   serialise      Nest's reply, or the error filter        the answer; every failure as Flipt's error body
 *                                                           (common/error.filter.ts)
 *   respond        onSend, onResponse                       indented JSON when asked (common/http-compat.ts);
 *                                                           `Connection: close` while shutting down
 *                                                           (health/connection-drain.ts); the request's metrics
 *                                                           (metrics/http.metrics.ts) and log line
 *                                                           (logging/request-log.ts), in the server only
 *
 * The write worker (write-worker/) runs the same pipeline for the writes the server hands it, less what the server
 * already did for them: no trace of its own, bodies already timed, no metrics or log line (the server counts and
 * logs the request it answered).
 */
import fastifyCors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { AuthGuard } from './auth/auth.guard';
import { registerCrossOriginProtection } from './auth/cross-origin';
import { PreBodyAuthentication } from './auth/pre-body-authentication';
import { settleRoutePolicy, type RoutePolicy } from './auth/route-policy';
import { corsOptions } from './common/cors-options';
import { ErrorFilter } from './common/error.filter';
import { FastPaths } from './common/fast-path';
import { dropMalformedForwardedPrefix } from './common/forwarded-prefix';
import { jsonContentTypeByDefault, prettyPayload } from './common/http-compat';
import { bodyOnRoute, registerJsonBodyParser } from './common/json-body';
import { RequestPipe } from './common/request.pipe';
import { RouteRegistry } from './common/route-registry';
import { addNosniff, securityHeadersOnRoute } from './common/security-headers';
import type { FlagpoleConfig } from './config/config.types';
import { ConnectionDrain } from './health/connection-drain';
import { RequestLogger } from './logging/request-log';
import { HttpMetrics } from './metrics/http.metrics';
import { registerServerSpans } from './tracing/server-spans';
import { Tracing } from './tracing/tracing';
import { WriteRoutes } from './write-worker/write-routes';
import { WriteWorker } from './write-worker/write-worker.service';

/** Which process the pipeline serves: the server, or the write worker that the server hands writes to. */
export interface PipelineRole {
  inWriteWorker: boolean;
  /** The server hands the REST API's writes to the write worker (write-worker/write-routes.ts). */
  startsWriteWorker: boolean;
}

/** The stages that Nest's application completes (`complete`), once it is created. */
export interface RequestPipeline {
  readonly routes: RouteRegistry;
  readonly tracing: Tracing;
  complete(app: NestFastifyApplication): void;
}

/** The stages Fastify runs before Nest's: added before the application is created, so before any route. */
export async function openRequestPipeline(fastify: FastifyInstance, config: FlagpoleConfig, role: PipelineRole): Promise<RequestPipeline> {
  const routes = new RouteRegistry();
  const fastPaths = new FastPaths<RoutePolicy>();
  const preBodyAuthentication = new PreBodyAuthentication(config.authentication.session);
  const writeRoutes = role.startsWriteWorker ? new WriteRoutes() : null;
  // (route)
  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    const policy = settleRoutePolicy(route, config);
    fastPaths.onRoute(route, policy);
    preBodyAuthentication.onRoute(route, policy);
    bodyOnRoute(route, config.limits);
    writeRoutes?.onRoute(route);
    securityHeadersOnRoute(route);
  });
  // trace: before every other onRequest hook, so that a request they refuse has its span too.
  const tracing = role.inWriteWorker ? Tracing.OFF : Tracing.from(config.tracing);
  registerServerSpans(fastify, tracing);
  // cors: as Flipt's CORS middleware is outermost, refusals carry CORS headers too.
  if (config.cors.enabled) await fastify.register(fastifyCors, corsOptions(config.cors));
  // headers: one hook for the three, as each hook Fastify runs costs every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    addNosniff(reply);
    dropMalformedForwardedPrefix(request);
    jsonContentTypeByDefault(request);
    done();
  });
  // csrf
  registerCrossOriginProtection(fastify, config.authentication.session.csrf);
  // parse: a content-type parser, which Fastify runs after the onRequest hooks. The write worker gets bodies whole
  // from the server, which received (and timed) them already.
  registerJsonBodyParser(fastify, role.inWriteWorker ? { ...config.limits, minBodyRate: 0 } : config.limits);
  // authenticate: per route, from the (route) hook above; it runs the guard's strategies once `complete` binds it.

  return {
    routes,
    tracing,
    complete(app) {
      const guard = app.get(AuthGuard);
      // authenticate, authorize: the one guard, for Nest's routes (APP_GUARD), the fast paths and the pre-body hook.
      preBodyAuthentication.bind(guard);
      fastPaths.bind((type) => app.get(type), guard);
      // validate
      app.useGlobalPipes(new RequestPipe());
      // serialise: also reached by Fastify's own errors (body parsing, body size), which Nest routes through filters.
      app.useGlobalFilters(new ErrorFilter(routes));
      // handle: the REST API's writes go to the write worker when it runs.
      writeRoutes?.bind(app.get(WriteWorker));
      // respond: one onSend hook (pretty JSON on request, `Connection: close` while draining) and one onResponse.
      const drain = app.get(ConnectionDrain);
      fastify.addHook('onSend', (request, reply, payload, done) => {
        drain.beforeSend(reply);
        done(null, prettyPayload(request, reply, payload));
      });
      if (!role.inWriteWorker) {
        const metrics = app.get(HttpMetrics);
        const log = app.get(RequestLogger);
        const counted = metrics.enabled;
        fastify.addHook('onResponse', (request, reply, done) => {
          if (counted) metrics.observe(request, reply);
          log.write(request, reply);
          done();
        });
      }
    },
  };
}
