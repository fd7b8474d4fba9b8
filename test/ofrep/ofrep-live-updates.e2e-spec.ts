/**
 * Live updates to the real @openfeature/ofrep-web-provider 0.4.3 (with @openfeature/web-sdk, unchanged) in Chromium
 * through OFREP's event streams (docs/api.md "Event streams"): the bulk answer advertises
 * `/ofrep/v1/_stream/{ns}/events`, the provider opens it with the browser's own EventSource and refetches the bulk on
 * each `refetchEvaluation` event. Checked here: with polling off, every write through the REST API reaches the page's
 * evaluations, which only the stream can bring (the delays are printed); a stream the connection's far end closes is
 * resumed with Last-Event-ID and the write missed meanwhile still arrives; with authentication required, from a page on
 * another origin, the stream is opened with the stream ticket the bulk answer's URL carries (EventSource cannot send
 * the provider's Authorization header), and a flip reaches the page through it rather than by polling.
 */
import { createServer, request, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, createToken, eventually, sleep, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace, nsPath, ok, type Api, type Built, type FlagSpec } from '../evaluation/fixtures';
import { client, type RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, launchBrowser } from '../ui/support/browser';
import { harness, openHarness, serveHarness } from './web-provider-page';

jest.setTimeout(60_000);

const BULK = '/ofrep/v1/evaluate/flags';
const STREAM_PREFIX = '/ofrep/v1/_stream/';
/**
 * How long a wait for the page to see a value may last before the test gives up: it never should. A write is seen
 * within 20–150 ms on an idle machine; that is printed, not asserted (bench/streams.js measures the delivery time).
 * With polling off, any arrival at all came through the stream.
 */
const GIVE_UP_MS = 20_000;

const flags: FlagSpec[] = [
  { key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
  { key: 'colour', variants: [{ key: 'red' }, { key: 'blue' }], defaultVariant: 'red' },
];

async function setSwitch(api: Api, ns: string, enabled: boolean): Promise<void> {
  ok(await api.put(`${nsPath(ns)}/flags/switch`, { name: 'switch', description: '', enabled }), 'update switch');
}

async function setColour(api: Api, ns: string, built: Built, colour: 'red' | 'blue'): Promise<void> {
  const body = { name: 'colour', description: '', enabled: true, defaultVariantId: built.variants.colour[colour] };
  ok(await api.put(`${nsPath(ns)}/flags/colour`, body), 'update colour');
}

interface Seen {
  method: string;
  path: string;
  query: string;
  status: number;
  ifNoneMatch?: string;
}

/** A fresh context (no cached flags from another test) with the harness on `base`, recording its OFREP traffic. */
async function openPage(browser: Browser, base: string): Promise<{ page: Page; seen: Seen[] }> {
  const page = await (await browser.newContext()).newPage();
  const seen: Seen[] = [];
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/ofrep/')) return;
    const req = await res.request().allHeaders();
    seen.push({ method: res.request().method(), path: url.pathname, query: url.search, status: res.status(), ifNoneMatch: req['if-none-match'] });
  });
  await openHarness(page, base);
  return { page, seen };
}

/**
 * Resolves once the page's provider answers `expected` for the flag; returns the milliseconds since `since`. Checked
 * in the page every few milliseconds, so the measure is the provider's delay, not the test's polling.
 */
async function delayUntil(page: Page, type: 'Boolean' | 'String', key: string, expected: unknown, since: number, timeout = GIVE_UP_MS): Promise<number> {
  // The fallback has the flag's type (the provider answers TYPE_MISMATCH otherwise) and differs from the value awaited.
  const fallback = type === 'Boolean' ? !expected : '';
  await page.waitForFunction(
    ([t, k, f, e]) => (globalThis as any).ofrepHarness.details(t, k, f).value === e,
    [type, key, fallback, expected] as const,
    { polling: 5, timeout },
  );
  return Date.now() - since;
}

async function openStreams(base: string, token?: string): Promise<number> {
  const text = (await client(base, token ? bearer(token) : {}).get('/metrics')).text;
  return Number(/^flagpole_event_streams (\d+)$/m.exec(text)?.[1] ?? NaN);
}

interface ProxiedStream {
  lastEventId?: string;
  /** The `id:` lines the server sent on it, in order. */
  ids: string[];
}

/**
 * A pass-through HTTP proxy in front of Flagpole that can play the part of a load balancer dropping long-lived
 * connections: `cut()` ends the open event streams and holds new stream requests until `release()` forwards them.
 * Holding makes the test deterministic: the write happens while the browser is certainly without a stream.
 */
