/**
 * Builds the Nest application on Fastify with everything Flipt's HTTP surface needs: JSON bodies whatever the
 * Content-Type, trailing slashes ignored, Flipt's error body for every failure, Swagger at /docs, and the evaluation
 * routes' lean handlers (common/fast-path.ts). And what a server facing hostile clients needs
 * (docs/security.md): request, idle and connection limits, bodies bounded in memory and rate (common/body-reader.ts),
 * CORS when configured, CSRF protection, credentials checked before a body is read, and response headers that keep
 * browsers from misreading answers.
 */
import fastifyCors from '@fastify/cors';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AuthGuard } from './auth/auth.guard';
import { registerCrossOriginProtection } from './auth/cross-origin';
import { PreBodyAuthentication } from './auth/pre-body-authentication';
import { settleRoutePolicy, type RoutePolicy } from './auth/route-policy';
import { clientErrorHandler } from './common/client-errors';
import { corsOptions } from './common/cors-options';
import { ErrorFilter } from './common/error.filter';
import { registerForwardedPrefixCheck } from './common/forwarded-prefix';
import { frameworkErrorHandler, registerHttpCompat } from './common/http-compat';
import { bodyOnRoute, registerJsonBodyParser } from './common/json-body';
import { RequestPipe } from './common/request.pipe';
import { RouteRegistry } from './common/route-registry';
import { registerSecurityHeaders } from './common/security-headers';
import type { FlagpoleConfig, LimitsConfig } from './config/config.types';
import { FastPaths } from './common/fast-path';
import { rootLogger } from './logging/logger';
import { NestLogger } from './logging/nest-logger';
import { setupSwagger } from './swagger';
import { registerServerSpans } from './tracing/server-spans';
import { Tracing } from './tracing/tracing';
import { IN_WRITE_WORKER, startsWriteWorker } from './write-worker/role';
import { WriteRoutes } from './write-worker/write-routes';
import { WriteWorker } from './write-worker/write-worker.service';

export async function createApp(config: FlagpoleConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    // No Nest middleware is used (no MikroORM request context either): without @fastify/middie no request pays for it.
    skipMiddie: true,
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: config.limits.maxBodyBytes,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    ...connectionLimits(config.limits),
    clientErrorHandler,
  });
  const fastify = adapter.getInstance();
  if (config.limits.maxConnections > 0) fastify.server.maxConnections = config.limits.maxConnections;
  const routes = new RouteRegistry();
  const fastPaths = new FastPaths<RoutePolicy>();
  const preBodyAuthentication = new PreBodyAuthentication(config.authentication.session);
  // The REST API's writes, handed to the write worker (write-worker/write-routes.ts) when it runs.
  const writeRoutes = startsWriteWorker(config) ? new WriteRoutes() : null;
  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    // What the route needs from authentication, worked out once here (route-policy.ts).
    const policy = settleRoutePolicy(route, config);
    fastPaths.onRoute(route, policy);
    preBodyAuthentication.onRoute(route, policy);
    bodyOnRoute(route, config.limits);
    writeRoutes?.onRoute(route);
  });
  // Before every other onRequest hook, so that a request they refuse has its span too. The write worker's requests
  // come from the main thread, which traces them.
  const tracing = IN_WRITE_WORKER ? Tracing.OFF : Tracing.from(config.tracing);
  registerServerSpans(fastify, tracing);
  // First of the onRequest hooks, as Flipt's CORS middleware is outermost: refusals carry CORS headers too.
  if (config.cors.enabled) await fastify.register(fastifyCors, corsOptions(config.cors));
  registerSecurityHeaders(fastify);
  registerForwardedPrefixCheck(fastify);
  // The write worker gets bodies whole from the main thread, which received them (and timed them) already.
  registerJsonBodyParser(fastify, IN_WRITE_WORKER ? { ...config.limits, minBodyRate: 0 } : config.limits);
  registerHttpCompat(fastify);
  registerCrossOriginProtection(fastify, config.authentication.session.csrf);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, routes, tracing, !IN_WRITE_WORKER), adapter, {
    bodyParser: false,
    logger: new NestLogger(rootLogger(config.log)),
    // A provider that cannot start (an unreadable policy file) rejects here, for main.ts to report as a plain
    // message and exit 1, rather than Nest exiting the process itself with a stack trace.
    abortOnError: false,
  });
  // Also reached by Fastify's own errors (body parsing, body size): Nest routes its error handler through filters.
  app.useGlobalFilters(new ErrorFilter(routes));
  app.useGlobalPipes(new RequestPipe());
  const guard = app.get(AuthGuard);
  fastPaths.bind((type) => app.get(type), guard);
  preBodyAuthentication.bind(guard);
  writeRoutes?.bind(app.get(WriteWorker));
  // Signals are handled by main.ts (health/graceful-shutdown.ts): readiness first, then close, then exit 0.
  setupSwagger(app);
  return app;
}

/** Fastify's keep-alive timeout when nothing shorter is asked for. */
const KEEP_ALIVE_MS = 72_000;
/** Node's default time to receive a request's headers. */
const HEADERS_TIMEOUT_MS = 60_000;

/**
 * `limits.request_timeout` (the whole request, headers and body, received within it: Node answers 408 and closes)
 * and `limits.idle_timeout` (a socket that sends nothing, kept-alive ones included). Node checks request deadlines
 * every `connectionsCheckingInterval` (30 s by default, which would double a 30 s limit): a tenth of the deadline.
 */
function connectionLimits(limits: LimitsConfig) {
  const { requestTimeout, idleTimeout } = limits;
  const headersTimeout = requestTimeout > 0 ? Math.min(requestTimeout, HEADERS_TIMEOUT_MS) : HEADERS_TIMEOUT_MS;
  const deadline = requestTimeout > 0 ? requestTimeout : headersTimeout;
  return {
    requestTimeout,
    connectionTimeout: idleTimeout,
    keepAliveTimeout: idleTimeout > 0 ? Math.min(idleTimeout, KEEP_ALIVE_MS) : KEEP_ALIVE_MS,
    http: {
      requestTimeout,
      headersTimeout,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(deadline / 10))),
    },
  };
}
