/**
 * The forms of issue 21's "clumsy" items, in a real browser against a real Flagpole with authentication required
 * (static tokens), in a Berlin browser (UTC+1 in November), so that local time and UTC differ:
 *  1. keys are checked as they are typed, by the API's own rules (the UI's verdict is compared with the API's);
 *  2. the new-flag and new-segment pages are one form: the same checks, questions and creation on both;
 *  3. unsaved edits are asked about before leaving: links, Back, an open dialog's edits, reload (`beforeunload`);
 *  4. a toast never stands between the pointer and a button, nor over an open dialog;
 *  5. date-times name their zone (a table's once, in its header), local or UTC as chosen beside the theme, and the
 *     token expiry is entered in it.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-forms (FLAGPOLE_FORMS_SHOTS).
 */
import type { Dialog, Locator } from 'playwright-core';
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_FORMS_SHOTS ?? '/tmp/shots-forms';
const LONG_FLAG = 'a-flag-key-long-enough-to-fill-a-phone-wide-toast';
const EXPIRY = '2031-11-27T16:40:00.000Z';

/** Compiles away: page functions run in the browser (see support/browser), naming its globals through this type. */
interface InPage {
  document: { elementFromPoint(x: number, y: number): { closest(s: string): { textContent: string } | null } | null };
  scrollBy(x: number, y: number): void;
  history: { back(): void };
  location: { hash: string; reload(): void };
}

