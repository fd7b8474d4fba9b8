/**
 * Issue 43 ("a new user's first day without traps"), static tokens and a viewer, in Chromium against a real Flagpole
 * with authentication and the example authorization policy (docs/authorization.example.yml, which makes the
 * bootstrap token an admin):
 *  13. the tokens' footer counts as the other lists do ("1–2 of 2 tokens"; one token in the singular);
 *  23. a token is created with a role from the form, and the API then treats it as that role;
 *  24. a page-size choice on the tokens list, and several tokens deleted with one confirmation that names how many
 *      and warns when the signed-in token is among them;
 *  11. a viewer is not offered what it may not do: no Copy to namespace, no Audit trail or Static tokens in the
 *      navigation or the palette; why Import… and New namespace are disabled is written on the page.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-43/g5/ (FLAGPOLE_G5_SHOTS); none may scroll sideways.
 */
import type { Page } from 'playwright-core';
import { bearer } from '../auth/support';
import { authorizationEnv, policyFile, tokenWithRole } from '../authorization/support';
import { client } from '../support/flagpole';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_G5_SHOTS ?? '/tmp/shots-43/g5';
const NAME = 'io.flagpole.auth.token.name';

/** A second namespace, and a flag and a segment in default, each something a viewer could be offered to copy. */
async function seed(api: SignedInSuite['api']): Promise<void> {
  const made = [
    await api.post('/api/v1/namespaces', { key: 'production', name: 'Production' }),
    await api.post('/api/v1/namespaces/default/flags', { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true }),
    await api.post('/api/v1/namespaces/default/segments', { key: 'beta-users', name: 'Beta users', matchType: 'ANY_MATCH_TYPE' }),
  ];
  expect(made.map((r) => r.status)).toEqual([200, 200, 200]);
}

