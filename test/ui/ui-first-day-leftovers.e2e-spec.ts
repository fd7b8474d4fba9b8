/**
 * Issue 43 ("a new user's first day without traps"), what was left after the first pass, in Chromium against a real
 * Flagpole with authentication and the example authorization policy (docs/authorization.example.yml: the bootstrap
 * token is an admin, and a viewer reads flags, segments and namespaces but not the audit trail), in a Berlin browser:
 *  11. a viewer is offered no History view of a flag or a segment, and `?view=history` typed in shows the details;
 *  15. the static tokens name their zone once, in the Created and Expires headers, not in every row;
 *  21. the on/off switch and "Save metadata" of a page loaded before another tab saved keep what that tab saved;
 *      metadata changed in both asks first;
 *  the copy dialog's "Also copy its rules" checkbox is drawn as a checkbox, not squeezed by its long label.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-43/left/ (FLAGPOLE_LEFT_SHOTS); none may scroll
 * sideways.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, eventually } from '../auth/support';
import { authorizationEnv, policyFile, tokenWithRole } from '../authorization/support';
import { client } from '../support/flagpole';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_LEFT_SHOTS ?? '/tmp/shots-43/left';
const BERLIN = { timezoneId: 'Europe/Berlin' };

/** A variant flag with a rule on a segment (what the copy dialog offers to take along), in default. */
const FEATURES = `version: "1.4"
flags:
- key: checkout
  name: Checkout
  type: VARIANT_FLAG_TYPE
  description: which checkout the customer sees
  enabled: true
  variants:
  - key: express
    name: Express
  rules:
  - segment: beta-users
    distributions:
    - variant: express
      rollout: 100
segments:
- key: beta-users
  name: Beta users
  match_type: ANY_MATCH_TYPE
`;

/** The flag and segment, a namespace to copy into, and a token that expires (16:40 UTC, 17:40 in Berlin). */
async function seed(api: SignedInSuite['api']): Promise<void> {
  const made = [
    await api.post('/api/v1/namespaces/default/import', FEATURES, { 'content-type': 'application/yaml' }),
    await api.post('/api/v1/namespaces', { key: 'other', name: 'Other' }),
    await api.post('/auth/v1/method/token', { name: 'nightly', description: 'Nightly job', expiresAt: '2031-11-27T16:40:00Z' }),
  ];
  expect(made.map((r) => r.status)).toEqual([200, 200, 200]);
}

/** A second signed-in page in a context of its own (another tab, or another person). */
async function secondPage(ui: SignedInSuite, token: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  await signInWithToken(page, ui.fp.url, token);
  return { page, context, errors };
}