async function streamCuttingProxy(target: string) {
  const upstream = new URL(target);
  const streams: ProxiedStream[] = [];
  const open = new Set<{ res: ServerResponse; out: ClientRequest }>();
  let held: Array<() => void> | null = null;

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const isStream = (req.url ?? '').startsWith(STREAM_PREFIX);
    const record: ProxiedStream | undefined = isStream ? { lastEventId: req.headers['last-event-id'] as string | undefined, ids: [] } : undefined;
    if (record) streams.push(record);
    const options = { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } };
    const out = request(options, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      if (!record) return void up.pipe(res);
      const entry = { res, out };
      open.add(entry);
      res.on('close', () => {
        open.delete(entry);
        out.destroy();
      });
      up.on('data', (chunk: Buffer) => {
        for (const m of chunk.toString('utf8').matchAll(/^id: (.*)$/gm)) record.ids.push(m[1]);
        res.write(chunk);
      });
      up.on('end', () => res.end());
    });
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    out.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const go = () => forward(req, res, Buffer.concat(chunks));
      if (held && (req.url ?? '').startsWith(STREAM_PREFIX)) held.push(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    streams,
    heldCount: () => held?.length ?? 0,
    cut() {
      held = [];
      for (const { res, out } of open) {
        res.end();
        out.destroy();
      }
    },
    release() {
      const waiting = held ?? [];
      held = null;
      waiting.forEach((go) => go());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

browserDescribe('OFREP web provider in Chromium: live updates through the event stream', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  describe('authentication off', () => {
    let fp: RunningFlagpole;
    let api: Api;

    beforeAll(async () => {
      fp = await startFlagpole();
      api = client(fp.url);
    });
    afterAll(() => fp?.close());

    it('with polling off (the default), every write reaches the page through the stream', async () => {
      const built = await buildNamespace(api, { key: 'live', flags });
      const { page, seen } = await openPage(browser, fp.url);
      const h = harness(page);
      expect(await h.start({ headers: [['X-Flipt-Namespace', 'live']] }, { targetingKey: 'u1' })).toEqual({ ok: true });
      expect(await h.status()).toBe('READY');
      expect(await h.details('Boolean', 'switch', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
      expect(await h.details('String', 'colour', 'none')).toMatchObject({ value: 'red', variant: 'red', reason: 'DEFAULT' });
      // The browser's EventSource is connected to the namespace's stream: the server counts it.
      await eventually(async () => expect(await openStreams(fp.url)).toBe(1), 5000);
      // Playwright reports the response after the server has counted the stream: wait for the report too.
      await eventually(
        () =>
          expect(seen.filter((s) => s.path.startsWith(STREAM_PREFIX))).toEqual([
            { method: 'GET', path: `${STREAM_PREFIX}live/events`, query: '', status: 200, ifNoneMatch: undefined },
          ]),
        5000,
      );

      const delays: Array<[string, number]> = [];
      for (let i = 0; i < 5; i++) {
        const enabled = i % 2 === 1;
        await setSwitch(api, 'live', enabled);
        let since = Date.now();
        delays.push([`switch → ${enabled}`, await delayUntil(page, 'Boolean', 'switch', enabled, since)]);

        const colour = i % 2 === 0 ? 'blue' : 'red';
        await setColour(api, 'live', built, colour);
        since = Date.now();
        delays.push([`colour → ${colour}`, await delayUntil(page, 'String', 'colour', colour, since)]);
      }
      console.log(`stream → page delays (ms, from the API's answer): ${delays.map(([what, ms]) => `${what} ${ms}`).join(', ')}`);
      expect((await h.changes()).flat()).toEqual(expect.arrayContaining(['switch', 'colour']));

      // Nothing polled: after the first answer, every bulk request was a refetch the stream asked for (it names the
      // event's ETag) and revalidated the page's own; and none come while nothing changes.
      const bulk = seen.filter((s) => s.path === BULK);
      expect(bulk[0]).toMatchObject({ status: 200, query: '' });
      const refetch = { query: expect.stringMatching(/^\?flagConfigEtag=[A-Za-z0-9_-]+$/), ifNoneMatch: expect.any(String) };
      for (const b of bulk.slice(1)) expect(b).toMatchObject(refetch);
      const count = bulk.length;
      await sleep(1500);
      expect(seen.filter((s) => s.path === BULK)).toHaveLength(count);
      // One stream the whole time.
      expect(seen.filter((s) => s.path.startsWith(STREAM_PREFIX))).toHaveLength(1);
      expect(await openStreams(fp.url)).toBe(1);
      await h.close();
      await page.context().close();
      await eventually(async () => expect(await openStreams(fp.url)).toBe(0), 5000);
    });

    it('a stream dropped on the way reconnects with Last-Event-ID, and the write made while it was down arrives', async () => {
      await buildNamespace(api, { key: 'resume', flags });
      const proxy = await streamCuttingProxy(fp.url);
      try {
        const { page } = await openPage(browser, proxy.url);
        const h = harness(page);
        expect(await h.start({ headers: [['X-Flipt-Namespace', 'resume']] }, { targetingKey: 'u1' })).toEqual({ ok: true });
        await eventually(() => expect(proxy.streams[0]?.ids.length).toBeGreaterThanOrEqual(1), 5000);
        const position = proxy.streams[0].ids.at(-1)!;
        expect(position).toMatch(/^\d+$/);

        // The connection drops; the browser's EventSource reconnects by itself, and its request is held.
        const cutAt = Date.now();
        proxy.cut();
        await eventually(() => expect(proxy.heldCount()).toBe(1), 15_000, 20);
        // The provider tells the app its flags may be stale. (0.4.3 emits nothing when the stream is back, so the SDK
        // keeps reporting STALE after the resume: not checked there.)
        expect(await h.status()).toBe('STALE');
        console.log(`EventSource reconnected ${Date.now() - cutAt} ms after the stream ended`);

        await setSwitch(api, 'resume', false);
        // No stream and no polling: the page cannot know yet.
        await sleep(500);
        expect(await h.details('Boolean', 'switch', true)).toMatchObject({ value: true });

        const releasedAt = Date.now();
        proxy.release();
        const delay = await delayUntil(page, 'Boolean', 'switch', false, releasedAt);
        console.log(`resumed stream → page delay: ${delay} ms`);
        // The reconnection named the last id it had heard, and the server answered at once with a newer one.
        expect(proxy.streams).toHaveLength(2);
        expect(proxy.streams[1].lastEventId).toBe(position);
        expect(Number(proxy.streams[1].ids[0])).toBeGreaterThan(Number(position));

        // And it stays live after the resume.
        await setSwitch(api, 'resume', true);
        console.log(`after the resume → page delay: ${await delayUntil(page, 'Boolean', 'switch', true, Date.now())} ms`);
        await h.close();
        await page.context().close();
      } finally {
        await proxy.close();
      }
    });
  });

  describe('authentication required, page on another origin (static token in the provider’s headers)', () => {
    let fp: RunningFlagpole;
    let api: Api;
    let app: Awaited<ReturnType<typeof serveHarness>>;

    beforeAll(async () => {
      [fp, app] = await Promise.all([startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_CORS_ENABLED: 'true' }), serveHarness()]);
      api = client(fp.url, bearer(BOOTSTRAP));
      await buildNamespace(api, { key: 'secure', flags });
    });
    afterAll(() => Promise.all([fp?.close(), app?.close()]));

    // EventSource cannot send the provider's Authorization header: the stream URL of the bulk answer carries a stream
    // ticket instead (docs/api.md "Stream tickets"), so the page streams rather than polls.
    it('the EventSource opens the ticketed stream URL, and a flip reaches the page through it, not by a poll', async () => {
      const { clientToken } = await createToken(api);
      const page = await (await browser.newContext()).newPage();
      const seen: Seen[] = [];
      page.on('response', async (res) => {
        const url = new URL(res.url());
        if (url.origin !== fp.url || !url.pathname.startsWith('/ofrep/')) return;
        const req = await res.request().allHeaders();
        seen.push({ method: res.request().method(), path: url.pathname, query: url.search, status: res.status(), ifNoneMatch: req['if-none-match'] });
      });
      await page.goto(app.url);
      await page.waitForFunction(() => (globalThis as any).ofrepReady === true);
      expect(new URL(page.url()).origin).not.toBe(fp.url);
      const h = harness(page);
      // pollInterval left at its default (0): polling off.
      const headers = [['Authorization', `Bearer ${clientToken}`], ['X-Flipt-Namespace', 'secure']];
      expect(await h.start({ baseUrl: fp.url, headers }, { targetingKey: 'u1' })).toEqual({ ok: true });
      expect(await h.details('Boolean', 'switch', false)).toMatchObject({ value: true, reason: 'DEFAULT' });

      // The stream was opened with the ticket and accepted, and the server holds it open.
      const ticketed = { method: 'GET', path: `${STREAM_PREFIX}secure/events`, query: expect.stringMatching(/^\?ticket=[\w.-]+$/), status: 200, ifNoneMatch: undefined };
      await eventually(() => expect(seen.filter((s) => s.path.startsWith(STREAM_PREFIX))).toEqual([ticketed]), 5000);
      await eventually(async () => expect(await openStreams(fp.url, clientToken)).toBe(1), 5000);
      const bulkBefore = seen.filter((s) => s.path === BULK && s.method === 'POST').length;
      expect(bulkBefore).toBe(1);

      await setSwitch(api, 'secure', false);
      const since = Date.now();
      const delay = await delayUntil(page, 'Boolean', 'switch', false, since);
      console.log(`cross-origin, authenticated: stream (ticket) → page delay: ${delay} ms`);
      // Between the flip and the update, the one bulk request was the refetch the stream's event asked for (it names
      // the event's ETag): nothing polled, and the stream was never refused or reopened.
      await eventually(() => expect(seen.filter((s) => s.path === BULK && s.method === 'POST').length).toBe(bulkBefore + 1), 5000);
      const after = seen.filter((s) => s.path === BULK && s.method === 'POST').slice(bulkBefore);
      expect(after).toEqual([expect.objectContaining({ status: 200, query: expect.stringMatching(/^\?flagConfigEtag=[A-Za-z0-9_-]+$/) })]);
      expect(seen.filter((s) => s.path.startsWith(STREAM_PREFIX))).toEqual([ticketed]);
      expect(await openStreams(fp.url, clientToken)).toBe(1);
      expect(await h.status()).toBe('READY');
      expect(await h.errors()).toEqual([]);
      expect(await h.changes()).toContainEqual(['switch']);
      await h.close();
      await page.context().close();
    });
  });
});
