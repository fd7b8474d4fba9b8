/**
 * The one exception filter: every error leaves Flagpole as Flipt's body `{"code", "message", "details": []}` with the
 * HTTP status grpc-gateway would use. Domain errors carry their code; ORM and framework errors are classified here.
 * A route that speaks another protocol (OFREP) declares its own error format with `@ErrorFormat(writer)`: the error is
 * classified the same way, and the route's writer sends it, whoever raised it (a handler, the body parser, the
 * authentication checked before the body is read).
 */
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import {
  DriverException,
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from './errors';
import { GrpcCode, grpcCodeOfHttpStatus, httpStatusOf } from './grpc-status';
import { addRouteConfig, type RouteConfig } from './route-config';
import { RouteRegistry } from './route-registry';
import { isDatabaseUnreachable } from './database-unreachable';

export interface ErrorBody {
  code: number;
  message: string;
  details: unknown[];
}

interface Classified {
  code: GrpcCode;
  message: string;
  status?: number;
}

/** An error as classified, for a route's own writer: `exception` is what was thrown (undefined for a refusal made before the route ran). */
export interface ErrorReport {
  code: GrpcCode;
  message: string;
  status: number;
  exception?: unknown;
}

/** Sends an error in a route's own format. The status is the report's to keep or change. */
export type ErrorWriter = (reply: FastifyReply, error: ErrorReport) => void;

const ERROR_WRITER = Symbol('flagpole:error-writer');

/**
 * The route's errors (or, on a controller, every route's) are sent by `writer` instead of as Flipt's body. Kept in
 * the route's Fastify config, so the filter finds it on the request without looking the route up.
 */
export const ErrorFormat = (writer: ErrorWriter): ClassDecorator & MethodDecorator =>
  (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      addRouteConfig(descriptor.value as Function, { [ERROR_WRITER]: writer });
      return;
    }
    const prototype = (target as Function).prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (typeof method === 'function' && Reflect.hasMetadata(PATH_METADATA, method)) addRouteConfig(method, { [ERROR_WRITER]: writer });
    }
  };

function errorWriterOf(request: FastifyRequest | undefined): ErrorWriter | undefined {
  return (request?.routeOptions?.config as unknown as RouteConfig | undefined)?.[ERROR_WRITER] as ErrorWriter | undefined;
}

/** Error codes of drivers for "value too long for column". */
const VALUE_TOO_LONG = new Set(['22001', 'ER_DATA_TOO_LONG']);
/**
 * Error codes of drivers for a value the column cannot hold: PostgreSQL refuses NUL in text (22021) and in JSON
 * (22P05), numbers out of range (22003). Validation refuses these first; this keeps any it misses a 400, not a 500.
 */
const VALUE_NOT_STORABLE = new Set(['22003', '22021', '22P05', 'ER_WARN_DATA_OUT_OF_RANGE', 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD']);

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(private readonly routes: RouteRegistry) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    this.catchFastify(exception, ctx.getRequest<FastifyRequest>(), reply);
  }

  /** Also Fastify's error handler, for what fails before a route runs (body parsing, body size). */
  catchFastify(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const c = this.classify(exception, request);
    sendError(reply, c.code, c.message, c.status, exception);
  }

  private classify(e: unknown, req: FastifyRequest): Classified {
    if (e instanceof DomainError) return { code: e.code, message: e.message };
    if (e instanceof UniqueConstraintViolationException) {
      return { code: GrpcCode.InvalidArgument, message: 'resource is not unique' };
    }
    if (e instanceof ForeignKeyConstraintViolationException) {
      return { code: GrpcCode.InvalidArgument, message: 'referenced resource not found or still in use' };
    }
    if (e instanceof NotNullConstraintViolationException) {
      return { code: GrpcCode.InvalidArgument, message: 'a required field is missing' };
    }
    if (isDatabaseUnreachable(e)) {
      this.logger.warn(`database unavailable: ${(e as Error).message}`);
      return { code: GrpcCode.Unavailable, message: 'database is unavailable; try again later' };
    }
    if (e instanceof DriverException && VALUE_TOO_LONG.has(String(e.code))) {
      return { code: GrpcCode.InvalidArgument, message: 'a value is longer than its field allows' };
    }
    if (e instanceof DriverException && VALUE_NOT_STORABLE.has(String(e.code))) {
      return { code: GrpcCode.InvalidArgument, message: 'a value contains characters or numbers the database cannot store' };
    }
    if (e instanceof HttpException) return this.classifyHttp(e, req);
    const status = (e as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own errors (body too large, bad content) carry a status and a readable message.
      return { code: grpcCodeOfHttpStatus(status), message: (e as Error).message, status };
    }
    this.logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return { code: GrpcCode.Internal, message: 'internal error' };
  }

  private classifyHttp(e: HttpException, req: FastifyRequest): Classified {
    const status = e.getStatus();
    if (status === 404 && isRouteMiss(e)) {
      return this.routes.knowsPathForOtherMethod(req.method, req.url)
        ? { code: GrpcCode.Unimplemented, message: 'Method Not Allowed' }
        : { code: GrpcCode.NotFound, message: 'Not Found' };
    }
    const body = e.getResponse();
    const raw = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
    const message = Array.isArray(raw) ? raw.join('; ') : String(raw ?? e.message);
    return { code: grpcCodeOfHttpStatus(status), message, status };
  }
}

/** Flipt's error body, or the format the matched route declared (`@ErrorFormat`). */
export function sendError(reply: FastifyReply, code: GrpcCode, message: string, status = httpStatusOf(code), exception?: unknown): void {
  if (code === GrpcCode.Unauthenticated) reply.header('www-authenticate', headerValue(message));
  const writer = errorWriterOf(reply.request);
  if (writer) return writer(reply, { code, message, status, exception });
  const body: ErrorBody = { code, message, details: [] };
  reply.status(status).header('content-type', 'application/json').send(JSON.stringify(body));
}

/** Longest WWW-Authenticate value: the body carries the whole message; clients cap response headers (16 KiB). */
const MAX_HEADER_VALUE = 1024;

/**
 * Messages can carry request text (an OAuth `error` parameter). Node refuses a header value with control characters
 * (CR/LF would split the response) or characters beyond Latin-1, and clients read the rest of non-ASCII as Latin-1
 * or UTF-8 as they please: controls become spaces and other non-ASCII characters `?`. Flipt's own messages are ASCII
 * and pass unchanged.
 */
export function headerValue(message: string): string {
  const clean = message.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[^\u0000-\u007f]/gu, '?');
  return clean.length > MAX_HEADER_VALUE ? `${clean.slice(0, MAX_HEADER_VALUE - 3)}...` : clean;
}

/** Nest's router fallback throws NotFoundException("Cannot GET /x"). */
function isRouteMiss(e: HttpException): boolean {
  return /^Cannot [A-Z]+ /.test(e.message);
}