browserDescribe('issue 21: forms', () => {
  const ui = signedInSuite(
    async (api) => {
      await buildNamespace(api, {
        key: 'shop',
        segments: [{ key: 'beta', name: 'Beta testers' }],
        flags: [
          { key: 'colour', name: 'Colour', variants: [{ key: 'control' }, { key: 'blue' }] },
          { key: LONG_FLAG, name: 'Long', description: 'A flag whose key makes its toast wide' },
        ],
      });
      const token = await api.post('/auth/v1/method/token', { name: 'nightly', description: 'Nightly job', expiresAt: EXPIRY });
      expect(token.status).toBe(200);
    },
    { context: { timezoneId: 'Europe/Berlin' } },
  );
  const page = () => ui.page;
  const dialog = (name?: string) => page().getByRole('dialog', name ? { name } : undefined);
  const leavePrompt = () => dialog('Leave without saving?');
  /** The problem shown under a field (the error its aria-describedby names), or '' when there is none. */
  const problemOf = async (field: Locator) => {
    for (const id of ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean)) {
      const error = page().locator(`.field-error[id="${id}"]`);
      if (await error.count()) return error.innerText();
    }
    return '';
  };
  const url = () => decodeURIComponent(new URL(page().url()).hash);

  describe('1. keys checked as they are typed', () => {
    it('says what is wrong under the key while typing, blocks Create, and clears when fixed', async () => {
      await ui.open('/namespaces/shop/create/flag');
      const key = page().getByLabel('Key');
      const create = page().getByRole('button', { name: 'Create flag' });
      await page().getByLabel('Name', { exact: true }).fill('Dark mode');
      expect(await key.inputValue()).toBe('dark-mode');
      expect(await problemOf(key)).toBe('');

      await key.fill('dark mode/ü');
      expect(await problemOf(key)).toBe('Not allowed in a key: space, "/", "ü". Use letters, digits, - _ and , only.');
      expect(await key.getAttribute('aria-invalid')).toBe('true');
      expect(await create.isDisabled()).toBe(true);
      await shotsAtEveryWidth(page(), SHOTS, 'new-flag-key-problem');

      await key.fill('x'.repeat(256));
      expect(await problemOf(key)).toBe('At most 255 characters: this has 256.');
      await key.fill('');
      expect(await problemOf(key)).toBe('A key is required.');
      await key.fill('dark_mode,v2');
      expect(await problemOf(key)).toBe('');
      expect(await create.isEnabled()).toBe(true);
      // Left without a character typed, an empty key says so too.
      await ui.open('/namespaces/shop/create/segment');
      await page().getByLabel('Key').focus();
      await page().getByLabel('Key').blur();
      expect(await problemOf(page().getByLabel('Key'))).toBe('A key is required.');
    });

    it("refuses exactly what the API refuses: the UI's verdict on each key and name is the API's", async () => {
      const keys = ['ok-key_1,2', 'has space', 'ümlaut', 'a/b', 'tab\tkey', 'x'.repeat(255), 'x'.repeat(256), '-', ','];
      const names = ['😀'.repeat(255), '😀'.repeat(256), 'n'.repeat(255), 'n'.repeat(256), ' '];
      await ui.open('/namespaces/shop/create/flag');
      const verdicts: Array<{ key: string; name: string; ui: boolean; api: boolean }> = [];
      const check = async (key: string, name: string) => {
        await page().getByLabel('Name', { exact: true }).fill(name);
        await page().getByLabel('Key').fill(key);
        const refusedByUi = (await problemOf(page().getByLabel('Key'))) !== '' || (await problemOf(page().getByLabel('Name', { exact: true }))) !== '';
        const answer = await ui.api.post('/api/v1/namespaces/shop/flags', { key, name, type: 'VARIANT_FLAG_TYPE' });
        if (answer.status === 200) await ui.api.delete(`/api/v1/namespaces/shop/flags/${encodeURIComponent(key)}`);
        verdicts.push({ key: key.slice(0, 12), name: name.slice(0, 4), ui: refusedByUi, api: answer.status !== 200 });
      };
      for (const key of keys) await check(key, 'Name');
      for (const name of names) await check('named', name);
      expect(verdicts.filter((v) => v.ui !== v.api)).toEqual([]);
      // Both kinds of answer were seen: the comparison means something.
      expect(new Set(verdicts.map((v) => v.api))).toEqual(new Set([true, false]));
    });

    it('checks the namespace key and the variant key (any text, but not too long) the same way; the API still has the last word', async () => {
      await ui.open('/namespaces');
      await page().getByRole('button', { name: 'New namespace' }).click();
      await dialog().getByLabel('Name', { exact: true }).fill('Team A');
      await dialog().getByLabel('Key').fill('team a');
      expect(await problemOf(dialog().getByLabel('Key'))).toMatch(/^Not allowed in a key: space\./);
      expect(await dialog().getByRole('button', { name: 'Create namespace' }).isDisabled()).toBe(true);
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      // Something was typed: the dialog asks before dropping it (issue 43).
      await dialog('Discard your changes?').getByRole('button', { name: 'Discard changes' }).click();

      await ui.open('/namespaces/shop/flags/colour');
      await page().getByRole('button', { name: 'Add variant' }).click();
      const key = dialog().getByLabel('Key');
      await key.fill('v'.repeat(256));
      expect(await problemOf(key)).toBe('At most 255 characters: this has 256.');
      expect(await dialog().getByRole('button', { name: 'Add variant' }).isDisabled()).toBe(true);
      await shotsAtEveryWidth(page(), SHOTS, 'variant-key-problem');
      // A key already taken: only the API knows, and its message is shown.
      await key.fill('blue');
      expect(await problemOf(key)).toBe('');
      await dialog().getByRole('button', { name: 'Add variant' }).click();
      await dialog().getByRole('alert').filter({ hasText: 'variant "blue" is not unique' }).waitFor();
      // A variant key may hold a space (the API takes any text): no problem shown, and the API agrees.
      await key.fill('light blue');
      expect(await problemOf(key)).toBe('');
      await dialog().getByRole('button', { name: 'Add variant' }).click();
      await page().getByRole('cell', { name: 'light blue', exact: true }).waitFor();
    });
  });

  describe('2. one form for new flags and new segments', () => {
    for (const [kind, list] of [['flag', 'flags'], ['segment', 'segments']] as const) {
      it(`new ${kind}: the key follows the name and is checked, Cancel asks about what was typed, Create opens the ${kind}`, async () => {
        await ui.open(`/namespaces/shop/create/${kind}`);
        await page().getByRole('heading', { name: `New ${kind}`, level: 1 }).waitFor();
        await page().getByLabel('Name', { exact: true }).fill('Spring sale');
        expect(await page().getByLabel('Key').inputValue()).toBe('spring-sale');
        await page().getByLabel('Key').fill('spring sale');
        expect(await problemOf(page().getByLabel('Key'))).toMatch(/^Not allowed in a key: space\./);
        await page().getByLabel('Key').fill('spring-sale');

        await page().getByRole('link', { name: 'Cancel' }).click();
        await leavePrompt().waitFor();
        await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
        expect(url()).toBe(`#/namespaces/shop/create/${kind}`);
        expect(await page().getByLabel('Name', { exact: true }).inputValue()).toBe('Spring sale');

        // Created: nothing is lost by leaving, so the new item opens without a question.
        await page().getByRole('button', { name: `Create ${kind}` }).click();
        await page().getByRole('heading', { name: 'Spring sale', level: 1 }).waitFor();
        expect(url()).toBe(`#/namespaces/shop/${list}/spring-sale`);
        expect(await leavePrompt().count()).toBe(0);
      });
    }
  });

  describe('3. unsaved edits', () => {
    it('asks before a link leaves the flag details with edits: Keep editing stays, Discard leaves', async () => {
      await ui.open('/namespaces/shop/flags/colour');
      const name = page().getByLabel('Name', { exact: true });
      await name.fill('Colour of the buy button');
      await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments' }).click();
      await leavePrompt().waitFor();
      await shotsAtEveryWidth(page(), SHOTS, 'leave-prompt');
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(url()).toBe('#/namespaces/shop/flags/colour');
      expect(await name.inputValue()).toBe('Colour of the buy button');

      await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments' }).click();
      await leavePrompt().getByRole('button', { name: 'Discard changes' }).click();
      await page().getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
      expect((await ui.api.get('/api/v1/namespaces/shop/flags/colour')).body.name).toBe('Colour');
    });

    it('keeps the edits when the flag loads again, and leaves without asking once they are saved', async () => {
      await ui.open('/namespaces/shop/flags/colour');
      await page().getByLabel('Description').fill('Which colour the button has');
      // Adding a variant loads the flag again: the edit stays.
      await page().getByRole('button', { name: 'Add variant' }).click();
      await dialog().getByLabel('Key').fill('green');
      await dialog().getByRole('button', { name: 'Add variant' }).click();
      await page().getByRole('cell', { name: 'green', exact: true }).waitFor();
      expect(await page().getByLabel('Description').inputValue()).toBe('Which colour the button has');

      await page().getByRole('button', { name: 'Save details' }).click();
      // Saved, not merely saving: the button is disabled while the save runs too, and leaving then would rightly
      // ask (the edits are not saved yet). The toast comes once the saved flag is the page's.
      await page().locator('.notice', { hasText: 'Flag colour saved' }).waitFor();
      await page().getByRole('button', { name: 'Save details' }).and(page().locator(':disabled')).waitFor();
      await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flags' }).click();
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      expect(await leavePrompt().count()).toBe(0);
    });

    it('asks before Back leaves the segment details with edits, and lets Back through once agreed', async () => {
      await ui.open('/namespaces/shop/segments');
      await ui.open('/namespaces/shop/segments/beta');
      await page().getByLabel('Name', { exact: true }).fill('Beta testers (2026)');
      await page().goBack();
      await leavePrompt().waitFor();
      // The page never changed under the question, and the address is the page's again.
      expect(await page().getByLabel('Name', { exact: true }).inputValue()).toBe('Beta testers (2026)');
      await page().waitForFunction(() => (globalThis as unknown as InPage).location.hash === '#/namespaces/shop/segments/beta');
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(url()).toBe('#/namespaces/shop/segments/beta');

      await page().goBack();
      await leavePrompt().getByRole('button', { name: 'Discard changes' }).click();
      await page().getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
      expect(url()).toBe('#/namespaces/shop/segments');
    });

    it('asks before Back leaves an open dialog with edits, above the dialog', async () => {
      await ui.open('/namespaces/shop/flags');
      await ui.open('/namespaces/shop/flags/colour');
      await page().getByRole('button', { name: 'Add variant' }).click();
      await dialog('New variant').getByLabel('Key').fill('purple');
      await page().evaluate(() => (globalThis as unknown as InPage).history.back());
      await leavePrompt().waitFor();
      await leavePrompt().getByRole('button', { name: 'Keep editing' }).click();
      await leavePrompt().waitFor({ state: 'detached' });
      expect(await dialog('New variant').getByLabel('Key').inputValue()).toBe('purple');

      await page().evaluate(() => (globalThis as unknown as InPage).history.back());
      await leavePrompt().getByRole('button', { name: 'Discard changes' }).click();
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      expect(await dialog().count()).toBe(0);
    });

    it('has the browser ask before a reload drops what was typed, and not when nothing was', async () => {
      const dialogs: Dialog[] = [];
      const onDialog = (d: Dialog) => {
        dialogs.push(d);
        void d.dismiss();
      };
      page().on('dialog', onDialog);
      try {
        await ui.open('/namespaces/shop/create/flag');
        // Clicked and typed: a browser asks before unloading only a page the user has interacted with.
        await page().getByLabel('Name', { exact: true }).click();
        await page().getByLabel('Name', { exact: true }).pressSequentially('Half typed');
        await page().evaluate(() => (globalThis as unknown as InPage).location.reload());
        for (let waited = 0; dialogs.length === 0 && waited < 5000; waited += 100) await page().waitForTimeout(100);
        expect(dialogs.map((d) => d.type())).toEqual(['beforeunload']);
        // Dismissed: still here, with what was typed.
        expect(await page().getByLabel('Name', { exact: true }).inputValue()).toBe('Half typed');

        await page().getByLabel('Name', { exact: true }).fill('');
        await page().getByLabel('Key').fill('');
        await page().reload();
        await page().getByRole('heading', { name: 'New flag', level: 1 }).waitFor();
        expect(dialogs).toHaveLength(1);
      } finally {
        page().off('dialog', onDialog);
      }
    });
  });

  describe('4. toasts', () => {
    it('lets the Save button under a toast be clicked, on a phone where the toast spans the screen', async () => {
      await page().setViewportSize({ width: 390, height: 844 });
      try {
        await ui.open(`/namespaces/shop/flags/${LONG_FLAG}`);
        const save = page().getByRole('button', { name: 'Save details' });
        await page().getByLabel('Description').fill('Saved once');
        await save.click();
        const toast = page().locator('.notice', { hasText: `Flag ${LONG_FLAG} saved` });
        await toast.waitFor();
        // An edit again, so that Save has something to do; then bring the button under the toast.
        await page().getByLabel('Description').fill('Saved twice');
        // A window as tall as puts the toast's middle at the button's, then scrolled for what is left.
        const [t, b] = [(await toast.boundingBox())!, (await save.boundingBox())!];
        const bottomGap = 844 - (t.y + t.height);
        await page().setViewportSize({ width: 390, height: Math.max(400, Math.round(b.y + b.height / 2 + t.height / 2 + bottomGap)) });
        const [t2, b2] = [(await toast.boundingBox())!, (await save.boundingBox())!];
        await page().evaluate((dy) => (globalThis as unknown as InPage).scrollBy(0, dy), b2.y + b2.height / 2 - (t2.y + t2.height / 2));
        const button = (await save.boundingBox())!;
        const centre = { x: button.x + button.width / 2, y: button.y + button.height / 2 };
        const toastNow = (await toast.boundingBox())!;
        // The toast is over the button's centre…
        expect(centre.x).toBeGreaterThan(toastNow.x);
        expect(centre.x).toBeLessThan(toastNow.x + toastNow.width);
        expect(centre.y).toBeGreaterThan(toastNow.y);
        expect(centre.y).toBeLessThan(toastNow.y + toastNow.height);
        expect(await toast.isVisible()).toBe(true);
        // …and yet the pointer there reaches the button.
        const hit = await page().evaluate(({ x, y }) => (globalThis as unknown as InPage).document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, centre);
        expect(hit).toBe('Save details');
        await save.click({ trial: true, timeout: 1000 });
      } finally {
        await page().setViewportSize({ width: 1440, height: 900 });
      }
    });

    it("stays under an open dialog: its buttons are the dialog's", async () => {
      await ui.open('/namespaces/shop/flags/colour');
      await page().getByRole('button', { name: 'Add variant' }).click();
      await dialog().getByLabel('Key').fill('teal');
      await dialog().getByRole('button', { name: 'Add variant' }).click();
      await page().locator('.notice', { hasText: 'Variant teal saved' }).waitFor();
      await page().getByRole('button', { name: 'Add variant' }).click();
      for (const name of ['Cancel', 'Add variant']) {
        const box = (await dialog().getByRole('button', { name }).boundingBox())!;
        const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        const hit = await page().evaluate(({ x, y }) => (globalThis as unknown as InPage).document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, centre);
        expect(hit).toBe(name);
      }
      await dialog().getByRole('button', { name: 'Cancel' }).click();
    });
  });

  describe('5. time zones', () => {
    const times = () => page().getByRole('navigation', { name: 'Main' }).getByLabel('Times');
    const nightly = () => page().getByRole('row').filter({ hasText: 'nightly' });
    const expires = () => page().locator('main thead th').filter({ hasText: 'Expires' });

    it('names the zone of the dates, local or UTC as chosen beside the theme, once in the header, kept after a reload', async () => {
      await ui.open('/settings/tokens');
      expect(await times().inputValue()).toBe('local');
      await nightly().getByText('2031-11-27 17:40', { exact: true }).waitFor();
      expect(await expires().textContent()).toBe('Expires (local, Europe/Berlin)');

      await times().selectOption('utc');
      await nightly().getByText('2031-11-27 16:40', { exact: true }).waitFor();
      expect(await expires().textContent()).toBe('Expires (UTC)');
      await shotsAtEveryWidth(page(), SHOTS, 'tokens-in-utc');
      await page().reload();
      await nightly().getByText('2031-11-27 16:40', { exact: true }).waitFor();
      expect(await times().inputValue()).toBe('utc');
    });

    it('takes the token expiry in the chosen zone, says which, and sends the instant meant', async () => {
      const create = async (name: string, zone: 'utc' | 'local', label: string, confirmation: string) => {
        await ui.open('/settings/tokens');
        await times().selectOption(zone);
        await page().getByRole('button', { name: 'New token' }).click();
        await dialog().getByLabel('Name', { exact: true }).fill(name);
        await dialog().getByLabel('Expires').fill('2099-01-01T12:00');
        await dialog().getByLabel(label, { exact: true }).waitFor();
        await dialog().getByText(confirmation, { exact: true }).waitFor();
        if (zone === 'utc') await shotsAtEveryWidth(page(), SHOTS, 'token-expiry-in-utc');
        await dialog().getByRole('button', { name: 'Create token' }).click();
        await page().getByTestId('new-token').waitFor();
        const listed = (await ui.api.get('/auth/v1/tokens?method=METHOD_TOKEN')).body.authentications;
        const token = listed.find((a: { metadata: Record<string, string> }) => a.metadata['io.flagpole.auth.token.name'] === name);
        return new Date(token.expiresAt).toISOString();
      };
      expect(await create('in-utc', 'utc', 'Expires (UTC)', 'That is 2099-01-01 13:00 (local, UTC+1).')).toBe('2099-01-01T12:00:00.000Z');
      expect(await create('in-local', 'local', 'Expires (local, UTC+1)', 'That is 2099-01-01 11:00 UTC.')).toBe('2099-01-01T11:00:00.000Z');
    });
  });
});