browserDescribe('issue 43: static tokens, and what a viewer is offered', () => {
  const ui = signedInSuite(seed, { env: authorizationEnv(policyFile()) });
  const page = () => ui.page;
  const dialog = () => page().getByRole('dialog');
  const footer = () => page().getByRole('navigation', { name: 'Pages of tokens' }).getByRole('status');
  const row = (name: string) => page().locator('main tbody tr').filter({ has: page().getByText(name, { exact: true }) });
  const tokenNames = async (): Promise<string[]> =>
    ((await ui.api.get('/auth/v1/tokens?method=METHOD_TOKEN&limit=100')).body.authentications as Array<{ metadata: Record<string, string> }>).map(
      (a) => a.metadata[NAME],
    );
  const createTokens = async (names: string[]) => {
    for (const name of names) expect((await ui.api.post('/auth/v1/method/token', { name })).status).toBe(200);
  };

  it('13. counts tokens in the footer as the other lists count theirs', async () => {
    await ui.open('/settings/tokens');
    await row('initial_bootstrap_token').waitFor();
    expect(await footer().textContent()).toBe('1–1 of 1 token');
    await createTokens(['ci-pipeline']);
    await page().reload();
    await row('ci-pipeline').waitFor();
    expect(await footer().textContent()).toBe('1–2 of 2 tokens');
  });

  it('24. offers 25, 50 or 100 tokens a page, and says when there are more than a page shows', async () => {
    await createTokens(Array.from({ length: 28 }, (_, i) => `batch-${String(i + 1).padStart(2, '0')}`));
    await ui.open('/settings/tokens');
    await page().reload();
    await row('batch-23').waitFor();
    expect(await page().locator('main tbody tr').count()).toBe(25);
    expect(await footer().textContent()).toBe('1–25 of more than 25 tokens');
    const perPage = page().getByLabel('Per page');
    expect(await perPage.locator('option').allTextContents()).toEqual(['25', '50', '100']);
    await perPage.selectOption('50');
    await row('batch-28').waitFor();
    expect(await footer().textContent()).toBe('1–30 of 30 tokens');
  });

  it('24. deletes several tokens with one confirmation naming how many, warning when the signed-in one is among them', async () => {
    await ui.open('/settings/tokens');
    await page().getByLabel('Per page').selectOption('50');
    await row('batch-28').waitFor();
    const select = (name: string) => page().getByRole('checkbox', { name: `Select token ${name}` });
    await select('batch-01').check();
    await select('batch-02').check();
    await select('initial_bootstrap_token').check();
    expect(await row('initial_bootstrap_token').getByText('signed in with it').count()).toBe(1);
    await page().getByText('3 tokens selected').waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'tokens-selected');

    await page().getByRole('button', { name: 'Delete selected' }).click();
    expect(await dialog().getByRole('heading').textContent()).toBe('Delete 3 tokens?');
    await dialog().getByText('You are signed in with one of these tokens.').waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'tokens-delete-three');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await select('initial_bootstrap_token').uncheck();
    await page().getByRole('button', { name: 'Delete selected' }).click();
    expect(await dialog().getByRole('heading').textContent()).toBe('Delete 2 tokens?');
    expect(await dialog().getByText('You are signed in with').count()).toBe(0);
    await dialog().getByRole('button', { name: 'Delete 2 tokens' }).click();
    await page().getByText('2 tokens deleted').waitFor();
    await row('batch-01').waitFor({ state: 'detached' });
    expect(await footer().textContent()).toBe('1–28 of 28 tokens');
    const left = await tokenNames();
    expect(left).toHaveLength(28);
    expect(left).not.toContain('batch-01');
    expect(left).not.toContain('batch-02');
    await page().getByText('Select tokens to delete several at once.').waitFor();

    // Every token of the page at once, and back.
    const all = page().getByRole('checkbox', { name: 'Select every token on this page' });
    await all.check();
    await page().getByText('28 tokens selected').waitFor();
    await all.uncheck();
    await page().getByText('Select tokens to delete several at once.').waitFor();
    expect(await page().getByRole('button', { name: 'Delete selected' }).isDisabled()).toBe(true);
  });

  it('23. creates a token holding a role, which the API then treats as that role: it reads but may not write', async () => {
    await ui.open('/settings/tokens');
    await page().getByRole('button', { name: 'New token' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('dashboards');
    await dialog().getByLabel('Role').fill('viewer');
    await shotsAtEveryWidth(page(), SHOTS, 'token-form-role');
    await dialog().getByRole('button', { name: 'Create token' }).click();
    const token = await page().getByTestId('new-token').inputValue();
    // The list shows the role it names (the new token is past the first 25).
    await page().getByLabel('Per page').selectOption('50');
    await row('dashboards').getByRole('cell', { name: 'viewer', exact: true }).waitFor();

    const listed = (await ui.api.get('/auth/v1/tokens?method=METHOD_TOKEN&limit=100')).body.authentications as Array<{ metadata: Record<string, string> }>;
    expect(listed.find((a) => a.metadata[NAME] === 'dashboards')?.metadata).toMatchObject({ 'io.flagpole.auth.role': 'viewer' });
    const asIt = client(ui.fp.url, bearer(token));
    expect((await asIt.get('/api/v1/namespaces/default/flags')).status).toBe(200);
    expect((await asIt.post('/api/v1/namespaces/default/flags', { key: 'not-mine', name: 'Not mine', type: 'BOOLEAN_FLAG_TYPE' })).status).toBe(403);
  });

  it('11. an admin is offered the audit trail, static tokens and Copy to namespace', async () => {
    await ui.open('/namespaces/default/flags/checkout');
    await page().getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    expect(await page().getByRole('button', { name: 'Copy to namespace' }).isEnabled()).toBe(true);
    for (const name of ['Audit trail', 'Static tokens']) expect(await page().getByRole('link', { name, exact: true }).isVisible()).toBe(true);
  });

  describe('11. a viewer', () => {
    let viewer: Page;
    let errors: string[];
    const open = (hash: string) => viewer.goto(`${ui.fp.url}/#${hash}`);

    beforeAll(async () => {
      const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 } });
      viewer = await context.newPage();
      viewer.setDefaultTimeout(10_000);
      errors = collectPageErrors(viewer);
      await signInWithToken(viewer, ui.fp.url, await tokenWithRole(ui.api, 'viewer'));
    });
    afterEach(() => expect(errors.splice(0)).toEqual([]));

    it('is offered neither the audit trail nor static tokens, in the navigation or the palette', async () => {
      await open('/namespaces/default/flags');
      await viewer.getByRole('link', { name: 'Checkout' }).waitFor();
      const nav = viewer.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link', { name: 'Segments', exact: true }).isVisible()).toBe(true);
      expect(await viewer.getByRole('link', { name: 'Audit trail', exact: true }).count()).toBe(0);
      expect(await viewer.getByRole('link', { name: 'Static tokens', exact: true }).count()).toBe(0);
      await shotsAtEveryWidth(viewer, SHOTS, 'viewer-flags');

      await viewer.keyboard.press('Control+K');
      const palette = viewer.getByRole('dialog', { name: 'Go to' });
      await palette.getByRole('combobox').waitFor();
      await palette.getByRole('option').first().waitFor();
      const offered = await palette.getByRole('option').allInnerTexts();
      expect(offered.some((o) => o.includes('Segments'))).toBe(true);
      expect(offered.filter((o) => /Audit trail|Static tokens/.test(o))).toEqual([]);
      await viewer.keyboard.press('Escape');
    });

    it('is not offered Copy to namespace for a flag or a segment', async () => {
      await open('/namespaces/default/flags/checkout');
      await viewer.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
      expect(await viewer.getByRole('button', { name: 'Copy to namespace' }).count()).toBe(0);
      await shotsAtEveryWidth(viewer, SHOTS, 'viewer-flag');
      await open('/namespaces/default/segments/beta-users');
      await viewer.getByRole('heading', { name: 'Beta users', level: 1 }).waitFor();
      expect(await viewer.getByRole('button', { name: 'Copy to namespace' }).count()).toBe(0);
    });

    it('reads on the namespaces page why Import… and New namespace are disabled', async () => {
      await open('/namespaces');
      await viewer.getByRole('button', { name: 'Export namespace production' }).waitFor();
      const why = 'Your role (viewer) may not import flags and segments or create namespaces.';
      for (const name of ['Import…', 'New namespace']) {
        const button = viewer.getByRole('button', { name, exact: true });
        expect(await button.isDisabled()).toBe(true);
        const note = viewer.locator(`[id="${await button.getAttribute('aria-describedby')}"]`);
        expect({ name, note: await note.textContent(), visible: await note.isVisible() }).toEqual({ name, note: why, visible: true });
      }
      await shotsAtEveryWidth(viewer, SHOTS, 'viewer-namespaces');
    });
  });
});
