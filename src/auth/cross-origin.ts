/**
 * Flipt's CSRF protection (facts §7.9), on when `authentication.session.csrf.key` is set: Go's
 * `http.CrossOriginProtection` in front of the API routes. Safe methods always pass; an unsafe one passes when the
 * browser says it is same-origin (`Sec-Fetch-Site: same-origin|none`), when no browser header says otherwise
 * (neither Sec-Fetch-Site nor Origin), when its Origin's host is the request's Host, or when its Origin is one of
 * `csrf.trusted_origins`. Anything else gets Go's plain-text 403.
 *
 * Which routes it guards is decided on the route Fastify matched, never on the request's spelling of the path:
 * `//api/v1/…`, `/api//v1/…` and `/%61pi/v1/…` reach the same handler as `/api/v1/…` and must be refused alike.
 * A request that matched no route is checked too: refusing it costs nothing and no spelling can slip through.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AuthenticationCsrfConfig } from '../config/config.types';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const API_PREFIXES = ['/api/v1', '/evaluate/v1', '/internal/v1', '/ofrep', '/auth/v1', '/meta'];

export const CROSS_ORIGIN_FETCH = 'cross-origin request detected from Sec-Fetch-Site header';
export const CROSS_ORIGIN_ORIGIN =
  'cross-origin request detected, and/or browser is out of date: Sec-Fetch-Site is missing, and Origin does not match Host';

/** Why the request is refused as cross-origin, or undefined when it may pass. */
export function crossOriginRefusal(method: string, headers: IncomingHttpHeaders, trusted: ReadonlySet<string>): string | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  const origin = single(headers.origin);
  const fetchSite = single(headers['sec-fetch-site']);
  if (fetchSite) {
    if (fetchSite === 'same-origin' || fetchSite === 'none') return undefined;
    return origin && trusted.has(origin) ? undefined : CROSS_ORIGIN_FETCH;
  }
  if (!origin) return undefined;
  if (hostOf(origin) === single(headers.host)) return undefined;
  return trusted.has(origin) ? undefined : CROSS_ORIGIN_ORIGIN;
}

/** Whether the route pattern Fastify matched (`request.routeOptions.url`; undefined when none did) is guarded. */
export function guardsRoute(route: string | undefined): boolean {
  return route === undefined || API_PREFIXES.some((p) => route === p || route.startsWith(`${p}/`));
}

export function registerCrossOriginProtection(fastify: FastifyInstance, csrf: AuthenticationCsrfConfig): void {
  if (!csrf.key) return;
  const trusted = new Set(csrf.trustedOrigins);
  // onRequest runs after routing, so the matched route is known here.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || !guardsRoute(request.routeOptions.url)) return done();
    const refusal = crossOriginRefusal(request.method, request.headers, trusted);
    if (!refusal) return done();
    reply.code(403).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(`${refusal}\n`);
  });
}

/** Go's `url.Parse(origin).Host`: everything between `scheme://` and the path, port included as written. */
function hostOf(origin: string): string | undefined {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(origin)?.[1];
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
