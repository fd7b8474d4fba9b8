/**
 * A flag's metadata in the UI (issue 21, "reach Flipt's UI"): shown as rows of key, type and value, edited and saved
 * as one JSON object the API keeps as it is; a row that cannot be converted says why and blocks saving; the switch and
 * "Save details" leave the metadata alone. In a real browser against a real Flagpole with authentication required;
 * what was saved is read back through the API.
 */
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(60_000);

const SHOTS = process.env.FLAGPOLE_FIXES_SHOTS ?? '/tmp/shots-fixes';

browserDescribe('issue 21: flag metadata', () => {
  const ui = signedInSuite(async (api) => {
    await buildNamespace(api, { key: 'meta', flags: [{ key: 'checkout', variants: [{ key: 'on' }] }] });
    await api.put('/api/v1/namespaces/meta/flags/checkout', {
      name: 'checkout', enabled: false, metadata: { owner: 'payments', ticket: 4711, reviewed: true, links: { runbook: 'https://x.test/rb' } },
    });
  });
  const section = () => ui.page.getByRole('region', { name: 'Metadata' });
  const stored = async () => (await ui.api.get('/api/v1/namespaces/meta/flags/checkout')).body.metadata;

  it('shows, edits and saves the metadata as typed values, and keeps it when the flag is switched', async () => {
    await ui.open('/namespaces/meta/flags/checkout');
    await section().getByLabel('Metadata key 1').waitFor();
    expect(await section().getByLabel('Metadata value 1').inputValue()).toBe('payments');
    expect(await section().getByLabel('Metadata type 2').inputValue()).toBe('number');
    expect(await section().getByLabel('Metadata value 3').inputValue()).toBe('true');
    expect(JSON.parse(await section().getByLabel('Metadata value 4').inputValue())).toEqual({ runbook: 'https://x.test/rb' });
    await shotsAtEveryWidth(ui.page, SHOTS, 'flag-metadata');

    // Nothing changed yet: nothing to save.
    const save = section().getByRole('button', { name: 'Save metadata' });
    expect(await save.isDisabled()).toBe(true);

    // A number that is none: said so, and saving waits.
    await section().getByLabel('Metadata value 2').fill('47x');
    await section().getByRole('alert').filter({ hasText: '"ticket" is not a number.' }).waitFor();
    expect(await save.isDisabled()).toBe(true);
    await section().getByLabel('Metadata value 2').fill('4712');

    // Remove one, add one of each kind.
    await section().getByRole('button', { name: 'Remove metadata reviewed' }).click();
    await section().getByRole('button', { name: 'Add metadata' }).click();
    await section().getByLabel('Metadata key 4').fill('tier');
    await section().getByLabel('Metadata type 4').selectOption('boolean');
    await section().getByLabel('Metadata value 4').selectOption('false');
    await save.click();
    await ui.page.getByText('Metadata of checkout saved').waitFor();
    expect(await stored()).toEqual({ owner: 'payments', ticket: 4712, links: { runbook: 'https://x.test/rb' }, tier: false });

    // The switch saves the flag without a metadata field: the API keeps what is stored.
    await ui.page.getByRole('switch', { name: 'Enabled' }).click();
    await ui.page.getByRole('switch', { name: 'Enabled', checked: true }).waitFor();
    expect(await stored()).toEqual({ owner: 'payments', ticket: 4712, links: { runbook: 'https://x.test/rb' }, tier: false });

    // Removing every row removes the metadata.
    for (const key of ['owner', 'ticket', 'links', 'tier']) await section().getByRole('button', { name: `Remove metadata ${key}` }).click();
    await section().getByText('No metadata.').waitFor();
    await save.click();
    await ui.page.getByText('Metadata of checkout saved').last().waitFor();
    await section().getByRole('button', { name: 'Save metadata', disabled: true }).waitFor();
    expect(await stored()).toBeUndefined();
  });

  it('refuses a key given twice and JSON that is not JSON', async () => {
    await ui.open('/namespaces/meta/flags/checkout');
    await section().getByRole('button', { name: 'Add metadata' }).click();
    await section().getByLabel('Metadata key 1').fill('a');
    await section().getByRole('button', { name: 'Add metadata' }).click();
    await section().getByLabel('Metadata key 2').fill('a');
    await section().getByRole('alert').filter({ hasText: 'The key "a" is there twice.' }).waitFor();
    await section().getByLabel('Metadata key 2').fill('b');
    await section().getByLabel('Metadata type 2').selectOption('json');
    await section().getByLabel('Metadata value 2').fill('{nope');
    await section().getByRole('alert').filter({ hasText: '"b" is not valid JSON' }).waitFor();
    expect(await section().getByRole('button', { name: 'Save metadata' }).isDisabled()).toBe(true);
  });
});
