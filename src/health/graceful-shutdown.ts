/**
 * SIGTERM / SIGINT: stop taking work, finish what is in flight, close everything, exit 0.
 *
 * 1. Readiness (`/health/ready`, `/health`) turns 503 and gRPC health NOT_SERVING at once.
 * 2. `app.close()`: the HTTP server stops accepting connections and waits for requests in flight (Fastify answers
 *    requests arriving on kept-alive connections with 503), then the gRPC server stops and the database (and later
 *    Redis) connections close — each in its Nest shutdown hook.
 * 3. Exit 0. If that takes longer than the grace period, exit 1 (Kubernetes would SIGKILL soon after anyway);
 *    a second signal exits at once.
 *
 * Nest's own enableShutdownHooks is not used: it re-raises the signal after closing, so the exit status would be
 * 143, not 0, and it has no time limit.
 */
import type { INestApplication, LoggerService } from '@nestjs/common';
import { HealthService } from './health.service';

/** Below Kubernetes' default terminationGracePeriodSeconds (30 s), leaving room for a preStop delay. */
export const SHUTDOWN_GRACE_MS = 25_000;

export function shutdownOnSignals(app: INestApplication, logger: LoggerService, graceMs = SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn(`${signal} received again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    logger.log(`${signal} received: shutting down (in-flight requests finish, at most ${graceMs / 1000}s)`);
    app.get(HealthService).startShutdown();
    const deadline = setTimeout(() => {
      logger.error(`shutdown did not finish within ${graceMs / 1000}s: exiting`);
      process.exit(1);
    }, graceMs);
    deadline.unref();
    app.close().then(
      () => {
        logger.log(`stopped in ${Date.now() - started} ms`);
        process.exit(0);
      },
      (e: Error) => {
        logger.error(`shutdown failed: ${e.stack ?? e.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