browserDescribe('issue 43, leftovers: History for a viewer, token zones, stale switch and metadata, copy checkbox', () => {
  const ui = signedInSuite(seed, { env: authorizationEnv(policyFile(), { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' }), context: BERLIN });
  const page = () => ui.page;
  const dialog = () => page().getByRole('dialog');
  const flag = async () => (await ui.api.get('/api/v1/namespaces/default/flags/checkout')).body as { description: string; enabled: boolean; metadata?: Record<string, unknown> };

  describe('11. a viewer, who may not read the audit trail', () => {
    let viewer: Awaited<ReturnType<typeof secondPage>>;
    let token: string;
    beforeAll(async () => {
      token = await tokenWithRole(ui.api, 'viewer');
      viewer = await secondPage(ui, token);
    });
    afterAll(() => viewer.context.close());
    afterEach(() => expect(viewer.errors.splice(0)).toEqual([]));

    it('is offered no History view of a flag or a segment, and ?view=history typed in shows the details', async () => {
      const v = viewer.page;
      // The example policy gives the viewer no audit read: the API refuses it the trail.
      expect((await client(ui.fp.url, bearer(token)).get('/api/v1/audit/events?namespaceKey=default')).status).toBe(403);

      for (const [where, title] of [['flags/checkout', 'Checkout'], ['segments/beta-users', 'Beta users']]) {
        await v.goto(`${ui.fp.url}/#/namespaces/default/${where}`);
        await v.getByRole('heading', { name: title, level: 1 }).waitFor();
        await v.locator('main').getByRole('heading', { name: 'Details', level: 2 }).waitFor();
        expect({ where, history: await v.locator('main').getByRole('link', { name: 'History' }).count() }).toEqual({ where, history: 0 });

        await v.goto(`${ui.fp.url}/#/namespaces/default/${where}?view=history`);
        await v.locator('main').getByRole('heading', { name: 'Details', level: 2 }).waitFor();
        expect({ where, alerts: await v.locator('main [role="alert"], main .error').count() }).toEqual({ where, alerts: 0 });
      }
      await v.goto(`${ui.fp.url}/#/namespaces/default/flags/checkout?view=history`);
      await v.locator('main').getByRole('heading', { name: 'Details', level: 2 }).waitFor();
      await shotsAtEveryWidth(v, SHOTS, 'viewer-flag-history-asked');

      // An admin still has it.
      await ui.open('/namespaces/default/flags/checkout');
      await page().locator('main').getByRole('link', { name: 'History' }).waitFor();
    });
  });

  it("15. names the static tokens' zone once, in the Created and Expires headers", async () => {
    const times = () => page().getByRole('navigation', { name: 'Main' }).getByLabel('Times');
    const nightly = () => page().locator('main tbody tr').filter({ hasText: 'nightly' });
    const header = (name: string) => page().locator('main table thead th').filter({ hasText: name });
    await ui.open('/settings/tokens');
    expect(await times().inputValue()).toBe('local');
    await nightly().waitFor();
    // textContent: the headers are upper-cased by the style alone.
    expect((await header('Created').textContent())?.trim()).toBe('Created (local, Europe/Berlin)');
    expect((await header('Expires').textContent())?.trim()).toBe('Expires (local, Europe/Berlin)');
    expect((await nightly().locator('td[data-label="Expires"]').innerText()).trim()).toBe('2031-11-27 17:40');
    expect(await nightly().innerText()).not.toMatch(/UTC|local/);

    await times().selectOption('utc');
    await header('Expires (UTC)').waitFor();
    expect((await nightly().locator('td[data-label="Expires"]').innerText()).trim()).toBe('2031-11-27 16:40');
    await shotsAtEveryWidth(page(), SHOTS, 'tokens-zone-once');
    // A phone hides the headers: one line above the list names the zone.
    await page().setViewportSize({ width: 390, height: 844 });
    expect((await page().locator('main .list-zone-note').innerText()).trim()).toBe('Times: UTC');
    await page().setViewportSize({ width: 1440, height: 900 });
    await times().selectOption('local');
  });

  describe('21. a page loaded before another tab saved the flag', () => {
    let tabB: Awaited<ReturnType<typeof secondPage>>;
    beforeAll(async () => {
      tabB = await secondPage(ui, BOOTSTRAP);
    });
    afterAll(() => tabB.context.close());
    afterEach(() => expect(tabB.errors.splice(0)).toEqual([]));

    /** Tab B opens the flag afresh, writes `description` and saves its details. */
    const describeInB = async (description: string) => {
      await openInB();
      await tabB.page.getByLabel('Description').fill(description);
      await tabB.page.getByRole('button', { name: 'Save details' }).click();
      // Saved: stored, and nothing left to save (a notice of an earlier save could still be showing). The button is
      // disabled while the save is in flight too, so the stored flag is what says it is done.
      await eventually(async () => expect((await flag()).description).toBe(description));
      await tabB.page.locator('button:disabled', { hasText: 'Save details' }).waitFor();
    };
    const openInB = async () => {
      await tabB.page.goto(`${ui.fp.url}/#/namespaces/default/flags/checkout`);
      await tabB.page.reload();
      await tabB.page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    };

    it("flips the switch without undoing the description tab B saved, and shows it", async () => {
      await ui.open('/namespaces/default/flags/checkout');
      await page().getByRole('switch', { name: 'Enabled' }).waitFor();
      await describeInB('Saved in tab B');
      await page().getByRole('switch', { name: 'Enabled' }).click();
      await page().locator('.notice', { hasText: 'checkout is disabled' }).waitFor();
      expect(await dialog().count()).toBe(0);
      expect(await flag()).toMatchObject({ description: 'Saved in tab B', enabled: false });
      expect(await page().getByLabel('Description').inputValue()).toBe('Saved in tab B');
    });

    it('saves metadata without undoing the description tab B saved; metadata tab B changed too asks first', async () => {
      await ui.open('/namespaces/default/flags/checkout');
      await page().getByRole('button', { name: 'Add metadata' }).waitFor();
      await describeInB('Saved in tab B again');
      await page().getByRole('button', { name: 'Add metadata' }).click();
      await page().getByLabel('Metadata key 1').fill('owner');
      await page().getByLabel('Metadata value 1').fill('payments');
      await page().getByRole('button', { name: 'Save metadata' }).click();
      await page().locator('.notice', { hasText: 'Metadata of checkout saved' }).waitFor();
      expect(await flag()).toMatchObject({ description: 'Saved in tab B again', metadata: { owner: 'payments' } });

      // Both change the metadata: the page's save would drop tab B's, so it asks.
      await openInB();
      await tabB.page.getByLabel('Metadata value 1').fill('checkout-team');
      await tabB.page.getByRole('button', { name: 'Save metadata' }).click();
      // Disabled while in flight too: the stored flag says when it is done.
      await eventually(async () => expect((await flag()).metadata).toEqual({ owner: 'checkout-team' }));
      await tabB.page.locator('button:disabled', { hasText: 'Save metadata' }).waitFor();
      await page().getByRole('button', { name: 'Add metadata' }).click();
      await page().getByLabel('Metadata key 2').fill('ticket');
      await page().getByLabel('Metadata value 2').fill('FP-43');
      await page().getByRole('button', { name: 'Save metadata' }).click();
      await dialog().getByRole('heading', { name: 'This flag was changed since you opened it' }).waitFor();
      expect((await flag()).metadata).toEqual({ owner: 'checkout-team' });
      await dialog().getByRole('button', { name: 'Reload' }).click();
      await dialog().waitFor({ state: 'detached' });
      // The rows follow the reloaded flag once it is rendered.
      await page().locator('input[aria-label="Metadata value 1"][value="checkout-team"]').waitFor();
      expect(await page().getByLabel('Metadata key 2').count()).toBe(0);
    });
  });

  it('draws the copy dialog\'s "Also copy its rules" checkbox as the other checkboxes are', async () => {
    await ui.open('/namespaces/default/flags/checkout');
    await page().getByRole('button', { name: 'Copy to namespace' }).click();
    const box = dialog().getByRole('checkbox', { name: /Also copy its rules/ });
    await box.waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'copy-dialog');
    for (const width of [1440, 390]) {
      await page().setViewportSize({ width, height: 844 });
      const { width: w, height: h } = (await box.boundingBox())!;
      // Chromium draws a checkbox 13 px square; squeezed by the label beside it, it was a few px wide, a dot.
      expect({ width, w: Math.round(w), h: Math.round(h) }).toEqual({ width, w: 13, h: 13 });
    }
    await page().setViewportSize({ width: 1440, height: 900 });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });
});
