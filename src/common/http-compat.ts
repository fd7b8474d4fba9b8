/**
 * Smaller parts of Flipt's HTTP behaviour that sit around the routes rather than in them:
 * - a missing or malformed Content-Type still means a JSON body (Flipt's gateway never looks at it);
 * - `?pretty` or `Accept: application/json+pretty` asks for indented JSON without default values;
 * - errors Fastify raises before routing (a malformed path escape) get Flipt's error body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GrpcCode } from './grpc-status';
import { sendError } from './error.filter';

/** As the request arrives (request-pipeline.ts's headers stage): a Content-Type without a `/` means JSON. */
export function jsonContentTypeByDefault(req: FastifyRequest): void {
  const type = req.headers['content-type'];
  if (type !== undefined && !type.includes('/')) req.headers['content-type'] = 'application/json';
}

/** As the answer is sent (request-pipeline.ts's respond stage): the payload, indented when the request asks for it. */
export function prettyPayload(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!wantsPretty(req) || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
  try {
    return `${JSON.stringify(withoutDefaults(JSON.parse(payload)) ?? {}, null, 2)}\n`;
  } catch {
    return payload;
  }
}

/** Fastify's `frameworkErrors` option: failures before a route is found. */
export function frameworkErrorHandler(error: Error, _req: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, GrpcCode.InvalidArgument, error.message || 'malformed request');
}

/** `Accept: application/json+pretty`, or `pretty` in the query. */
export function wantsPretty(req: FastifyRequest): boolean {
  if (req.headers.accept === 'application/json+pretty') return true;
  const q = req.url.indexOf('?');
  return q >= 0 && /(?:^|&)pretty(?:=|&|$)/.test(req.url.slice(q + 1));
}

/** Pretty output follows protobuf JSON without EmitDefaultValues: false, 0, "", [] and {} are left out. */
export function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => withoutDefaults(v) ?? null);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = withoutDefaults(v);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (value === false || value === 0 || value === '' || value === null) return undefined;
  return value;
}
