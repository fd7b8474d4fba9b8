/**
 * `X-Forwarded-Prefix` is the path a proxy serves Flagpole under (`/flagpole`); the login routes put it before the
 * URLs, cookie paths and redirects they answer. Only a plain absolute path is taken: one leading slash, non-empty
 * segments of path characters. Anything else (`//evil.example`, a scheme, `\`, `;` that would add cookie attributes,
 * spaces, several headers joined) is dropped from the request, as if the proxy had sent none.
 */
import type { FastifyRequest } from 'fastify';

const HEADER = 'x-forwarded-prefix';
const PLAIN_PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+=:@]|%[0-9A-Fa-f]{2})+)+\/?$/;

export function isPlainPathPrefix(prefix: string): boolean {
  return prefix === '' || PLAIN_PATH.test(prefix);
}

/** As the request arrives (request-pipeline.ts's headers stage): a prefix that is not a plain path is dropped. */
export function dropMalformedForwardedPrefix(request: FastifyRequest): void {
  const prefix = request.raw.headers[HEADER];
  if (prefix !== undefined && !isPlainPathPrefix(prefix as string)) delete request.raw.headers[HEADER];
}
