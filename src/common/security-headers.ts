/**
 * Headers that keep a browser from misreading Flagpole's answers: `X-Content-Type-Options: nosniff` on every response
 * (an error body or a JSON answer is never run as a script or a page), and on the API explorer (`/docs`, Swagger UI)
 * the web UI's content security policy, `frame-ancestors 'none'` included, so neither can be framed by another site.
 */
import type { FastifyReply, onRequestHookHandler, RouteOptions } from 'fastify';
import { addOnRequest } from './route-config';

/**
 * What the web UI's pages (ui/ui-assets.ts) and the API explorer may load: their own scripts and styles (React sets
 * inline `style` attributes), API calls to their own origin, avatars from OIDC/GitHub profiles (any https image), and
 * no framing by other sites.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: https:",
  "style-src 'self' 'unsafe-inline'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const DOCS_PREFIX = '/docs';

/** Every response's header, set as the request arrives (request-pipeline.ts's headers stage). */
export function addNosniff(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
}

/**
 * For Fastify's `onRoute` hook: Swagger's routes only (`/docs`, its assets, `/docs-json`) get the CSP, from a
 * route-level hook that costs the other routes nothing.
 */
export function securityHeadersOnRoute(route: RouteOptions): void {
  if (route.url.startsWith(DOCS_PREFIX)) addOnRequest(route, docsHeaders);
}

const docsHeaders: onRequestHookHandler = (_request, reply, done) => {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('referrer-policy', 'same-origin');
  done();
};
