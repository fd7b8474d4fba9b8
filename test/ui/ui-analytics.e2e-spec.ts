/**
 * Issue 40, evaluation analytics in the web UI, in Chromium against a real Flagpole with analytics on
 * (`FLAGPOLE_ANALYTICS_ENABLED=true`) and authentication required, in a Berlin browser. Counts come from real
 * evaluations, written by the instance's flush (called by the test: its timer's 10 s is too long to wait for), and
 * from rows stored at chosen minutes before now, so that the ranges differ:
 *  - a variant flag's Analytics tab: the total of the range chosen (kept in the address), the chart drawn, the
 *    breakdown by variant with shares, the last evaluation in the zone Times chose; another range, another total;
 *  - the tab reads again by itself every few seconds (the page's clock moved, Playwright's), but not while the
 *    browser tab is hidden, and once when it shows again;
 *  - a boolean flag's breakdown by value; a flag never evaluated says "No evaluations in this range." and "Never";
 *  - the flags list's usage column: each flag's total over the last day, its last evaluation as the cell's title,
 *    read in one request for the page;
 *  - with analytics off, neither the tab (its address shows the details) nor the column, and no analytics request.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-40/ (FLAGPOLE_ANALYTICS_SHOTS); none may scroll
 * sideways.
 */
import type { Page } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { ANALYTICS_ON, flush, MINUTE, store, totals } from '../analytics/support';
import { buildNamespace } from '../evaluation/fixtures';
import { client, startFlagpole } from '../support/flagpole';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(180_000);

const SHOTS = process.env.FLAGPOLE_ANALYTICS_SHOTS ?? '/tmp/shots-40';
const BERLIN = { timezoneId: 'Europe/Berlin' };
const DAY = 24 * 60 * MINUTE;

/** Rows stored before the test, as [minutes ago, variant, count]: none near 30 or 60 minutes, the ranges' edges. */
const STORED: Array<[number, string, number]> = [
  [55, 'blue', 2],
  [45, 'green', 3],
  [40, 'blue', 4],
  [35, 'green', 1],
  [25, 'blue', 5],
  [20, 'green', 6],
  [15, 'blue', 2],
  [10, 'green', 4],
  [5, 'blue', 3],
  [3 * 24 * 60, 'blue', 20],
  [5 * 24 * 60, 'green', 12],
];

/** The stored rows of `variant` (all when undefined) less than `minutes` ago. */
const storedWithin = (minutes: number, variant?: string) =>
  STORED.filter(([ago, v]) => ago < minutes && (variant === undefined || v === variant)).reduce((n, [, , count]) => n + count, 0);

/** `2026-12-07 11:41` in Berlin, as the UI writes a date-time in local time there. */
const berlin = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );

/** Compiles away: page functions run in the browser (see support/browser). */
interface InPage {
  document: { visibilityState: string; dispatchEvent(e: unknown): void };
  Event: new (type: string, init: { bubbles: boolean }) => unknown;
}

/** Makes the page believe its browser tab is hidden (or shown again), as switching tabs would. */
function setHidden(page: Page, hidden: boolean): Promise<void> {
  return page.evaluate((h) => {
    const w = globalThis as unknown as InPage;
    Object.defineProperty(w.document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    w.document.dispatchEvent(new w.Event('visibilitychange', { bubbles: true }));
  }, hidden);
}

const isAnalytics = (url: string) => url.includes('/internal/v1/analytics/');

async function evaluate(api: SignedInSuite['api'], flagKey: string, n: number, context: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < n; i++) {
    const path = flagKey === 'launch' ? '/evaluate/v1/boolean' : '/evaluate/v1/variant';
    const r = await api.post(path, { namespaceKey: 'shop', flagKey, entityId: `user-${i}`, context });
    if (r.status !== 200) throw new Error(`evaluate ${flagKey}: ${r.status} ${r.text}`);
  }
}

