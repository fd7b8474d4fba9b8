/**
 * The web UI's built files (`npm run build` writes them to dist/web with Vite, from ui/) served at `/` by Fastify
 * itself, beside the API. Only the files that exist at start-up get a route (`wildcard: false`), plus `/` for
 * index.html: every other path still reaches the API's 404 handling and gets Flipt's error body. The UI routes
 * with the URL's hash (`/#/namespaces/default/flags`), so the server never needs a catch-all that would swallow
 * those 404s, and its asset URLs are relative, so it works behind a proxy's path prefix.
 *
 * The files are public (Flipt serves its UI outside authentication too): the auth guard is Nest's and never sees
 * these Fastify routes, and everything the UI shows comes from API calls that do need a credential.
 */
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from '../common/security-headers';

/**
 * dist/web under the package root: this file runs as src/ui/ui-assets.ts (ts-node, Jest) or dist/ui/ui-assets.js
 * (`npm start`), two levels below the root either way. Not dist/ui: that is where tsc puts this module.
 */
export const BUILT_UI_DIR = resolve(__dirname, '..', '..', 'dist', 'web');

/** Vite names assets by content hash, so they never change under their name; index.html must always be asked again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function uiIsBuilt(root: string = BUILT_UI_DIR): boolean {
  return existsSync(join(root, 'index.html'));
}

/** Registers the built UI, or a page that says how to build it; must run before the Fastify instance is ready. */
export function registerUi(fastify: FastifyInstance, root: string = BUILT_UI_DIR): void {
  if (!uiIsBuilt(root)) {
    fastify.get('/', (_req, reply) => {
      void reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(NOT_BUILT_PAGE);
    });
    return;
  }
  void fastify.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // Swagger UI registers @fastify/static too and owns the reply decorators.
    decorateReply: false,
    serveDotFiles: false,
    cacheControl: false,
    setHeaders: (reply: FastifyReply, path: string) => {
      void reply.headers({
        'cache-control': path.includes(`${sep}assets${sep}`) ? IMMUTABLE : 'no-cache',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'content-security-policy': CONTENT_SECURITY_POLICY,
      });
    },
  });
}

/** Tests and a bare `ts-node` run start without `npm run build`: say so instead of answering 404. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Flagpole</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Flagpole</h1>
<p>The web UI is not built. Run <code>npm run build</code> (or <code>npm run build:ui</code>) and restart Flagpole.</p>
<p>The API is available: see <a href="docs">the API explorer</a>.</p>
</body></html>
`;
