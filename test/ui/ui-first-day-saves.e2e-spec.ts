/**
 * Saves that a new user can trust (issue 43, items 4, 5 and 21), in a real browser against a real Flagpole with
 * authentication required (static tokens) and the audit trail stored:
 *  4. metadata rows and an inline split being edited ask before a link or Back leaves them, like the other forms;
 *  5. a segment's "Save details" waits for a change, and saving a description records only the description (the
 *     segment's History used to show its constraints "removed" and "added");
 * 21. saving details over a version saved since in another tab asks (Overwrite or Reload) instead of silently winning.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-43/g3 (FLAGPOLE_G3_SHOTS).
 */
import type { Page } from 'playwright-core';
import { BOOTSTRAP, eventually } from '../auth/support';
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_G3_SHOTS ?? '/tmp/shots-43/g3';

/** Compiles away: page functions run in the browser (see support/browser), naming its globals through this type. */
interface InPage {
  location: { hash: string };
}

browserDescribe('issue 43: saves on a first day', () => {
  const ui = signedInSuite(
    (api) =>
      buildNamespace(api, {
        key: 'shop',
        segments: [
          { key: 'beta', name: 'Beta testers', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] },
          { key: 'staff', name: 'Staff' },
        ],
        flags: [
          { key: 'colour', name: 'Colour', variants: [{ key: 'control' }, { key: 'blue' }], rules: [{ segments: ['beta'], distributions: [['control', 50], ['blue', 50]] }] },
          { key: 'banner', name: 'Banner', description: 'The top banner' },
        ],
      }),
    { env: { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' } },
  );
  const page = () => ui.page;
  const leavePrompt = () => page().getByRole('dialog', { name: 'Leave without saving?' });
  const hash = () => decodeURIComponent(new URL(page().url()).hash);
  /** The question appears: a short wait, so that a page that never asks fails with a clear message rather than late. */
  const asked = () => leavePrompt().waitFor({ timeout: 3_000 });
  const mainLink = (name: string) => page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  describe('4. metadata rows and an inline split ask before they are left', () => {
    it('asks before a link or Back leaves new metadata rows: Keep editing keeps them, Discard drops them', async () => {
      await ui.open('/namespaces/shop/flags');
      await ui.open('/namespaces/shop/flags/banner');
      await page().getByRole('button', { name: 'Add metadata' }).click();
      await page().getByLabel('Metadata key 1').fill('owner');
      await page().getByLabel('Metadata value 1').fill('growth team');

      await mainLink('Segments').click();
      await asked();
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(hash()).toBe('#/namespaces/shop/flags/banner');
      expect(await page().getByLabel('Metadata value 1').inputValue()).toBe('growth team');

      await page().goBack();
      await asked();
      // The router puts the page's address back under the question: Back again only once it is back.
      await page().waitForFunction(() => (globalThis as unknown as InPage).location.hash === '#/namespaces/shop/flags/banner');
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(await page().getByLabel('Metadata key 1').inputValue()).toBe('owner');

      await page().goBack();
      await leavePrompt().getByRole('button', { name: 'Discard changes' }).click();
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      expect(hash()).toBe('#/namespaces/shop/flags');
      expect((await ui.api.get('/api/v1/namespaces/shop/flags/banner')).body.metadata ?? {}).toEqual({});
    });

    it('asks before a link or Back leaves an edited split; an opened split without changes leaves at once', async () => {
      // The previous case left the page on the flags list: a page between makes the list a new entry to go Back to.
      await ui.open('/namespaces/shop/segments');
      await ui.open('/namespaces/shop/flags');
      await ui.open('/namespaces/shop/flags/colour');
      const editor = page().getByRole('form', { name: 'Split of rule 1' });
      await page().getByRole('button', { name: 'Edit split of rule 1' }).click();
      await editor.getByLabel('control').fill('70');
      await editor.getByLabel('blue').fill('30');

      await mainLink('Segments').click();
      await asked();
      await shotsAtEveryWidth(page(), SHOTS, 'split-leave-prompt');
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(hash()).toBe('#/namespaces/shop/flags/colour');
      expect(await editor.getByLabel('control').inputValue()).toBe('70');

      await page().goBack();
      await asked();
      // The router puts the page's address back under the question: Back again only once it is back.
      await page().waitForFunction(() => (globalThis as unknown as InPage).location.hash === '#/namespaces/shop/flags/colour');
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(await editor.getByLabel('blue').inputValue()).toBe('30');

      await page().goBack();
      await leavePrompt().getByRole('button', { name: 'Discard changes' }).click();
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      const rules = (await ui.api.get('/api/v1/namespaces/shop/flags/colour/rules')).body.rules;
      expect(rules[0].distributions.map((d: { rollout: number }) => d.rollout)).toEqual([50, 50]);

      // Opened and put back as it was: nothing to lose, so no question.
      await ui.open('/namespaces/shop/flags/colour');
      await page().getByRole('button', { name: 'Edit split of rule 1' }).click();
      await editor.getByLabel('control').fill('60');
      await editor.getByLabel('control').fill('50');
      await mainLink('Segments').click();
      await page().getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
      expect(await leavePrompt().count()).toBe(0);
    });
  });

  describe("5. a segment's details", () => {
    it('are saved only once changed, and a new description is the only change its History shows', async () => {
      await ui.open('/namespaces/shop/segments/beta');
      const save = page().getByRole('button', { name: 'Save details' });
      await page().getByLabel('Description').waitFor();
      expect(await save.isDisabled()).toBe(true);

      await page().getByLabel('Description').fill('Customers who try things first');
      expect(await save.isEnabled()).toBe(true);
      await save.click();
      await page().getByText('Segment beta saved').waitFor();
      expect(await save.isDisabled()).toBe(true);

      // The trail is stored after the write answers: wait for the update's event, then read the History.
      await eventually(async () => {
        const r = await ui.api.get('/api/v1/audit/events?namespaceKey=shop&segmentKey=beta&type=segment&action=updated');
        expect(r.body.totalCount).toBe(1);
      });
      await page().getByRole('navigation', { name: 'Segment beta' }).getByRole('link', { name: 'History' }).click();
      const newest = page().getByRole('list', { name: 'History of segment beta' }).getByRole('listitem').first();
      await newest.getByText('Segment beta updated').waitFor();
      expect(await newest.getByRole('term').allTextContents()).toEqual(['description']);
      await shotsAtEveryWidth(page(), SHOTS, 'segment-history');
    });
  });

  describe('21. a save over a newer version', () => {
    let other: Page;
    let otherErrors: string[];
    beforeAll(async () => {
      // A second tab of its own (its own session): the same user working in two places.
      const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 } });
      other = await context.newPage();
      other.setDefaultTimeout(10_000);
      otherErrors = collectPageErrors(other);
      await signInWithToken(other, ui.fp.url, BOOTSTRAP);
    });
    afterEach(() => expect(otherErrors.splice(0)).toEqual([]));
    const openOther = (hash: string) => other.goto(`${ui.fp.url}/#${hash}`);
    const stale = (what: string) => page().getByRole('dialog', { name: `This ${what} was changed since you opened it` });

    it('asks before flag details overwrite a newer save: Reload shows it, Overwrite saves over it', async () => {
      await ui.open('/namespaces/shop/flags/colour');
      await page().getByLabel('Name', { exact: true }).waitFor();
      await openOther('/namespaces/shop/flags/colour');
      await other.getByLabel('Name', { exact: true }).fill('Colour from the other tab');
      await other.getByRole('button', { name: 'Save details' }).click();
      await other.getByText('Flag colour saved').waitFor();

      await page().getByLabel('Description').fill('Typed in the first tab');
      await page().getByRole('button', { name: 'Save details' }).click();
      await stale('flag').waitFor({ timeout: 3_000 });
      await shotsAtEveryWidth(page(), SHOTS, 'flag-stale-save');
      // Nothing was written while asking.
      expect((await ui.api.get('/api/v1/namespaces/shop/flags/colour')).body.description).toBe('');

      await stale('flag').getByRole('button', { name: 'Reload' }).click();
      await stale('flag').waitFor({ state: 'detached' });
      expect(await page().getByLabel('Name', { exact: true }).inputValue()).toBe('Colour from the other tab');
      expect(await page().getByLabel('Description').inputValue()).toBe('');
      // Reloaded: the form is the saved version, nothing left to save.
      expect(await page().getByRole('button', { name: 'Save details' }).isDisabled()).toBe(true);

      // Changed again elsewhere; this time the first tab's version wins.
      await other.getByLabel('Description').fill('From the other tab');
      await other.getByRole('button', { name: 'Save details' }).click();
      await other.getByText('Flag colour saved').waitFor();
      await page().getByLabel('Name', { exact: true }).fill('Colour, final');
      await page().getByRole('button', { name: 'Save details' }).click();
      await stale('flag').getByRole('button', { name: 'Overwrite' }).click();
      await page().getByText('Flag colour saved').waitFor();
      const saved = (await ui.api.get('/api/v1/namespaces/shop/flags/colour')).body;
      expect({ name: saved.name, description: saved.description }).toEqual({ name: 'Colour, final', description: '' });

      // A save with nobody else in between asks nothing.
      await page().getByLabel('Description').fill('Quiet save');
      await page().getByRole('button', { name: 'Save details' }).click();
      await page().getByText('Flag colour saved').nth(0).waitFor();
      await eventually(async () => expect((await ui.api.get('/api/v1/namespaces/shop/flags/colour')).body.description).toBe('Quiet save'));
      expect(await stale('flag').count()).toBe(0);
    });

    it('asks before segment details overwrite a newer save', async () => {
      await ui.open('/namespaces/shop/segments/staff');
      await page().getByLabel('Name', { exact: true }).waitFor();
      await openOther('/namespaces/shop/segments/staff');
      await other.getByLabel('Name', { exact: true }).fill('Staff (other tab)');
      await other.getByRole('button', { name: 'Save details' }).click();
      await other.getByText('Segment staff saved').waitFor();

      await page().getByLabel('Description').fill('Everyone on the payroll');
      await page().getByRole('button', { name: 'Save details' }).click();
      await stale('segment').waitFor({ timeout: 3_000 });
      await stale('segment').getByText(/Overwrite saves what this page shows/).waitFor();
      await shotsAtEveryWidth(page(), SHOTS, 'segment-stale-save');
      await stale('segment').getByRole('button', { name: 'Overwrite' }).click();
      await page().getByText('Segment staff saved').waitFor();
      const saved = (await ui.api.get('/api/v1/namespaces/shop/segments/staff')).body;
      expect({ name: saved.name, description: saved.description }).toEqual({ name: 'Staff', description: 'Everyone on the payroll' });
    });
  });
});