browserDescribe('issue 40: evaluation analytics in the web UI', () => {
  let seededAt = 0;
  const ui = signedInSuite(
    async (api) => {
      await buildNamespace(api, {
        key: 'shop',
        segments: [{ key: 'beta', name: 'Beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }] }],
        flags: [
          {
            key: 'checkout',
            name: 'Checkout',
            enabled: true,
            variants: [{ key: 'blue' }, { key: 'green' }],
            defaultVariant: 'green',
            rules: [{ segments: ['beta'], distributions: [['blue', 100]] }],
          },
          { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ threshold: { percentage: 100, value: true } }] },
          { key: 'quiet', name: 'Quiet', enabled: true, variants: [{ key: 'on' }] },
        ],
      });
    },
    { env: ANALYTICS_ON, context: BERLIN },
  );
  const page = () => ui.page;
  const main = () => page().locator('main');
  const stat = (p: Page, term: RegExp | string) => p.locator('main .analytics-stats > div').filter({ has: p.getByRole('term').filter({ hasText: term }) }).getByRole('definition');
  const breakdown = (p: Page) =>
    p.locator('main table.breakdown tbody tr').evaluateAll((rows) => rows.map((r) => Array.from((r as unknown as { children: Array<{ textContent: string }> }).children, (c) => c.textContent.trim())));

  beforeAll(async () => {
    // 5 beta entities get blue, 3 others the default variant green; the boolean flag is true for all, 4 times.
    await evaluate(ui.api, 'checkout', 5, { plan: 'beta' });
    await evaluate(ui.api, 'checkout', 3);
    await evaluate(ui.api, 'launch', 4);
    seededAt = Date.now();
    const minuteNow = Math.floor(seededAt / MINUTE);
    await store(
      ui.fp,
      STORED.map(([ago, variantKey, count]) => ({ namespaceKey: 'shop', flagKey: 'checkout', minute: minuteNow - ago, variantKey, reason: 2, count })),
    );
    await flush(ui.fp);
    // The server's own answer agrees with what the test expects the page to show.
    expect(await totals(ui.api, 'shop', ['checkout', 'launch', 'quiet'])).toEqual({ checkout: storedWithin(60) + 8, launch: 4, quiet: 0 });
  });

  it("shows a flag's evaluations: the range's total, the chart, the breakdown by variant and the last evaluation", async () => {
    await ui.open('/namespaces/shop/flags/checkout');
    await main().getByRole('navigation', { name: 'Flag checkout' }).getByRole('link', { name: 'Analytics' }).click();
    await main().getByRole('heading', { name: 'Evaluations', level: 2 }).waitFor();
    expect(page().url()).toContain('/namespaces/shop/flags/checkout?view=analytics');

    // The last hour by default: the stored rows of the hour and the 8 evaluations.
    const hour = storedWithin(60) + 8;
    await expect(stat(page(), 'Evaluations, the last hour').textContent()).resolves.toBe(String(hour));
    const answer = (await ui.api.post('/internal/v1/analytics/namespaces/shop/flags', { flagKeys: ['checkout'], from: new Date(seededAt - 60 * MINUTE).toISOString(), to: new Date().toISOString() }))
      .body.flagEvaluations.checkout as { values: number[]; lastEvaluatedAt: string };
    // The 8 evaluations may straddle a minute: the busiest minute is the API's.
    expect(await stat(page(), /^Busiest minute$/).textContent()).toBe(String(Math.max(...answer.values)));
    const last = answer.lastEvaluatedAt;
    expect(await stat(page(), 'Last evaluated').textContent()).toContain(`${berlin(last)} (local, UTC+1)`);
    expect(await breakdown(page())).toEqual(
      [
        ['green', storedWithin(60, 'green') + 3],
        ['blue', storedWithin(60, 'blue') + 5],
      ]
        .sort((a, b) => (b[1] as number) - (a[1] as number))
        .map(([k, n]) => [k, String(n), `${Math.round(((n as number) / hour) * 100)} %`]),
    );
    expect(await main().getByText('Evaluations that clients make themselves from a snapshot').count()).toBe(1);

    // The chart: drawn on a canvas as wide as the card, named in words for screen readers.
    const chart = main().getByRole('img', { name: new RegExp(`^Chart: ${hour} evaluations in the last hour, per minute`) });
    await chart.waitFor();
    const drawn = await chart.locator('canvas').evaluate((c) => {
      const canvas = c as unknown as { width: number; height: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
      return { width: canvas.width, painted };
    });
    expect(drawn.width).toBeGreaterThan(600);
    expect(drawn.painted).toBeGreaterThan(1000);
    // Pointing at it writes that step's counts under it.
    const box = (await chart.boundingBox())!;
    await page().mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await main().locator('.chart-readout .chart-readout-item', { hasText: /^All \d+$/ }).waitFor();
    await main().locator('.chart-readout .chart-readout-item', { hasText: /^blue \d+$/ }).waitFor();

    // Another range: another total, kept in the address across a reload.
    await main().getByRole('group', { name: 'Range' }).getByRole('button', { name: '30 min' }).click();
    await stat(page(), 'Evaluations, the last 30 minutes').filter({ hasText: String(storedWithin(30) + 8) }).waitFor();
    expect(new URLSearchParams(page().url().split('?')[1]).get('range')).toBe('30m');
    await page().reload();
    await stat(page(), 'Evaluations, the last 30 minutes').filter({ hasText: String(storedWithin(30) + 8) }).waitFor();
    expect(await main().getByRole('button', { name: '30 min' }).getAttribute('aria-pressed')).toBe('true');
    await main().getByRole('button', { name: '7 days' }).click();
    await stat(page(), 'Evaluations, the last 7 days').filter({ hasText: String(storedWithin(7 * 24 * 60) + 8) }).waitFor();
    expect(await stat(page(), /^Busiest 30 minutes$/).count()).toBe(1);
  });

  it('reads the counts again every few seconds while the browser tab is visible, not while it is hidden', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
    await context.clock.install();
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    const errors = collectPageErrors(p);
    let reads = 0;
    p.on('request', (r) => {
      if (isAnalytics(r.url())) reads++;
    });
    try {
      await signInWithToken(p, ui.fp.url, BOOTSTRAP);
      await p.goto(`${ui.fp.url}/#/namespaces/shop/flags/checkout?view=analytics&range=30m`);
      const before = storedWithin(30) + 8;
      await stat(p, 'Evaluations, the last 30 minutes').filter({ hasText: String(before) }).waitFor();

      await evaluate(ui.api, 'checkout', 2, { plan: 'beta' });
      await flush(ui.fp);
      await p.clock.fastForward(6_000);
      await stat(p, 'Evaluations, the last 30 minutes').filter({ hasText: String(before + 2) }).waitFor();

      // Hidden: however long, no read, and the total stays what it was.
      await setHidden(p, true);
      await evaluate(ui.api, 'checkout', 1);
      await flush(ui.fp);
      const readsHidden = reads;
      await p.clock.fastForward(30_000);
      await p.clock.runFor(100);
      // A request the page made would take a moment to be reported here.
      await p.waitForTimeout(500);
      expect(reads).toBe(readsHidden);
      expect(await stat(p, 'Evaluations, the last 30 minutes').textContent()).toBe(String(before + 2));

      // Shown again: read at once.
      await setHidden(p, false);
      await stat(p, 'Evaluations, the last 30 minutes').filter({ hasText: String(before + 3) }).waitFor();
      expect(reads).toBeGreaterThan(readsHidden);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a boolean flag's breakdown by value, and a flag never evaluated as such", async () => {
    await ui.open('/namespaces/shop/flags/launch?view=analytics');
    await main().getByRole('heading', { name: 'By value' }).waitFor();
    expect(await breakdown(page())).toEqual([['true', '4', '100 %']]);
    await shotsAtEveryWidth(page(), SHOTS, 'flag-boolean');

    await ui.open('/namespaces/shop/flags/quiet?view=analytics');
    await main().getByText('No evaluations in this range.').waitFor();
    expect(await stat(page(), 'Last evaluated').textContent()).toBe('Never (within analytics.retention)');
    expect(await main().getByRole('img').count()).toBe(0);
    expect(await main().locator('table.breakdown').count()).toBe(0);
    await shotsAtEveryWidth(page(), SHOTS, 'flag-empty');

    await ui.open('/namespaces/shop/flags/checkout?view=analytics&range=1h');
    await main().getByRole('heading', { name: 'By variant' }).waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'flag-variant');
    await ui.open('/namespaces/shop/flags/checkout?view=analytics&range=7d');
    await main().getByRole('img', { name: /in the last 7 days/ }).waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'flag-variant-7d');
  });

  it("lists each flag's last day as a sparkline with its total, its last evaluation as the title, in one request", async () => {
    const reads: string[] = [];
    const note = (r: { url(): string; postData(): string | null }) => {
      if (isAnalytics(r.url())) reads.push(r.postData() ?? '');
    };
    page().on('request', note);
    try {
      await ui.open('/namespaces/shop/flags');
      const table = main().locator('table.list');
      await table.getByRole('columnheader', { name: 'Evaluations (24 h)' }).waitFor();
      const usage = (flag: string) => table.getByRole('row').filter({ has: page().getByRole('link', { name: flag, exact: true }) }).locator('.usage');
      // Everything of the last day, the evaluations of the test before included (2 + 1).
      const day = storedWithin(DAY / MINUTE) + 8 + 3;
      await usage('Checkout').locator('.usage-total', { hasText: String(day) }).waitFor();
      expect(await usage('Launch').locator('.usage-total').textContent()).toBe('4');
      expect(await usage('Quiet').locator('.usage-total').textContent()).toBe('0');
      expect(await usage('Quiet').getAttribute('title')).toBe('Not evaluated (within analytics.retention)');
      const title = await usage('Checkout').getAttribute('title');
      expect(title).toMatch(/^Last evaluated \d{4}-\d\d-\d\d \d\d:\d\d \(local, UTC\+1\)$/);
      expect(await usage('Checkout').locator('svg.sparkline polyline').count()).toBe(1);
      // One batch request for the page's three flags.
      expect(reads.length).toBe(1);
      expect(JSON.parse(reads[0]).flagKeys.sort()).toEqual(['checkout', 'launch', 'quiet']);
      await shotsAtEveryWidth(page(), SHOTS, 'flags-list');
    } finally {
      page().off('request', note);
    }
  });

  it('shows neither the Analytics tab nor the usage column with analytics off, and reads no counts', async () => {
    const fp = await startFlagpole(TOKEN_REQUIRED);
    const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    const errors = collectPageErrors(p);
    const reads: string[] = [];
    p.on('request', (r) => {
      if (isAnalytics(r.url())) reads.push(r.url());
    });
    try {
      await buildNamespace(client(fp.url, bearer(BOOTSTRAP)), { key: 'shop', flags: [{ key: 'checkout', name: 'Checkout', variants: [{ key: 'blue' }] }] });
      await signInWithToken(p, fp.url, BOOTSTRAP);
      await p.goto(`${fp.url}/#/namespaces/shop/flags`);
      await p.getByRole('link', { name: 'Checkout', exact: true }).waitFor();
      expect(await p.locator('main table.list').getByRole('columnheader').allTextContents()).not.toContainEqual(expect.stringMatching(/Evaluations/));
      await p.getByRole('link', { name: 'Checkout', exact: true }).click();
      await p.getByRole('heading', { name: 'Variants' }).waitFor();
      expect(await p.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
      // The address of the tab shows the details.
      await p.goto(`${fp.url}/#/namespaces/shop/flags/checkout?view=analytics`);
      await p.getByRole('heading', { name: 'Variants' }).waitFor();
      expect(await p.getByRole('heading', { name: 'Evaluations' }).count()).toBe(0);
      expect(reads).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fp.close();
    }
  });
});
