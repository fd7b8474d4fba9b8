/**
 * The OpenFeature OFREP clients from npm, unchanged, against Flagpole's OFREP API (extensions.md, facts §12.2):
 * - @openfeature/ofrep-provider 0.1.3 (its ofrep-core 0.1.4) with @openfeature/server-sdk: one
 *   `POST /ofrep/v1/evaluate/flags/{key}` per evaluation;
 * - @openfeature/ofrep-web-provider 0.4.3 (its ofrep-core 2.3.0) with @openfeature/web-sdk: one bulk
 *   `POST /ofrep/v1/evaluate/flags`, evaluations answered from that, then polling with `If-None-Match`. It runs in
 *   Node here (every dialect; its browser-only parts — localStorage, EventSource, document — are all optional) and in
 *   Chromium (the SQLite pass, like the other browser suites).
 * Also Flipt's own OFREP integration expectations against its readonly data (facts §13.5), and authentication.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ErrorCode, OpenFeature, StandardResolutionReasons } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import {
  ClientProviderStatus,
  OpenFeature as WebOpenFeature,
  ProviderEvents as WebProviderEvents,
  type Client as WebClient,
  type EvaluationContext as WebContext,
} from '@openfeature/web-sdk';
import { OFREPWebProvider, type OFREPWebProviderOptions } from '@openfeature/ofrep-web-provider';
import { bearer, BOOTSTRAP, createToken, eventually, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace, READONLY_FLAG_BOOLEAN, recordingProxy, type Api, type FlagSpec, type RecordingProxy, type SegmentSpec } from '../evaluation/fixtures';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, collectPageErrors, launchBrowser } from '../ui/support/browser';
import { harness, ofrepCoreVersionForWeb, openHarness, serveHarness } from './web-provider-page';

jest.setTimeout(60_000);

const FIXED = 'some-fixed-entity-id';
const pad = (i: number) => String(i).padStart(3, '0');

/** The part of Flipt's readonly data that §13.5 reads (as in test/evaluation/flipt-readonly-suite.e2e-spec.ts). */
const readonlySegments: SegmentSpec[] = Array.from({ length: 10 }, (_, i) => ({
  key: `segment_${pad(i + 1)}`,
  constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'in_segment', operator: 'eq', value: `segment_${pad(i + 1)}` }],
}));
const readonlyFlags: FlagSpec[] = [
  {
    key: 'flag_001',
    name: 'FLAG_001',
    description: 'Some Description',
    variants: [{ key: 'variant_001' }, { key: 'variant_002' }],
    rules: readonlySegments.map((s) => ({ segments: [s.key], distributions: [['variant_001', 50], ['variant_002', 50]] as Array<[string, number]> })),
  },
  READONLY_FLAG_BOOLEAN,
];

/** Flags for the value / reason / metadata mapping, in namespace `ofrep`. */
const GREEN = '{"hex":"#00ff00","tags":["a","b"]}';
const mappingSegments: SegmentSpec[] = [
  { key: 'adults', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
  { key: 'beta', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }] },
  { key: 'everyone' },
];
const mappingFlags: FlagSpec[] = [
  { key: 'bool-rollout', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['adults'], value: true } }] },
  { key: 'bool-on', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
  {
    key: 'color',
    variants: [{ key: 'blue' }, { key: 'green', attachment: GREEN }],
    rules: [{ segments: ['beta'], distributions: [['green', 100]] }],
  },
  { key: 'color-disabled', enabled: false, variants: [{ key: 'x' }], rules: [{ segments: ['everyone'], distributions: [['x', 100]] }] },
  { key: 'color-default', variants: [{ key: 'fallback' }], defaultVariant: 'fallback' },
];

const flagPath = (ns: string, key: string) => `/api/v1/namespaces/${ns}/flags/${key}`;

async function setEnabled(api: Api, ns: string, key: string, enabled: boolean): Promise<void> {
  const r = await api.put(flagPath(ns, key), { name: key, description: '', enabled });
  expect({ status: r.status, body: r.body }).toMatchObject({ status: 200, body: { enabled } });
}

