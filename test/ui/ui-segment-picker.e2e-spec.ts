/**
 * The segment picker of the rule and rollout dialogs (issue 21, "clumsy"): it finds segments by key and by name as
 * you type, picks with the keyboard or the mouse, and a complete key typed and left in the box is taken by "Add rule"
 * without pressing Enter or "Add segment" first. In a real browser against a real Flagpole with authentication
 * required; what was saved is checked through the API.
 */
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(60_000);

const SHOTS = process.env.FLAGPOLE_FIXES_SHOTS ?? '/tmp/shots-fixes';

browserDescribe('issue 21: the segment picker', () => {
  const ui = signedInSuite((api) =>
    buildNamespace(api, {
      key: 'picker',
      segments: [
        { key: 'beta-users', name: 'Beta testers' },
        { key: 'staff', name: 'Employees' },
        { key: 'everyone', name: 'Everyone' },
        { key: 'employer-accounts', name: 'Business' },
      ],
      flags: [{ key: 'colour', variants: [{ key: 'blue' }] }],
    }),
  );
  const dialog = () => ui.page.getByRole('dialog');
  const box = () => dialog().getByRole('combobox', { name: 'Add a segment' });
  const options = () => dialog().getByRole('listbox', { name: 'Matching segments' }).getByRole('option').allInnerTexts();
  const chosen = () => dialog().getByRole('list', { name: 'Chosen segments' });
  /** The chips, once `last` is among them (downshift reports a pick just after the event that made it). */
  const chipsWith = async (last: string) => {
    await chosen().getByText(last, { exact: true }).waitFor();
    return chosen().getByRole('listitem').allInnerTexts();
  };
  const savedSegments = async (flag: string) =>
    ((await ui.api.get(`/api/v1/namespaces/picker/flags/${flag}/rules`)).body.rules as Array<{ segmentKey?: string; segmentKeys?: string[] }>).map(
      (r) => (r.segmentKeys?.length ? r.segmentKeys : [r.segmentKey]),
    );

  it('finds segments by key and name, picks by keyboard and mouse, and takes a typed key on "Add rule"', async () => {
    await ui.open('/namespaces/picker/flags/colour');
    await ui.page.getByRole('button', { name: 'Add rule' }).click();

    // By name: "employ" is in staff's name and in employer-accounts' key; keys that start with it come first.
    await box().fill('employ');
    expect(await options()).toEqual([expect.stringMatching(/^employer-accounts/), expect.stringMatching(/^staff\s+Employees/)]);
    await shotsAtEveryWidth(ui.page, SHOTS, 'segment-picker');
    await box().press('ArrowDown');
    await box().press('ArrowDown');
    await box().press('Enter');
    expect(await chipsWith('staff')).toEqual([expect.stringMatching(/^staff/)]);
    // The box is empty again, and the list offers the rest for the next pick; Enter picked, it did not submit.
    expect(await box().inputValue()).toBe('');
    await dialog().waitFor();

    // By mouse, from a part of a name.
    await box().fill('testers');
    await dialog().getByRole('listbox', { name: 'Matching segments' }).getByRole('option', { name: /beta-users/ }).click();
    expect(await chipsWith('beta-users')).toEqual([expect.stringMatching(/^staff/), expect.stringMatching(/^beta-users/)]);

    // Something that is no segment: said so under the box, and nothing is added.
    await box().fill('nobody');
    await box().press('Enter');
    await dialog().getByText('There is no segment "nobody" in this namespace.').waitFor();
    expect(await chosen().getByRole('listitem').count()).toBe(2);

    // A complete key typed and left there, with the pointer resting on its suggestion (which highlights it, and a blur
    // with a highlighted item chooses nothing in downshift): "Add rule" takes it all the same.
    await box().fill('everyone');
    await dialog().getByRole('listbox', { name: 'Matching segments' }).getByRole('option', { name: /everyone/ }).hover();
    await dialog().getByRole('button', { name: 'Add rule' }).click();
    await dialog()
      .waitFor({ state: 'detached' })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}\nThe dialog still shows:\n${await dialog().innerText().catch(() => '(gone)')}`);
      });
    expect(await savedSegments('colour')).toEqual([['staff', 'beta-users', 'everyone']]);
  });
});
