// Builds the web UI into dist/web, which Flagpole serves at `/` (src/ui/ui-assets.ts). `base: './'` makes every
// asset URL relative, so the same build works at `/` and behind a proxy's path prefix (`/flagpole/`).
// `npx vite --config ui/vite.config.ts` runs a dev server that proxies API calls to a Flagpole on :8080
// (or FLAGPOLE_DEV_API), see CONTRIBUTING.md.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const uiDir = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.FLAGPOLE_DEV_API ?? 'http://127.0.0.1:8080';
const proxied = ['/api', '/auth', '/evaluate', '/internal', '/meta', '/docs', '/ofrep'];

export default defineConfig({
  root: uiDir,
  base: './',
  // Vite transforms TSX with its built-in Oxc transformer; the automatic runtime needs no `import React`.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      onwarn(warning, warn) {
        // TanStack Query's modules start with "use client", a marker for React Server Components: this build has none.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
