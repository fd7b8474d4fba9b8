/**
 * Flipt's CORS (`cors.enabled`, `cors.allowed_origins`, `cors.allowed_headers`; facts §0.1), as go-chi/cors applies it,
 * given to @fastify/cors: origins compared without regard to case, `*` alone allowing any origin (answered `*`), one
 * `*` inside an origin matching any text there (`https://*.example.com`); methods GET, POST, PUT, DELETE, OPTIONS;
 * `Link` exposed, and `ETag` too (Flagpole: browsers' OFREP and snapshot clients poll with If-None-Match); credentials allowed; preflights cached 300 s and answered 200 on every path, before any
 * authentication (a browser sends no credential with a preflight).
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { CorsConfig } from '../config/config.types';

export function corsOptions(cors: CorsConfig): FastifyCorsOptions {
  return {
    origin: cors.allowedOrigins.includes('*') ? '*' : cors.allowedOrigins.map(originPattern),
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: cors.allowedHeaders,
    exposedHeaders: ['Link', 'ETag'],
    credentials: true,
    maxAge: 300,
    optionsSuccessStatus: 200,
    // go-chi answers any OPTIONS request; @fastify/cors would refuse one without Origin with a 400.
    strictPreflight: false,
  };
}

function originPattern(origin: string): RegExp {
  const star = origin.indexOf('*');
  const pattern = star < 0 ? escape(origin) : `${escape(origin.slice(0, star))}.*${escape(origin.slice(star + 1))}`;
  return new RegExp(`^${pattern}$`, 'i');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
