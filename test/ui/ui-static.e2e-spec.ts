/**
 * How Flagpole serves the built UI (no browser needed): `/` and the built files with their headers, and nothing
 * else — unknown paths keep Flipt's 404 body. `ui.enabled: false` serves nothing, and a missing build answers a
 * page that says how to build it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { CONTENT_SECURITY_POLICY } from '../../src/common/security-headers';
import { BUILT_UI_DIR, registerUi } from '../../src/ui/ui-assets';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { buildUiOnce } from './support/browser';

describe('the UI served by Flagpole', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    buildUiOnce();
    fp = await startFlagpole();
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('answers index.html at / and /index.html, never cached, with a content security policy', async () => {
    const index = readFileSync(join(BUILT_UI_DIR, 'index.html'), 'utf8');
    for (const path of ['/', '/index.html']) {
      const r = await api.get(path);
      expect({ path, status: r.status, type: r.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      expect(r.text).toBe(index);
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('references its assets relatively, so a path prefix works, and serves them as immutable', async () => {
    const index = (await api.get('/')).text;
    const assets = [...index.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    expect(index).not.toMatch(/(?:src|href)="\/(?!\/)/);
    for (const asset of assets) {
      const r = await api.get(`/${asset}`);
      expect({ asset, status: r.status }).toEqual({ asset, status: 200 });
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect(readdirSync(join(BUILT_UI_DIR, 'assets')).some((f) => f.endsWith('.js'))).toBe(true);
  });

  it('leaves every other path to the API: Flipt 404 body for unknown paths, the API unchanged', async () => {
    for (const path of ['/flags', '/namespaces/default/flags', '/assets/missing.js', '/index.htm', '/ui']) {
      const r = await api.get(path);
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 404, body: { code: 5, message: 'Not Found', details: [] } });
    }
    expect((await api.get('/api/v1/namespaces/default')).body.key).toBe('default');
    expect((await api.get('/docs')).status).toBe(200);
  });
});

describe('the UI switched off or not built', () => {
  it('serves nothing at / with ui.enabled false', async () => {
    const fp = await startFlagpole({ FLAGPOLE_UI_ENABLED: 'false' });
    try {
      const r = await client(fp.url).get('/');
      expect({ status: r.status, body: r.body }).toEqual({ status: 404, body: { code: 5, message: 'Not Found', details: [] } });
    } finally {
      await fp.close();
    }
  });

  it('answers a page saying how to build the UI when dist/web is missing', async () => {
    const fastify = Fastify();
    registerUi(fastify, join(__dirname, 'no-such-build'));
    const r = await fastify.inject({ method: 'GET', url: '/' });
    await fastify.close();
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body).toContain('The web UI is not built. Run <code>npm run build</code>');
  });
});
