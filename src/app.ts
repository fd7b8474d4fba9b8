/**
 * Builds the Nest application on Fastify: trailing slashes ignored, Swagger at /docs, request, idle and connection
 * limits (docs/security.md), and the request pipeline (request-pipeline.ts), which lists every stage a request
 * passes, in order.
 */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { clientErrorHandler } from './common/client-errors';
import { frameworkErrorHandler } from './common/http-compat';
import type { FlagpoleConfig, LimitsConfig } from './config/config.types';
import { rootLogger } from './logging/logger';
import { NestLogger } from './logging/nest-logger';
import { openRequestPipeline } from './request-pipeline';
import { setupSwagger } from './swagger';
import { IN_WRITE_WORKER, startsWriteWorker } from './write-worker/role';

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
  // What runs for a request, stage by stage (request-pipeline.ts).
  const pipeline = await openRequestPipeline(fastify, config, { inWriteWorker: IN_WRITE_WORKER, startsWriteWorker: startsWriteWorker(config) });

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, pipeline.routes, pipeline.tracing, !IN_WRITE_WORKER), adapter, {
      bodyParser: false,
      logger: new NestLogger(rootLogger(config.log)),
      // A provider that cannot start (an unreadable policy file) rejects here, for main.ts to report as a plain
      // message and exit 1, rather than Nest exiting the process itself with a stack trace.
      abortOnError: false,
    });
  pipeline.complete(app);
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