let domains = 0;
/** The server provider under its own OpenFeature domain, so each test's options stay apart. */
async function serverClient(options: ConstructorParameters<typeof OFREPProvider>[0]) {
  const domain = `server-${domains++}`;
  await OpenFeature.setProviderAndWait(domain, new OFREPProvider(options));
  return OpenFeature.getClient(domain);
}

/** The web provider in Node: no persistence (there is no localStorage here), everything else as shipped. */
async function webClient(baseUrl: string, options: Partial<OFREPWebProviderOptions>, context: WebContext): Promise<WebClient> {
  const domain = `web-${domains++}`;
  await WebOpenFeature.setProviderAndWait(domain, new OFREPWebProvider({ baseUrl, cacheMode: 'disabled', ...options }), context);
  return WebOpenFeature.getClient(domain);
}

describe('OFREP with the real OpenFeature clients', () => {
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    for (const key of ['default', 'production']) {
      await buildNamespace(api, {
        key,
        segments: readonlySegments,
        // `where` tells the namespaces apart: on in default, off in production
        flags: [...readonlyFlags, { key: 'where', type: 'BOOLEAN_FLAG_TYPE', enabled: key === 'default' }],
      });
    }
    await buildNamespace(api, { key: 'ofrep', segments: mappingSegments, flags: mappingFlags });
  });
  afterAll(async () => {
    await OpenFeature.close();
    await WebOpenFeature.close();
    await fp?.close();
  });

  describe('@openfeature/ofrep-provider (server SDK): one request per evaluation', () => {
    let of: Awaited<ReturnType<typeof serverClient>>;
    beforeAll(async () => {
      of = await serverClient({ baseUrl: fp.url, headers: { 'X-Flipt-Namespace': 'ofrep' } });
    });

    it('boolean, a rollout matches (typed context values: a number) → its value, TARGETING_MATCH', async () => {
      const d = await of.getBooleanDetails('bool-rollout', false, { targetingKey: 'u1', age: 21 });
      expect(d).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH, variant: 'true' });
      expect(d.errorCode).toBeUndefined();
    });

    it('boolean, no rollout matches → the flag’s enabled state, DEFAULT', async () => {
      expect(await of.getBooleanDetails('bool-rollout', true, { targetingKey: 'u1', age: 12 })).toMatchObject({
        value: false, reason: StandardResolutionReasons.DEFAULT, variant: 'false',
      });
      expect(await of.getBooleanDetails('bool-on', false, { targetingKey: 'u1' })).toMatchObject({
        value: true, reason: StandardResolutionReasons.DEFAULT, variant: 'true',
      });
      expect(await of.getBooleanValue('bool-on', false)).toBe(true);
    });

    it('string, a rule matches (a boolean context value) → the variant key as value and variant; segments and attachment in the metadata', async () => {
      const d = await of.getStringDetails('color', 'none', { targetingKey: 'u1', beta: true });
      expect(d).toMatchObject({ value: 'green', variant: 'green', reason: StandardResolutionReasons.TARGETING_MATCH });
      expect(d.flagMetadata).toMatchObject({ segments: 'beta' });
      expect(JSON.parse(String(d.flagMetadata.attachment))).toEqual(JSON.parse(GREEN));
    });

    it('string, Flipt’s default variant → its key, DEFAULT', async () => {
      expect(await of.getStringDetails('color-default', 'mine', { targetingKey: 'u1' })).toMatchObject({
        value: 'fallback', variant: 'fallback', reason: StandardResolutionReasons.DEFAULT,
      });
    });

    // The server answers a value in every case, as Flipt (no variant: ""), and this client hands it on: the caller
    // gets "" rather than its default. Omitting the value (OFREP ADR-0006) would make this client fail with GENERAL.
    it('string, disabled flag → "", DISABLED', async () => {
      const d = await of.getStringDetails('color-disabled', 'none', { targetingKey: 'u1' });
      expect(d).toMatchObject({ value: '', variant: '', reason: StandardResolutionReasons.DISABLED });
      expect(d.errorCode).toBeUndefined();
    });

    it('string, no rule matches → "", UNKNOWN', async () => {
      const d = await of.getStringDetails('color', 'none', { targetingKey: 'u1', beta: false });
      expect(d).toMatchObject({ value: '', variant: '', reason: StandardResolutionReasons.UNKNOWN });
      expect(d.errorCode).toBeUndefined();
    });

    it('object: a variant flag’s value is its key, a string, so an object read is TYPE_MISMATCH (the attachment travels as metadata)', async () => {
      expect(await of.getObjectDetails('color', { d: 1 }, { targetingKey: 'u1', beta: true })).toMatchObject({
        value: { d: 1 }, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.TYPE_MISMATCH,
      });
    });

    it('the client checks the value’s type: a boolean flag read as a string, a string flag read as a number → TYPE_MISMATCH, caller’s default', async () => {
      expect(await of.getStringDetails('bool-on', 'x', { targetingKey: 'u1' })).toMatchObject({
        value: 'x', reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.TYPE_MISMATCH,
      });
      expect(await of.getNumberDetails('color', 7, { targetingKey: 'u1', beta: true })).toMatchObject({
        value: 7, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.TYPE_MISMATCH,
      });
    });

    it('a missing flag → FLAG_NOT_FOUND with the server’s details, the caller’s default', async () => {
      const d = await of.getBooleanDetails('nope', true, { targetingKey: 'u1' });
      expect(d).toMatchObject({ value: true, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.FLAG_NOT_FOUND });
      expect(d.errorMessage).toContain('nope');
    });

    it('the namespace comes from the provider’s headers: X-Flipt-Namespace, X-Flagpole-Namespace, none → default', async () => {
      const flipt = await serverClient({ baseUrl: fp.url, headers: { 'X-Flipt-Namespace': 'production' } });
      const own = await serverClient({ baseUrl: fp.url, headers: [['X-Flagpole-Namespace', 'production']] });
      const none = await serverClient({ baseUrl: fp.url });
      expect(await flipt.getBooleanDetails('where', true, { targetingKey: 'u' })).toMatchObject({ value: false, reason: 'DEFAULT' });
      expect(await own.getBooleanDetails('where', true, { targetingKey: 'u' })).toMatchObject({ value: false, reason: 'DEFAULT' });
      expect(await none.getBooleanDetails('where', false, { targetingKey: 'u' })).toMatchObject({ value: true, reason: 'DEFAULT' });
      // `where` is not in `ofrep`
      expect(await of.getBooleanDetails('where', true, { targetingKey: 'u' })).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND });
    });
  });

  describe('@openfeature/ofrep-web-provider in Node: bulk evaluation, ETag polling', () => {
    let proxy: RecordingProxy;
    beforeAll(async () => {
      proxy = await recordingProxy(fp.url);
    });
    afterAll(() => proxy?.close());

    const bulkCalls = () => proxy.exchanges.filter((e) => e.method === 'POST' && e.url.split('?')[0] === '/ofrep/v1/evaluate/flags');

    it('the web provider’s own ofrep-core is 2.x (npm keeps the server provider’s 0.1.x beside it)', () => {
      expect(ofrepCoreVersionForWeb()).toMatch(/^2\./);
    });

    it('one bulk request; every flag answered from it with value, variant, reason and metadata', async () => {
      const before = bulkCalls().length;
      const c = await webClient(proxy.url, { headers: [['X-Flipt-Namespace', 'ofrep']] }, { targetingKey: 'u1', age: 30, beta: true });
      expect(c.getBooleanDetails('bool-rollout', false)).toMatchObject({ value: true, variant: 'true', reason: 'TARGETING_MATCH' });
      expect(c.getBooleanDetails('bool-on', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
      const color = c.getStringDetails('color', 'none');
      expect(color).toMatchObject({ value: 'green', variant: 'green', reason: 'TARGETING_MATCH' });
      expect(color.flagMetadata).toMatchObject({ segments: 'beta' });
      expect(c.getStringDetails('color-default', 'mine')).toMatchObject({ value: 'fallback', reason: 'DEFAULT' });
      // the bulk answer lists boolean flags and enabled variant flags (as Flipt): a disabled variant flag is not there
      expect(c.getStringDetails('color-disabled', 'none')).toMatchObject({ value: 'none', errorCode: 'FLAG_NOT_FOUND' });
      // a key the bulk answer does not hold is the client's FLAG_NOT_FOUND
      expect(c.getBooleanDetails('nope', true)).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
      const calls = bulkCalls().slice(before);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ status: 200 });
      expect(calls[0].requestHeaders['x-flipt-namespace']).toBe('ofrep');
      expect(JSON.parse(calls[0].requestBody)).toEqual({ context: { targetingKey: 'u1', age: 30, beta: true } });
      expect(calls[0].responseHeaders['content-type']).toMatch(/^application\/json/);
      expect(calls[0].responseHeaders.etag).toBeTruthy();
    });

    it('context.flags narrows the bulk answer to the keys listed', async () => {
      const c = await webClient(proxy.url, { headers: [['X-Flipt-Namespace', 'ofrep']] }, { targetingKey: 'u1', flags: 'bool-on, color' });
      expect(c.getBooleanDetails('bool-on', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
      expect(c.getStringDetails('color', 'none')).toMatchObject({ value: '', reason: 'UNKNOWN' });
      expect(c.getBooleanDetails('bool-rollout', true)).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    });

    it('polling sends If-None-Match and gets 304 while nothing changes; a change answers 200 with a new ETag and the client sees it', async () => {
      await buildNamespace(api, { key: 'live-node', flags: [{ key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
      const before = bulkCalls().length;
      const changed: string[][] = [];
      const c = await webClient(
        proxy.url,
        { headers: [['X-Flipt-Namespace', 'live-node']], pollInterval: 200, changeDetection: 'polling' },
        { targetingKey: 'u1' },
      );
      c.addHandler(WebProviderEvents.ConfigurationChanged, (e) => changed.push(e?.flagsChanged ?? []));
      expect(c.getBooleanValue('switch', false)).toBe(true);
      const first = bulkCalls()[before];
      const etag = String(first.responseHeaders.etag);
      expect(etag).toBeTruthy();
      await eventually(() => {
        const polls = bulkCalls().slice(before + 1);
        expect(polls.length).toBeGreaterThanOrEqual(2);
        for (const p of polls) expect({ ifNoneMatch: p.requestHeaders['if-none-match'], status: p.status }).toEqual({ ifNoneMatch: etag, status: 304 });
      }, 5_000);

      await setEnabled(api, 'live-node', 'switch', false);
      await eventually(() => expect(c.getBooleanDetails('switch', true)).toMatchObject({ value: false, reason: 'DEFAULT' }), 5_000);
      expect(changed).toContainEqual(['switch']);
      const refreshed = bulkCalls().slice(before).find((e) => e.status === 200 && e.requestHeaders['if-none-match'] === etag);
      expect(refreshed?.responseHeaders.etag).toBeTruthy();
      expect(refreshed?.responseHeaders.etag).not.toBe(etag);
      // and the new state is stable again: the polls after it get 304 for the new ETag
      const newEtag = String(refreshed?.responseHeaders.etag);
      const count = bulkCalls().length;
      await eventually(() => {
        const later = bulkCalls().slice(count);
        expect(later.length).toBeGreaterThanOrEqual(1);
        expect(later.every((p) => p.status === 304 && p.requestHeaders['if-none-match'] === newEtag)).toBe(true);
      }, 5_000);
    });
  });

  describe.each([
    ['""', ''],
    ['production', 'production'],
  ])('Flipt’s OFREP suite on the readonly data (facts §13.5), X-Flipt-Namespace %s', (_label, ns) => {
    it('provider: flag_boolean {in_segment: segment_001} → true, TARGETING_MATCH', async () => {
      const of = await serverClient({ baseUrl: fp.url, headers: { 'X-Flipt-Namespace': ns } });
      const d = await of.getBooleanDetails('flag_boolean', false, { in_segment: 'segment_001' });
      expect(d).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH });
    });

    it('provider: idontexist → FLAG_NOT_FOUND', async () => {
      const of = await serverClient({ baseUrl: fp.url, headers: { 'X-Flipt-Namespace': ns } });
      expect(await of.getBooleanDetails('idontexist', false, {})).toMatchObject({ value: false, errorCode: ErrorCode.FLAG_NOT_FOUND });
    });

    it('provider: flag_001 {in_segment: segment_005, targetingKey: some-fixed-entity-id} → variant_002, TARGETING_MATCH', async () => {
      const of = await serverClient({ baseUrl: fp.url, headers: { 'X-Flipt-Namespace': ns } });
      const d = await of.getStringDetails('flag_001', '', { in_segment: 'segment_005', targetingKey: FIXED });
      expect(d).toMatchObject({ value: 'variant_002', variant: 'variant_002', reason: StandardResolutionReasons.TARGETING_MATCH });
    });

    it('bulk provider, same contexts → same values', async () => {
      const headers: Array<[string, string]> = [['X-Flipt-Namespace', ns]];
      const bool = await webClient(fp.url, { headers }, { in_segment: 'segment_001' });
      expect(bool.getBooleanDetails('flag_boolean', false)).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
      expect(bool.getBooleanDetails('idontexist', false)).toMatchObject({ value: false, errorCode: 'FLAG_NOT_FOUND' });
      const str = await webClient(fp.url, { headers }, { in_segment: 'segment_005', targetingKey: FIXED });
      expect(str.getStringDetails('flag_001', '')).toMatchObject({ value: 'variant_002', variant: 'variant_002', reason: 'TARGETING_MATCH' });
    });
  });

  browserDescribe('@openfeature/ofrep-web-provider in Chromium', () => {
    let browser: Browser;
    let page: Page;
    const bulk: Array<{ ifNoneMatch?: string; status: number; etag?: string }> = [];

    beforeAll(async () => {
      browser = await launchBrowser();
      await buildNamespace(api, {
        key: 'browser',
        segments: mappingSegments,
        flags: [{ key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true }, ...mappingFlags],
      });
    });
    afterAll(() => browser?.close());

    async function openPage(): Promise<Page> {
      const p = await (await browser.newContext()).newPage();
      p.on('response', async (res) => {
        if (new URL(res.url()).pathname !== '/ofrep/v1/evaluate/flags') return;
        const [req, headers] = await Promise.all([res.request().allHeaders(), res.allHeaders()]);
        bulk.push({ ifNoneMatch: req['if-none-match'], status: res.status(), etag: headers.etag });
      });
      await openHarness(p, fp.url);
      return p;
    }

    it('bulk evaluation, then ETag polling: 304 while unchanged, a flag change picked up within seconds', async () => {
      page = await openPage();
      const h = harness(page);
      const started = await h.start(
        { headers: [['X-Flipt-Namespace', 'browser']], pollInterval: 500, changeDetection: 'polling' },
        { targetingKey: 'u1', beta: true },
      );
      expect(started).toEqual({ ok: true });
      expect(await h.status()).toBe('READY');
      expect(await h.details('Boolean', 'switch', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
      expect(await h.details('String', 'color', 'none')).toMatchObject({ value: 'green', variant: 'green', reason: 'TARGETING_MATCH' });
      expect(await h.details('Boolean', 'nope', true)).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });

      await eventually(() => expect(bulk.length).toBeGreaterThan(0));
      const etag = bulk[0].etag;
      expect(bulk[0]).toMatchObject({ status: 200, ifNoneMatch: undefined });
      expect(etag).toBeTruthy();
      await eventually(() => expect(bulk.slice(1)).toContainEqual({ ifNoneMatch: etag, status: 304, etag: expect.anything() }), 5_000);

      await setEnabled(api, 'browser', 'switch', false);
      await eventually(async () => expect(await h.details('Boolean', 'switch', true)).toMatchObject({ value: false, reason: 'DEFAULT' }), 5_000);
      expect(await h.changes()).toContainEqual(['switch']);
      const refreshed = bulk.find((b) => b.status === 200 && b.ifNoneMatch === etag);
      expect(refreshed?.etag).toBeTruthy();
      expect(refreshed?.etag).not.toBe(etag);
      await h.close();
    });

    it('a reload starts from the browser’s cache and revalidates it with the stored ETag (304: same state, same ETag)', async () => {
      await setEnabled(api, 'browser', 'switch', true);
      const p = await (await browser.newContext()).newPage();
      const seen: Array<{ ifNoneMatch?: string; status: number; etag?: string }> = [];
      p.on('response', async (res) => {
        if (new URL(res.url()).pathname !== '/ofrep/v1/evaluate/flags') return;
        const [req, headers] = await Promise.all([res.request().allHeaders(), res.allHeaders()]);
        seen.push({ ifNoneMatch: req['if-none-match'], status: res.status(), etag: headers.etag });
      });
      const options = { headers: [['X-Flipt-Namespace', 'browser']] };
      await openHarness(p, fp.url);
      expect(await harness(p).start(options, { targetingKey: 'u2' })).toEqual({ ok: true });
      await eventually(() => expect(seen).toHaveLength(1));
      expect(seen[0]).toMatchObject({ status: 200 });

      await p.reload();
      await p.waitForFunction(() => (globalThis as any).ofrepReady === true);
      expect(await harness(p).start(options, { targetingKey: 'u2' })).toEqual({ ok: true });
      expect(await harness(p).details('Boolean', 'switch', false)).toMatchObject({ value: true, reason: 'CACHED' });
      await eventually(() => expect(seen[1]).toEqual({ ifNoneMatch: seen[0].etag, status: 304, etag: expect.anything() }));
    });

    describe('from a page on another origin (cors.enabled)', () => {
      let cors: RunningFlagpole;
      let context: BrowserContext;
      let app: Awaited<ReturnType<typeof serveHarness>>;
      beforeAll(async () => {
        [cors, app] = await Promise.all([startFlagpole({ FLAGPOLE_CORS_ENABLED: 'true' }), serveHarness()]);
        await buildNamespace(client(cors.url), { key: 'default', flags: [{ key: 'switch', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
        context = await browser.newContext();
      });
      // the browser's connections first: the server's close waits for them
      afterAll(async () => {
        await context?.close();
        await Promise.all([cors?.close(), app?.close()]);
      });

      /** A page from the harness's own server, recording the bulk calls it makes to Flagpole. */
      async function crossOriginPage() {
        const p = await context.newPage();
        const bulkCalls: Array<{ ifNoneMatch?: string; status: number }> = [];
        p.on('response', async (res) => {
          if (new URL(res.url()).pathname !== '/ofrep/v1/evaluate/flags' || res.request().method() !== 'POST') return;
          const req = await res.request().allHeaders();
          bulkCalls.push({ ifNoneMatch: req['if-none-match'], status: res.status() });
        });
        const errors = collectPageErrors(p);
        await p.goto(app.url);
        await p.waitForFunction(() => (globalThis as any).ofrepReady === true);
        const h = harness(p);
        const started = await h.start({ baseUrl: cors.url, pollInterval: 300, changeDetection: 'polling' }, { targetingKey: 'u' });
        expect({ started, errors }).toEqual({ started: { ok: true }, errors: [] });
        return { h, bulkCalls };
      }

      it('bulk evaluation and polling work cross-origin; a change is picked up within seconds', async () => {
        const { h } = await crossOriginPage();
        expect(await h.details('Boolean', 'switch', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
        await setEnabled(client(cors.url), 'default', 'switch', false);
        await eventually(async () => expect(await h.details('Boolean', 'switch', true)).toMatchObject({ value: false, reason: 'DEFAULT' }), 5_000);
        await h.close();
      });

      // CORS must expose the ETag and allow If-None-Match, or every cross-origin poll is a full 200.
      it('cross-origin polls are revalidated with the ETag (304 while unchanged)', async () => {
        const { h, bulkCalls } = await crossOriginPage();
        try {
          await eventually(() => expect(bulkCalls.length).toBeGreaterThanOrEqual(3), 5_000);
          expect(bulkCalls.slice(1)).toContainEqual({ ifNoneMatch: expect.any(String), status: 304 });
        } finally {
          await h.close();
        }
      });
    });
  });
});

describe('OFREP clients and authentication (static token required)', () => {
  let fp: RunningFlagpole;
  let open: RunningFlagpole;

  beforeAll(async () => {
    [fp, open] = await Promise.all([
      startFlagpole(TOKEN_REQUIRED),
      startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_OFREP: 'true' }),
    ]);
    for (const f of [fp, open]) {
      await buildNamespace(client(f.url, bearer(BOOTSTRAP)), { key: 'default', flags: [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
    }
  });
  afterAll(async () => {
    await OpenFeature.close();
    await WebOpenFeature.close();
    await Promise.all([fp?.close(), open?.close()]);
  });

  it('server provider with the bootstrap token or a created token in `headers` → evaluates', async () => {
    const withBootstrap = await serverClient({ baseUrl: fp.url, headers: bearer(BOOTSTRAP) });
    expect(await withBootstrap.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({ value: true, reason: 'DEFAULT' });
    const { clientToken } = await createToken(client(fp.url));
    const withToken = await serverClient({ baseUrl: fp.url, headersFactory: () => bearer(clientToken) });
    expect(await withToken.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({ value: true, reason: 'DEFAULT' });
  });

  it('server provider without a token, or with a wrong one → 401, which this client reports as an ERROR (GENERAL), caller’s default', async () => {
    for (const headers of [{}, bearer('not-a-token')]) {
      const of = await serverClient({ baseUrl: fp.url, headers });
      expect(await of.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({
        value: false, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.GENERAL,
      });
    }
  });

  it('web provider without a token → initialisation fails with PROVIDER_FATAL; with one → ready', async () => {
    const domain = `web-${domains++}`;
    await expect(WebOpenFeature.setProviderAndWait(domain, new OFREPWebProvider({ baseUrl: fp.url, cacheMode: 'disabled' }), { targetingKey: 'u' }))
      .rejects.toMatchObject({ code: 'PROVIDER_FATAL' });
    const c = WebOpenFeature.getClient(domain);
    expect(c.providerStatus).toBe(ClientProviderStatus.FATAL);
    expect(c.getBooleanDetails('on', false)).toMatchObject({ value: false, reason: 'ERROR', errorCode: 'PROVIDER_FATAL' });

    const ok = await webClient(fp.url, { headers: [['Authorization', `Bearer ${BOOTSTRAP}`]] }, { targetingKey: 'u' });
    expect(ok.getBooleanDetails('on', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
  });

  it('a namespace-scoped token: its namespace evaluates, another is refused (server provider: ERROR; web provider: PROVIDER_FATAL)', async () => {
    const api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'other', flags: [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] });
    const { clientToken } = await createToken(api, { namespaceKey: 'default' });
    const auth = bearer(clientToken);
    const inside = await serverClient({ baseUrl: fp.url, headers: auth });
    expect(await inside.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({ value: true, reason: 'DEFAULT' });
    const outside = await serverClient({ baseUrl: fp.url, headers: { ...auth, 'X-Flipt-Namespace': 'other' } });
    expect(await outside.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({ value: false, reason: 'ERROR', errorCode: ErrorCode.GENERAL });

    const headers: Array<[string, string]> = [['Authorization', auth.authorization]];
    const web = await webClient(fp.url, { headers }, { targetingKey: 'u' });
    expect(web.getBooleanDetails('on', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
    const domain = `web-${domains++}`;
    const refused = new OFREPWebProvider({ baseUrl: fp.url, cacheMode: 'disabled', headers: [...headers, ['X-Flipt-Namespace', 'other']] });
    await expect(WebOpenFeature.setProviderAndWait(domain, refused, { targetingKey: 'u' })).rejects.toMatchObject({ code: 'PROVIDER_FATAL' });
  });

  it('authentication.exclude.ofrep: both clients work without a token, the management API still asks for one', async () => {
    const of = await serverClient({ baseUrl: open.url });
    expect(await of.getBooleanDetails('on', false, { targetingKey: 'u' })).toMatchObject({ value: true, reason: 'DEFAULT' });
    const web = await webClient(open.url, {}, { targetingKey: 'u' });
    expect(web.getBooleanDetails('on', false)).toMatchObject({ value: true, reason: 'DEFAULT' });
    expect((await client(open.url).get('/api/v1/namespaces')).status).toBe(401);
  });
});
