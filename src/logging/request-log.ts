/**
 * One log line per HTTP request: method, route pattern, path, status and duration. Nothing else from the request is
 * read, so headers (Authorization, cookies), query strings (OAuth codes and states) and bodies (tokens) never reach
 * the log. Successful health probes and metric scrapes are not logged: they would drown everything else.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { rootLogger, type Logger } from './logger';

const QUIET_ROUTES = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

export function requestLogLine(req: FastifyRequest, reply: FastifyReply): { level: 'info' | 'warn' | 'error'; fields: object; message: string } | null {
  const status = reply.statusCode;
  const route = req.routeOptions.url;
  if (status < 400 && route !== undefined && QUIET_ROUTES.has(route)) return null;
  const query = req.url.indexOf('?');
  const path = query === -1 ? req.url : req.url.slice(0, query);
  const durationMs = Math.round(reply.elapsedTime * 100) / 100;
  // As Flipt's gRPC logging: Internal and other server errors are errors, Unavailable a warning, the rest info.
  // 501 is the client's wrong method (Flipt's gateway answer, `Method Not Allowed`): scanners send it all day, so it
  // is client noise at info, not an error of the server's.
  const level = status === 503 ? 'warn' : status === 501 ? 'info' : status >= 500 ? 'error' : 'info';
  return {
    level,
    fields: { context: 'HTTP', method: req.method, route: route ?? null, path, status, durationMs },
    message: `${req.method} ${path} ${status} ${durationMs}ms`,
  };
}

/** The request pipeline's respond stage calls `write` for every response (request-pipeline.ts), in the server only. */
@Injectable()
export class RequestLogger {
  private readonly log: Logger;
  /** The level is fixed at start-up: asked once, not on every response. */
  private readonly infoEnabled: boolean;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.log = rootLogger(config.log);
    this.infoEnabled = this.log.isLevelEnabled('info');
  }

  write(req: FastifyRequest, reply: FastifyReply): void {
    if (this.infoEnabled || (reply.statusCode >= 500 && reply.statusCode !== 501)) {
      const line = requestLogLine(req, reply);
      if (line) this.log[line.level](line.fields, line.message);
    }
  }
}
