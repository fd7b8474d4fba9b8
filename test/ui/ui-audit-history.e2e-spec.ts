/**
 * The audit trail in a real browser (issue 18), against a real Flagpole with authentication required (static
 * tokens) and the trail stored: a flag's History lists its changes newest first, each with who made it (a static
 * token's name is the actor's name) and the old and new value of what changed; a segment's History its constraints'
 * changes; the namespace's Audit trail page everything, narrowed by type, action and actor. A server that keeps no
 * trail says so in words. Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-audit/ for people to
 * look at; at 390 px the page must not scroll sideways.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, createToken, eventually, TOKEN_REQUIRED } from '../auth/support';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, launchBrowser, signInWithToken } from './support/browser';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_AUDIT_SHOTS ?? '/tmp/shots-audit';
const NS = 'default';

/** Compiles away: page functions run in the browser, and the test code has no DOM library (see support/browser). */
type InPage = { document: { documentElement: { scrollWidth: number; clientWidth: number } } };

browserDescribe('the audit trail in the web UI', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const open = (hash: string) => page.goto(`${fp.url}/#${hash}`);

  /** The stored events for a filter, once there are `count` of them (the trail is written after the change commits). */
  async function eventsOnceThere(query: Record<string, string>, count: number) {
    let events: Array<{ type: string; action: string }> = [];
    await eventually(async () => {
      const r = await api.get(`/api/v1/audit/events?${new URLSearchParams(query)}`);
      expect(r.status).toBe(200);
      expect(r.body.totalCount).toBe(count);
      events = r.body.events;
    });
    return events;
  }

  /** An event's diff as [field, values] pairs, as a screen reader reads them ("was false → now true"). */
  async function changes(item: Locator): Promise<string[][]> {
    const fields = await item.getByRole('term').allTextContents();
    const values = await item.getByRole('definition').allTextContents();
    return fields.map((f, i) => [f, values[i]]);
  }

  const historyOf = (label: string) => page.getByRole('list', { name: label }).getByRole('listitem');

  async function shot(name: string) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled', style: '.notices { display: none }' });
  }

  /** How far the page is wider than the window (0 = no sideways scrolling). */
  const overflow = () =>
    page.evaluate(() => {
      const root = (globalThis as unknown as InPage).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });

  beforeAll(async () => {
    buildUiOnce();
    [fp, browser] = await Promise.all([startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' }), launchBrowser()]);
    api = client(fp.url, bearer(BOOTSTRAP));
    const { clientToken } = await createToken(api, { name: 'release-manager' });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
    // The browser signs in as release-manager; the API calls below are the bootstrap token's.
    await signInWithToken(page, fp.url, clientToken);
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  it("lists a flag's changes in its History: who made each, and the old and new value of what changed", async () => {
    expect((await api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'checkout', name: 'Checkout', description: 'The checkout page' })).status).toBe(200);
    await open(`/namespaces/${NS}/flags/checkout`);
    await page.getByLabel('Name', { exact: true }).fill('New checkout');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Flag checkout saved').waitFor();
    await page.getByRole('switch', { name: 'Enabled' }).click();
    await page.getByText('checkout is enabled').waitFor();
    await eventsOnceThere({ namespaceKey: NS, flagKey: 'checkout' }, 3);

    await page.getByRole('navigation', { name: 'Flag checkout' }).getByRole('link', { name: 'History' }).click();
    expect(page.url()).toMatch(/#\/namespaces\/default\/flags\/checkout\?view=history$/);
    await page.getByRole('heading', { name: 'History', level: 2 }).waitFor();
    const items = historyOf('History of flag checkout');
    await items.nth(2).waitFor();
    expect(await items.count()).toBe(3);

    // Newest first: turned on, renamed (both in the browser, as release-manager), created (through the API).
    const [enabled, renamed, created] = [items.nth(0), items.nth(1), items.nth(2)];
    expect(await enabled.getByText(/^Flag checkout/).textContent()).toBe('Flag checkout updated');
    expect(await enabled.locator('.audit-who').textContent()).toMatch(/^by release-manager · static token · (::ffff:)?127\.0\.0\.1$/);
    expect(await changes(enabled)).toEqual([['enabled', 'was false → now true']]);

    expect(await renamed.locator('.audit-who').textContent()).toMatch(/^by release-manager · static token/);
    expect(await changes(renamed)).toEqual([['name', 'was "Checkout" → now "New checkout"']]);

    expect(await created.getByText(/^Flag checkout/).textContent()).toBe('Flag checkout created');
    expect(await created.locator('.audit-who').textContent()).toMatch(/^by initial_bootstrap_token · static token/);
    await created.getByText(/^Created with/).waitFor();
    // The key is in the heading; the list holds the rest.
    expect(await changes(created)).toEqual([['name', '"Checkout"'], ['description', '"The checkout page"'], ['enabled', 'false']]);
    // What a user sees: the old value struck through beside the new one, and the time.
    await renamed.getByRole('deletion').filter({ hasText: '"Checkout"' }).waitFor();
    await renamed.getByRole('insertion').filter({ hasText: '"New checkout"' }).waitFor();
    expect(await renamed.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Details is one click back, unchanged.
    await page.getByRole('link', { name: 'Details' }).click();
    await page.getByRole('heading', { name: 'Details', level: 2 }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('New checkout');
  });

  it("lists a segment's constraint changes in the segment's History", async () => {
    await api.post(`/api/v1/namespaces/${NS}/segments`, { key: 'beta-users', name: 'Beta users' });
    const constraint = (await api.post(`/api/v1/namespaces/${NS}/segments/beta-users/constraints`, {
      type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro',
    })).body;
    await api.put(`/api/v1/namespaces/${NS}/segments/beta-users/constraints/${constraint.id}`, {
      type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'enterprise',
    });
    await eventsOnceThere({ namespaceKey: NS, segmentKey: 'beta-users' }, 3);

    await open(`/namespaces/${NS}/segments/beta-users?view=history`);
    const items = historyOf('History of segment beta-users');
    await items.nth(2).waitFor();
    expect(await items.first().getByText(/^Constraint plan/).textContent()).toBe('Constraint plan of segment beta-users updated');
    expect(await changes(items.first())).toEqual([['value', 'was "pro" → now "enterprise"']]);
    expect(await items.nth(2).getByText(/^Segment beta-users/).textContent()).toBe('Segment beta-users created');
  });

  it("lists the namespace's changes on the Audit trail page, narrowed by type, action and actor", async () => {
    // A variant flag's variant, created and deleted: a delete shows what it was.
    await api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'banner', name: 'Banner', type: 'VARIANT_FLAG_TYPE' });
    const variant = (await api.post(`/api/v1/namespaces/${NS}/flags/banner/variants`, { key: 'blue', name: 'Blue', attachment: '{"color":"#00f"}' })).body;
    await api.delete(`/api/v1/namespaces/${NS}/flags/banner/variants/${variant.id}`);
    await eventsOnceThere({ namespaceKey: NS }, 9);

    await open(`/namespaces/${NS}/flags`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    expect(page.url()).toMatch(/#\/namespaces\/default\/audit$/);
    const items = historyOf('Changes in namespace default');
    await page.getByText('1–9 of 9 changes').waitFor();
    expect(await items.first().getByText(/^Variant blue/).textContent()).toBe('Variant blue of flag banner deleted');
    await items.first().getByText(/^What it was/).waitFor();
    expect(await changes(items.first())).toEqual([['name', '"Blue"'], ['description', '""'], ['attachment', '"{"color":"#00f"}"']]);
    await items.filter({ hasText: 'Flag checkout created' }).waitFor();

    await page.getByLabel('Type').selectOption('flag');
    await page.getByText('1–4 of 4 changes').waitFor();
    const whats = await items.locator('.audit-what').allTextContents();
    expect(whats).toEqual(['Flag banner created', 'Flag checkout updated', 'Flag checkout updated', 'Flag checkout created']);
    await page.getByLabel('Action').selectOption('created');
    await page.getByText('1–2 of 2 changes').waitFor();

    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Actor').fill('release-manager');
    await page.getByText('1–2 of 2 changes').waitFor();
    expect(await items.locator('.audit-what').allTextContents()).toEqual(['Flag checkout updated', 'Flag checkout updated']);
    await page.getByLabel('Actor').fill('nobody@example.com');
    await page.getByText('No changes match these filters.').waitFor();
    await page.getByLabel('Actor').fill('');
    await page.getByText('1–9 of 9 changes').waitFor();

    // Keys lead to their flag or segment.
    await items.filter({ hasText: 'Constraint plan of segment beta-users updated' }).getByRole('link', { name: 'beta-users' }).click();
    await page.getByRole('heading', { name: 'Beta users', level: 1 }).waitFor();
  });

  it('fits a phone and the dark theme: screenshots at 1440 and 390 px, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        await open(`/namespaces/${NS}/flags/checkout?view=history`);
        await historyOf('History of flag checkout').nth(2).waitFor();
        await shot(`flag-history-${width}-${scheme}`);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await open(`/namespaces/${NS}/audit`);
        await page.getByText('1–9 of 9 changes').waitFor();
        await shot(`audit-trail-${width}-${scheme}`);
        expect(await overflow()).toBeLessThanOrEqual(0);
      }
    }
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { dataset: { theme: string } } } }).document.documentElement.dataset.theme)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('says in words when the server keeps no trail', async () => {
    const bare = await startFlagpole({ FLAGPOLE_AUDIT_STORAGE_ENABLED: 'false' });
    try {
      await client(bare.url).post(`/api/v1/namespaces/${NS}/flags`, { key: 'quiet', name: 'Quiet' });
      const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const otherErrors = collectPageErrors(other);
      await other.goto(`${bare.url}/#/namespaces/${NS}/flags/quiet?view=history`);
      await other.getByRole('status').filter({ hasText: 'The audit trail is not stored on this server (audit.storage.enabled is false).' }).waitFor();
      await other.goto(`${bare.url}/#/namespaces/${NS}/audit`);
      await other.getByRole('status').filter({ hasText: 'audit.storage.enabled is false' }).waitFor();
      expect(await other.getByRole('alert').count()).toBe(0);
      await other.close();
      expect(otherErrors).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
