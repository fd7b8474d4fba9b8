/**
 * Issue 43 ("a new user's first day without traps"), the imports and namespaces group, in Chromium against a real
 * Flagpole with authentication required:
 *  1. an import that deletes the namespace first says what it deletes (counts and keys) and asks; Cancel deletes
 *     nothing;
 *  10. a document exported from one namespace can be imported into another, as Flipt's `import --namespace`; a stream
 *      about several namespaces is refused in words;
 *  12. a copy refused because the key is taken says so truly (keys cannot be renamed) and offers the real choices;
 *  16. the namespace switcher keeps the page: the same flag or segment where it exists, the console's flag, Static
 *      tokens.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-43/g1 (FLAGPOLE_G1_SHOTS).
 */
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_G1_SHOTS ?? '/tmp/shots-43/g1';
const MANY = Array.from({ length: 14 }, (_, i) => `feature-${String(i + 1).padStart(2, '0')}`);

browserDescribe('issue 43: imports, copies and the namespace switcher', () => {
  const ui = signedInSuite(async (api) => {
    await buildNamespace(api, {
      key: 'shop',
      segments: [{ key: 'beta' }, { key: 'staff' }, { key: 'europe' }],
      flags: [{ key: 'colour', variants: [{ key: 'blue' }] }, { key: 'dark', type: 'BOOLEAN_FLAG_TYPE' }],
    });
    await buildNamespace(api, { key: 'many', flags: MANY.map((key) => ({ key })) });
    await buildNamespace(api, {
      key: 'src',
      segments: [{ key: 'beta', name: 'Beta' }],
      flags: [{ key: 'checkout', name: 'Checkout', variants: [{ key: 'control' }, { key: 'treatment' }] }],
    });
    await buildNamespace(api, { key: 'dst', segments: [{ key: 'beta' }], flags: [{ key: 'checkout' }] });
    await buildNamespace(api, { key: 'staging' });
    await buildNamespace(api, { key: 'blank' });
  });
  const page = () => ui.page;
  const dialog = (name: string) => page().getByRole('dialog', { name });
  const url = () => decodeURIComponent(new URL(page().url()).hash);
  const keysIn = async (ns: string, kind: 'flags' | 'segments') =>
    ((await ui.api.get(`/api/v1/namespaces/${ns}/${kind}`)).body[kind] as Array<{ key: string }>).map((x) => x.key).sort();
  const switcher = () => page().locator('#namespace-switcher');
  /** Cancels a dialog with typed text, discarding it when asked (another item of issue 43 asks). */
  const cancel = async (form: ReturnType<typeof dialog>) => {
    await form.getByRole('button', { name: 'Cancel' }).click();
    const discard = dialog('Discard your changes?').getByRole('button', { name: 'Discard changes' });
    await Promise.race([form.waitFor({ state: 'detached' }), discard.click({ timeout: 5_000 }).catch(() => undefined)]);
    await form.waitFor({ state: 'detached' });
  };

  describe('1. an import that deletes first asks', () => {
    it('names what it would delete; Cancel deletes nothing, and Delete and import replaces the namespace', async () => {
      await ui.open('/namespaces');
      await page().getByRole('button', { name: 'Import into namespace shop' }).click();
      const form = dialog('Import into namespace shop');
      await form.getByLabel('Document', { exact: true }).fill('flags:\n- key: only\n  name: Only\n');
      await form.getByLabel(/Delete all of them first/).check();
      await form.getByRole('button', { name: 'Import' }).click();

      const confirm = dialog('Replace everything in namespace shop?');
      await confirm.waitFor();
      const said = (await confirm.innerText()).replace(/\s+/g, ' ');
      expect(said).toContain('2 flags and 3 segments');
      expect(said).toContain('Flags (2): colour, dark');
      expect(said).toContain('Segments (3): beta, europe, staff');
      await shotsAtEveryWidth(page(), SHOTS, 'import-replace-confirm');

      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      // Back in the import dialog, as it was; nothing deleted.
      expect(await form.getByLabel('Document', { exact: true }).inputValue()).toBe('flags:\n- key: only\n  name: Only\n');
      expect(await keysIn('shop', 'flags')).toEqual(['colour', 'dark']);
      expect(await keysIn('shop', 'segments')).toEqual(['beta', 'europe', 'staff']);

      await form.getByRole('button', { name: 'Import' }).click();
      await confirm.getByRole('button', { name: 'Delete and import' }).click();
      await page().getByText('1 flag and 0 segments imported into shop (2 flags and 3 segments replaced)').waitFor();
      expect(await dialog('Import into namespace shop').count()).toBe(0);
      expect(await keysIn('shop', 'flags')).toEqual(['only']);
      expect(await keysIn('shop', 'segments')).toEqual([]);
    });

    it('lists at most ten keys of a long namespace, and says how many more', async () => {
      await ui.open('/namespaces');
      await page().getByRole('button', { name: 'Import into namespace many' }).click();
      const form = dialog('Import into namespace many');
      await form.getByLabel('Document', { exact: true }).fill('flags: []\n');
      await form.getByLabel(/Delete all of them first/).check();
      await form.getByRole('button', { name: 'Import' }).click();
      const confirm = dialog('Replace everything in namespace many?');
      await confirm.waitFor();
      const said = (await confirm.innerText()).replace(/\s+/g, ' ');
      expect(said).toContain(`Flags (14): ${MANY.slice(0, 10).join(', ')} and 4 more`);
      expect(said).not.toContain('feature-11');
      expect(said).not.toContain('Segments (');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      await cancel(form);
      expect(await keysIn('many', 'flags')).toEqual(MANY);
    });
  });

  describe("10. another namespace's document", () => {
    it('says whose document it is and imports it into the chosen namespace when asked', async () => {
      const exported = (await ui.api.get('/api/v1/namespaces/src/export')).text;
      expect(exported).toContain('key: src');
      await ui.open('/namespaces');
      await page().getByRole('button', { name: 'Import into namespace staging' }).click();
      const form = dialog('Import into namespace staging');
      await form.getByLabel('Document', { exact: true }).fill(exported);
      await form.getByText('This document is for namespace src, not staging.').waitFor();
      await shotsAtEveryWidth(page(), SHOTS, 'import-other-namespace');
      await form.getByLabel('Import it into staging instead').check();
      await form.getByRole('button', { name: 'Import' }).click();
      await page().getByText('1 flag and 1 segment imported into staging').waitFor();
      expect(await keysIn('staging', 'flags')).toEqual(['checkout']);
      expect((await ui.api.get('/api/v1/namespaces/staging/flags/checkout')).body.variants.map((v: { key: string }) => v.key)).toEqual(['control', 'treatment']);
      // The source is as it was, and the namespace kept its own name.
      expect(await keysIn('src', 'flags')).toEqual(['checkout']);
      expect((await ui.api.get('/api/v1/namespaces/staging')).body.name).toBe('staging');
    });

    it('refuses a stream about several namespaces in words, with Import disabled', async () => {
      await ui.open('/namespaces');
      await page().getByRole('button', { name: 'Import into namespace blank' }).click();
      const form = dialog('Import into namespace blank');
      await form.getByLabel('Document', { exact: true }).fill('namespace: src\nflags: []\n---\nnamespace: dst\nflags: []\n');
      await form.getByText('This text holds documents for several namespaces (src, dst)', { exact: false }).waitFor();
      expect(await form.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
      await shotsAtEveryWidth(page(), SHOTS, 'import-several-namespaces');
      await cancel(form);
    });
  });

  describe('12. a copy refused because the key is taken', () => {
    for (const [what, list] of [['flag', 'flags'], ['segment', 'segments']] as const) {
      const key = what === 'flag' ? 'checkout' : 'beta';
      it(`says the ${what} exists there and cannot be renamed, and opens it there on request`, async () => {
        await ui.open(`/namespaces/src/${list}/${key}`);
        await page().getByRole('button', { name: 'Copy to namespace' }).click();
        const form = dialog(`Copy ${what} ${key} to another namespace`);
        await form.getByLabel('Namespace', { exact: true }).selectOption('dst');
        await form.getByRole('button', { name: `Copy ${what}` }).click();
        const alert = form.getByRole('alert');
        await alert.waitFor();
        const said = (await alert.innerText()).replace(/\s+/g, ' ');
        expect(said).toBe(
          `${what === 'flag' ? 'Flag' : 'Segment'} ${key} already exists in namespace dst, and a key cannot be changed. ` +
            `Copy it to another namespace, or delete that ${what} in dst first. Open ${what} ${key} in dst`,
        );
        if (what === 'flag') await shotsAtEveryWidth(page(), SHOTS, 'copy-taken');
        await alert.getByRole('link', { name: `Open ${what} ${key} in dst` }).click();
        await page().getByRole('dialog').waitFor({ state: 'detached' });
        expect(url()).toBe(`#/namespaces/dst/${list}/${key}`);
        await page().getByRole('heading', { name: key, level: 1 }).waitFor();
      });
    }
  });

  describe('16. the namespace switcher keeps the page', () => {
    it('goes to the same flag or segment where the namespace has it, else to the list', async () => {
      await ui.open('/namespaces/src/flags/checkout?view=history');
      await switcher().selectOption('dst');
      await page().waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash.startsWith('#/namespaces/dst/'));
      expect(url()).toBe('#/namespaces/dst/flags/checkout?view=history');
      await switcher().selectOption('blank');
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      expect(url()).toBe('#/namespaces/blank/flags');

      await ui.open('/namespaces/src/segments/beta');
      await switcher().selectOption('dst');
      await page().waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash.startsWith('#/namespaces/dst/'));
      expect(url()).toBe('#/namespaces/dst/segments/beta');
      await switcher().selectOption('blank');
      await page().getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
      expect(url()).toBe('#/namespaces/blank/segments');
    });

    it('keeps the flag typed into the console, and keeps Static tokens where it is', async () => {
      await ui.open('/namespaces/src/console');
      await page().getByLabel('Flag key').fill('checkout');
      await switcher().selectOption('dst');
      await page().getByText('Evaluate a flag in namespace dst as a client would').waitFor();
      expect(url()).toBe('#/namespaces/dst/console?flag=checkout');
      expect(await page().getByLabel('Flag key').inputValue()).toBe('checkout');

      await ui.open('/settings/tokens');
      await page().getByRole('heading', { name: 'Static tokens', level: 1 }).waitFor();
      await switcher().selectOption('staging');
      await page().getByRole('navigation', { name: 'Main' }).getByText('staging', { exact: true }).waitFor();
      expect(url()).toBe('#/settings/tokens');
      expect(await switcher().inputValue()).toBe('staging');
      expect(await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flags' }).getAttribute('href')).toBe('#/namespaces/staging/flags');
      await page().getByRole('heading', { name: 'Static tokens', level: 1 }).waitFor();
    });
  });
});
