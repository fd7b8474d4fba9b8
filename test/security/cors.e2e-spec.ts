/**
 * CORS (`cors.enabled`, `cors.allowed_origins`, `cors.allowed_headers`; Flipt's go-chi/cors semantics): preflights
 * answered before authentication, the allowed origin echoed, credentials allowed and the `Link` and `ETag` headers exposed. Checked over
 * plain HTTP, and from a real page on another origin in Debian's Chromium — the way a browser SDK calls Flagpole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, launchBrowser } from '../ui/support/browser';

/** A tiny site on its own loopback port: the page a browser SDK would run in. */
async function startPageServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>another site</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const preflight = (base: string, origin: string, method = 'POST', headers = 'authorization,content-type') =>
  http(base, 'OPTIONS', '/api/v1/namespaces', undefined, {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  });

describe('CORS over HTTP', () => {
  const ALLOWED = 'https://app.example.com';
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({
      ...TOKEN_REQUIRED,
      FLAGPOLE_CORS_ENABLED: 'true',
      FLAGPOLE_CORS_ALLOWED_ORIGINS: `${ALLOWED} https://*.tenants.example.com`,
    });
  });
  afterAll(() => fp?.close());

  it('answers a preflight from an allowed origin, without a credential', async () => {
    const r = await preflight(fp.url, ALLOWED);
    expect(r.status).toBe(200);
    expect(Object.fromEntries([...r.headers].filter(([k]) => k.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
      'access-control-allow-headers': 'Accept, Authorization, Content-Type, X-CSRF-Token, X-Fern-Language, X-Fern-SDK-Name, X-Fern-SDK-Version, X-Flipt-Namespace, X-Flipt-Accept-Server-Version, X-Flagpole-Namespace, If-None-Match, Last-Event-ID',
      'access-control-expose-headers': 'Link, ETag',
      'access-control-max-age': '300',
    });
    expect((await preflight(fp.url, 'https://a.tenants.example.com')).headers.get('access-control-allow-origin')).toBe('https://a.tenants.example.com');
    expect((await preflight(fp.url, 'HTTPS://APP.EXAMPLE.COM')).headers.get('access-control-allow-origin')).toBe('HTTPS://APP.EXAMPLE.COM');
  });

  it('gives other origins no allowance', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'https://tenants.example.com']) {
      const r = await preflight(fp.url, origin);
      expect({ origin, status: r.status, allow: r.headers.get('access-control-allow-origin') }).toEqual({ origin, status: 200, allow: null });
    }
  });

  it('adds the headers to answers, refusals included', async () => {
    const ok = await http(fp.url, 'GET', '/api/v1/namespaces', undefined, { origin: ALLOWED, ...bearer(BOOTSTRAP) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(ok.headers.get('access-control-expose-headers')).toBe('Link, ETag');
    expect(ok.headers.get('vary')).toContain('Origin');
    const refused = await http(fp.url, 'GET', '/api/v1/namespaces', undefined, { origin: ALLOWED });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('answers * for cors.allowed_origins *, and nothing at all when not enabled', async () => {
    const any = await startFlagpole({ FLAGPOLE_CORS_ENABLED: 'true' });
    const off = await startFlagpole();
    try {
      expect((await preflight(any.url, 'https://anyone.example')).headers.get('access-control-allow-origin')).toBe('*');
      const r = await preflight(off.url, ALLOWED);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await any.close();
      await off.close();
    }
  });
});

browserDescribe('CORS from a page on another origin', () => {
  let page: { port: number; close(): Promise<void> };
  let other: { port: number; close(): Promise<void> };
  let fp: RunningFlagpole;
  let off: RunningFlagpole;
  let browser: Browser;
  beforeAll(async () => {
    [page, other, browser] = await Promise.all([startPageServer(), startPageServer(), launchBrowser()]);
    // The page is on `localhost`, Flagpole on 127.0.0.1: another site, not only another origin.
    fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_CORS_ENABLED: 'true', FLAGPOLE_CORS_ALLOWED_ORIGINS: `http://localhost:${page.port}` });
    off = await startFlagpole(TOKEN_REQUIRED);
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
    await off?.close();
    await page?.close();
    await other?.close();
  });

  /** Runs fetch calls in a page of `origin` against `base`; each outcome is a status or the browser's error. */
  async function fromPage(origin: string, base: string): Promise<{ list: unknown; create: unknown }> {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${origin}/`);
      return await tab.evaluate(
        async ({ base, token }) => {
          const outcome = (p: Promise<Response>) =>
            p.then(async (r) => ({ status: r.status, body: await r.json() }), (e: Error) => ({ error: e.name }));
          const auth = { authorization: `Bearer ${token}` };
          return {
            list: await outcome(fetch(`${base}/api/v1/namespaces`, { headers: auth })),
            // JSON and a method other than GET: the browser asks a preflight first.
            create: await outcome(
              fetch(`${base}/api/v1/namespaces`, {
                method: 'POST',
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ key: 'from-browser', name: 'From a browser' }),
              }),
            ),
          };
        },
        { base, token: BOOTSTRAP },
      );
    } finally {
      await context.close();
    }
  }

  it('lets the allowed page call Flagpole with an Authorization header', async () => {
    const r = await fromPage(`http://localhost:${page.port}`, fp.url);
    expect(r.list).toMatchObject({ status: 200, body: { namespaces: [expect.objectContaining({ key: 'default' })] } });
    expect(r.create).toMatchObject({ status: 200, body: { key: 'from-browser' } });
    expect((await http(fp.url, 'GET', '/api/v1/namespaces/from-browser', undefined, bearer(BOOTSTRAP))).status).toBe(200);
  });

  it('keeps pages of other origins out, and every page out when CORS is off', async () => {
    const blocked = { list: { error: 'TypeError' }, create: { error: 'TypeError' } };
    expect(await fromPage(`http://localhost:${other.port}`, fp.url)).toEqual(blocked);
    expect(await fromPage(`http://localhost:${page.port}`, off.url)).toEqual(blocked);
  });
});
