/**
 * Builds the Nest application on Fastify with everything Flipt's HTTP surface needs: JSON bodies whatever the
 * Content-Type, trailing slashes ignored, Flipt's error body for every failure, Swagger at /docs, and the evaluation
 * routes' lean handlers (evaluation/evaluation-fast-path.ts).
 */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AuthGuard } from './auth/auth.guard';
import { registerCrossOriginProtection } from './auth/cross-origin';
import { ErrorFilter } from './common/error.filter';
import { frameworkErrorHandler, registerHttpCompat } from './common/http-compat';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './common/json-body';
import { RequestPipe } from './common/request.pipe';
import { RouteRegistry } from './common/route-registry';
import type { FlagpoleConfig } from './config/config.types';
import { EvaluationFastPath } from './evaluation/evaluation-fast-path';
import { EvaluationService } from './evaluation/evaluation.service';
import { rootLogger } from './logging/logger';
import { NestLogger } from './logging/nest-logger';
import { setupSwagger } from './swagger';

export async function createApp(config: FlagpoleConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    // No Nest middleware is used (no MikroORM request context either): without @fastify/middie no request pays for it.
    skipMiddie: true,
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
  });
  const fastify = adapter.getInstance();
  const routes = new RouteRegistry();
  const evaluationFastPath = new EvaluationFastPath();
  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    evaluationFastPath.onRoute(route);
  });
  registerJsonBodyParser(fastify);
  registerHttpCompat(fastify);
  registerCrossOriginProtection(fastify, config.authentication.session.csrf);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, routes), adapter, {
    bodyParser: false,
    logger: new NestLogger(rootLogger(config.log)),
  });
  // Also reached by Fastify's own errors (body parsing, body size): Nest routes its error handler through filters.
  app.useGlobalFilters(new ErrorFilter(routes));
  app.useGlobalPipes(new RequestPipe());
  evaluationFastPath.bind(app.get(EvaluationService), app.get(AuthGuard));
  // Signals are handled by main.ts (health/graceful-shutdown.ts): readiness first, then close, then exit 0.
  setupSwagger(app);
  return app;
}
