/**
 * A page on which Chromium runs the real @openfeature/ofrep-web-provider with @openfeature/web-sdk, unchanged and
 * unbundled: the packages' own ES module files from node_modules, tied together by an import map. Playwright serves
 * the page and those files on Flagpole's own origin (only paths under /__ofrep-page/ are intercepted), so the
 * provider's requests are same-origin and reach the real server untouched, as they would from an app Flagpole serves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');
const MODULES = join(ROOT, 'node_modules', '@openfeature');
const PREFIX = '/__ofrep-page/';

/** The web provider's own copy of ofrep-core (2.x) when npm nested it beside the server provider's 0.1.x. */
function ofrepCoreForWeb(): string {
  const nested = join(MODULES, 'ofrep-web-provider', 'node_modules', '@openfeature', 'ofrep-core');
  return existsSync(nested) ? nested : join(MODULES, 'ofrep-core');
}

/** Bare specifier → file served for it. */
function moduleFiles(): Record<string, string> {
  return {
    '@openfeature/core': join(MODULES, 'core', 'dist', 'esm', 'index.js'),
    '@openfeature/web-sdk': join(MODULES, 'web-sdk', 'dist', 'esm', 'index.js'),
    '@openfeature/ofrep-core': join(ofrepCoreForWeb(), 'index.esm.js'),
    '@openfeature/ofrep-web-provider': join(MODULES, 'ofrep-web-provider', 'index.esm.js'),
  };
}

export function ofrepCoreVersionForWeb(): string {
  return JSON.parse(readFileSync(join(ofrepCoreForWeb(), 'package.json'), 'utf8')).version;
}

const servedName = (specifier: string) => specifier.replace('@openfeature/', '') + '.js';

/**
 * The page's own script only wires the SDK to `window.ofrepHarness` for the test to drive: start a provider with the
 * given options and context, read a flag's details, list the ConfigurationChanged events seen, read the status.
 */
function pageHtml(): string {
  const imports = Object.fromEntries(Object.keys(moduleFiles()).map((s) => [s, PREFIX + servedName(s)]));
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>OFREP web provider</title>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module">
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
const changes = [];
const errors = [];
OpenFeature.addHandler(ProviderEvents.ConfigurationChanged, (e) => changes.push(e.flagsChanged ?? []));
OpenFeature.addHandler(ProviderEvents.Error, (e) => errors.push(e.message ?? ''));
window.ofrepHarness = {
  async start(options, context) {
    try {
      await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl: location.origin, ...options }), context);
      return { ok: true };
    } catch (e) {
      return { error: String(e) };
    }
  },
  details(type, key, fallback) {
    const d = OpenFeature.getClient()['get' + type + 'Details'](key, fallback);
    return { value: d.value, variant: d.variant, reason: d.reason, errorCode: d.errorCode, flagMetadata: { ...d.flagMetadata } };
  },
  status: () => OpenFeature.getClient().providerStatus,
  changes: () => changes,
  errors: () => errors,
  close: () => OpenFeature.close(),
};
window.ofrepReady = true;
</script></head><body>OFREP web provider harness</body></html>`;
}

/** The harness's files: path → content type and body; anything else is a 404. */
function harnessFile(path: string): { type: string; body: string } | undefined {
  if (path === PREFIX) return { type: 'text/html; charset=utf-8', body: pageHtml() };
  const file = Object.entries(moduleFiles()).find(([s]) => PREFIX + servedName(s) === path)?.[1];
  return file === undefined ? undefined : { type: 'text/javascript; charset=utf-8', body: readFileSync(file, 'utf8') };
}

/** Serves the harness at `${base}/__ofrep-page/` on `page` and opens it; resolves once its modules have loaded. */
export async function openHarness(page: Page, base: string): Promise<void> {
  await page.route(
    (url) => url.origin === base && url.pathname.startsWith(PREFIX),
    async (route) => {
      const found = harnessFile(new URL(route.request().url()).pathname);
      if (!found) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ status: 200, contentType: found.type, body: found.body });
    },
  );
  await page.goto(base + PREFIX);
  await page.waitForFunction(() => (globalThis as unknown as { ofrepReady?: boolean }).ofrepReady === true);
}

/**
 * The harness from a real HTTP server of its own on loopback, for a page on another origin than Flagpole's. (A page
 * Playwright answers itself counts as public to Chromium, which then refuses its requests to a loopback address.)
 */
export async function serveHarness(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const found = harnessFile(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(found ? 200 : 404, { 'content-type': found?.type ?? 'text/plain' });
    res.end(found?.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PREFIX}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Details {
  value: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
  flagMetadata: Record<string, unknown>;
}

type FlagType = 'Boolean' | 'String' | 'Number' | 'Object';

/**
 * The page's harness, called from the test. Each function is sent to the browser as source text, so it names the
 * page's global through `globalThis` (the test code compiles without the DOM library).
 */
export function harness(page: Page) {
  return {
    start: (options: Record<string, unknown>, context: Record<string, unknown>) =>
      page.evaluate(([o, c]) => (globalThis as any).ofrepHarness.start(o, c), [options, context] as const) as Promise<{ ok?: true; error?: string }>,
    details: (type: FlagType, key: string, fallback: unknown) =>
      page.evaluate(([t, k, f]) => (globalThis as any).ofrepHarness.details(t, k, f), [type, key, fallback] as const) as Promise<Details>,
    status: () => page.evaluate(() => (globalThis as any).ofrepHarness.status()) as Promise<string>,
    changes: () => page.evaluate(() => (globalThis as any).ofrepHarness.changes()) as Promise<string[][]>,
    errors: () => page.evaluate(() => (globalThis as any).ofrepHarness.errors()) as Promise<string[]>,
    close: () => page.evaluate(() => (globalThis as any).ofrepHarness.close()) as Promise<void>,
  };
}
