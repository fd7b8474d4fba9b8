/**
 * Issue 43, a new user's first day: the forms' traps (items 2, 3, 6 and 17). The segment picker keeps every key
 * typed fast and lets Escape close its list, then the dialog; new flags and segments open without an error and with
 * the focus in the name; a dialog with typed content asks before throwing it away; the rule dialog refuses a split
 * that is not 100 % while it is typed, as the inline split does; a variant key with a space gets a hint; keys made
 * from names keep accented letters; the console keeps its entity and context when you come back. In a real browser
 * against a real Flagpole with authentication required.
 */
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, isFocused, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_FIRST_DAY_SHOTS ?? '/tmp/shots-43/g2';

browserDescribe('issue 43: first-day traps in forms', () => {
  const ui = signedInSuite((api) =>
    buildNamespace(api, {
      key: 'day',
      segments: [
        { key: 'premium', name: 'Premium customers' },
        { key: 'internal-staff', name: 'Internal staff' },
        { key: 'press', name: 'Press' },
      ],
      flags: [
        { key: 'colour', variants: [{ key: 'red' }, { key: 'green' }, { key: 'blue' }] },
        { key: 'dark-mode', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      ],
    }),
  );
  const page = () => ui.page;
  const dialog = (name?: string) => page().getByRole('dialog', name ? { name } : undefined);
  const ruleDialog = () => dialog('New rule');
  const box = () => ruleDialog().getByRole('combobox', { name: 'Add a segment' });
  const discardPrompt = () => dialog('Discard your changes?');
  /** Closes a dialog something was typed in: Cancel, then "Discard changes" when asked. */
  const cancelDiscarding = async (name: string) => {
    await dialog(name).getByRole('button', { name: 'Cancel' }).click();
    await discardPrompt().getByRole('button', { name: 'Discard changes' }).click();
    await dialog(name).waitFor({ state: 'detached' });
  };

  describe('2. the segment picker keeps every key typed fast', () => {
    for (const delay of [0, 10]) {
      it(`keeps "premium" and "internal-staff" typed ${delay} ms apart, in the rule and the rollout dialog`, async () => {
        await ui.open('/namespaces/day/flags/colour');
        await page().getByRole('button', { name: 'Add rule' }).first().click();
        for (const word of ['premium', 'internal-staff']) {
          await box().fill('');
          await box().pressSequentially(word, { delay });
          expect(await box().inputValue()).toBe(word);
        }
        await cancelDiscarding('New rule');

        await ui.open('/namespaces/day/flags/dark-mode');
        await page().getByRole('button', { name: 'Add rollout' }).first().click();
        await dialog('New rollout').getByLabel('entities in segments').check();
        const rolloutBox = dialog('New rollout').getByRole('combobox', { name: 'Add a segment' });
        await rolloutBox.click();
        await page().keyboard.type('internal-staff', { delay });
        expect(await rolloutBox.inputValue()).toBe('internal-staff');
        await cancelDiscarding('New rollout');
      });
    }
  });

  describe('3. Escape in the segment picker', () => {
    it('with nothing typed, closes the open suggestion list first, then the dialog', async () => {
      await ui.open('/namespaces/day/flags/colour');
      await page().getByRole('button', { name: 'Add rule' }).first().click();
      await box().focus();
      await page().keyboard.press('ArrowDown');
      const list = ruleDialog().getByRole('listbox', { name: 'Matching segments' }).getByRole('option');
      await list.first().waitFor();
      await page().keyboard.press('Escape');
      await list.first().waitFor({ state: 'detached' });
      await ruleDialog().waitFor();
      await page().keyboard.press('Escape');
      await ruleDialog().waitFor({ state: 'detached' });
    });

    it('with typed text, closes the list, then asks before closing: Keep editing keeps the text, Discard closes', async () => {
      await ui.open('/namespaces/day/flags/colour');
      await page().getByRole('button', { name: 'Add rule' }).first().click();
      await box().fill('pre');
      const suggestions = ruleDialog().getByRole('listbox', { name: 'Matching segments' }).getByRole('option');
      await suggestions.first().waitFor();
      await page().keyboard.press('Escape');
      await suggestions.first().waitFor({ state: 'detached' });
      expect(await box().inputValue()).toBe('pre');
      await page().keyboard.press('Escape');
      await discardPrompt().waitFor();
      await shotsAtEveryWidth(page(), SHOTS, 'discard-prompt');
      // Escape in the question is "Keep editing": the question closes, the dialog stays with the text.
      await page().keyboard.press('Escape');
      await discardPrompt().waitFor({ state: 'detached' });
      await ruleDialog().waitFor();
      expect(await box().inputValue()).toBe('pre');
      await page().keyboard.press('Escape');
      await discardPrompt().getByRole('button', { name: 'Discard changes' }).click();
      await ruleDialog().waitFor({ state: 'detached' });
    });
  });

  describe('6. a new flag or segment opens clean, with the focus in the name', () => {
    for (const [kind, heading] of [['flag', 'New flag'], ['segment', 'New segment']] as const) {
      it(`${heading}: no error before anything is typed, the name focused, the error on submit`, async () => {
        await ui.open(`/namespaces/day/${kind}s`);
        await page().getByRole('link', { name: heading }).click();
        await page().getByRole('heading', { name: heading, level: 1 }).waitFor();
        const name = page().getByLabel('Name', { exact: true });
        await name.waitFor();
        // Give any late focus move or blur the chance to show an error before looking.
        await page().evaluate(() => new Promise((r) => setTimeout(r, 300)));
        expect(await page().locator('main .field-error').allInnerTexts()).toEqual([]);
        expect(await isFocused(name)).toBe(true);
        if (kind === 'flag') await shotsAtEveryWidth(page(), SHOTS, 'new-flag-clean');
        await page().getByRole('button', { name: `Create ${kind}` }).click();
        await page().getByText('A name is required.').waitFor();
      });
    }
  });

  describe('17. the same checks everywhere, nothing typed thrown away', () => {
    it('the rule dialog refuses a split that is not 100 % while it is typed', async () => {
      await ui.open('/namespaces/day/flags/colour');
      await page().getByRole('button', { name: 'Add rule' }).first().click();
      await box().fill('premium');
      await box().press('Enter');
      await ruleDialog().getByLabel('a percentage split').check();
      await ruleDialog().getByLabel('red').fill('60');
      await ruleDialog().getByText('The percentages must add up to 100% (now 126.67%).').waitFor();
      expect(await ruleDialog().getByRole('button', { name: 'Add rule' }).isDisabled()).toBe(true);
      await shotsAtEveryWidth(page(), SHOTS, 'rule-split-refused');
      await ruleDialog().getByLabel('red').fill('33.33');
      expect(await ruleDialog().getByRole('button', { name: 'Add rule' }).isEnabled()).toBe(true);
      await ruleDialog().getByRole('button', { name: 'Close' }).click();
      await discardPrompt().getByRole('button', { name: 'Discard changes' }).click();
      await ruleDialog().waitFor({ state: 'detached' });
    });

    it('a variant key with a space gets the key hint; Cancel with typed content asks first', async () => {
      await ui.open('/namespaces/day/flags/colour');
      await page().getByRole('button', { name: 'Add variant' }).click();
      const key = dialog('New variant').getByLabel('Key');
      await key.fill('my variant');
      await dialog('New variant').getByText('Not usual in a key: space.', { exact: false }).waitFor();
      await shotsAtEveryWidth(page(), SHOTS, 'variant-key-hint');
      await dialog('New variant').getByRole('button', { name: 'Cancel' }).click();
      await discardPrompt().waitFor();
      await discardPrompt().getByRole('button', { name: 'Keep editing' }).click();
      expect(await key.inputValue()).toBe('my variant');
      await dialog('New variant').getByRole('button', { name: 'Cancel' }).click();
      await discardPrompt().getByRole('button', { name: 'Discard changes' }).click();
      await dialog('New variant').waitFor({ state: 'detached' });
    });

    it('a dialog without changes closes at once', async () => {
      await ui.open('/namespaces/day/flags/colour');
      await page().getByRole('button', { name: 'Add variant' }).click();
      await page().keyboard.press('Escape');
      await dialog('New variant').waitFor({ state: 'detached' });
      expect(await discardPrompt().count()).toBe(0);
    });

    it('a name with accented letters becomes a key sensibly', async () => {
      await ui.open('/namespaces/day/create/flag');
      const name = page().getByLabel('Name', { exact: true });
      const key = page().getByLabel('Key', { exact: true });
      await name.fill('Über');
      expect(await key.inputValue()).toBe('uber');
      await name.fill('Crème brûlée');
      expect(await key.inputValue()).toBe('creme-brulee');
      await name.fill('');
    });

    it('the console keeps its entity id and context when you come back', async () => {
      await ui.open('/namespaces/day/console?flag=colour');
      const entity = page().getByLabel('Entity ID');
      await entity.fill('user-42');
      await page().getByLabel('Context key 1').fill('plan');
      await page().getByLabel('Context value 1').fill('pro');
      await ui.open('/namespaces/day/flags');
      await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
      await ui.open('/namespaces/day/console?flag=colour');
      expect(await page().getByLabel('Entity ID').inputValue()).toBe('user-42');
      expect(await page().getByLabel('Context key 1').inputValue()).toBe('plan');
      expect(await page().getByLabel('Context value 1').inputValue()).toBe('pro');
      await shotsAtEveryWidth(page(), SHOTS, 'console-restored');
    });
  });
});
