/**
 * Two smaller items of issue 21, in a real browser against a real Flagpole with authentication required:
 *  - the theme switch (System, Light, Dark): a choice applies at once, outlasts a reload, and "System" follows the
 *    operating system's scheme live;
 *  - deleting the token you are signed in with warns you first, and signs you out when you go ahead; the token list
 *    marks that token.
 */
import type { Browser, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, launchBrowser, shotsAtEveryWidth, signInWithToken } from './support/browser';

jest.setTimeout(60_000);

const SHOTS = process.env.FLAGPOLE_FIXES_SHOTS ?? '/tmp/shots-fixes';

browserDescribe('issue 21: theme switch and the signed-in token', () => {
  let fp: RunningFlagpole;
  let browser: Browser;
  let api: ReturnType<typeof client>;
  let page: Page;
  let errors: string[];
  const theme = () => page.locator('html').getAttribute('data-theme');
  const choose = (label: string) => page.getByLabel('Theme').selectOption({ label });

  beforeAll(async () => {
    buildUiOnce();
    [fp, browser] = await Promise.all([startFlagpole(TOKEN_REQUIRED), launchBrowser()]);
    api = client(fp.url, bearer(BOOTSTRAP));
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
  });
  beforeEach(async () => {
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' })).newPage();
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
  });
  afterEach(async () => {
    await page.context().close();
    expect(errors.splice(0)).toEqual([]);
  });

  it('applies a chosen theme at once, keeps it after a reload, and follows the system under "System"', async () => {
    await signInWithToken(page, fp.url, BOOTSTRAP);
    expect(await theme()).toBe('light');
    expect(await page.getByLabel('Theme').inputValue()).toBe('system');

    await choose('Dark');
    await page.locator('html[data-theme="dark"]').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
    expect(await theme()).toBe('dark');
    expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
    // An explicit choice ignores the system's scheme...
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await theme()).toBe('dark');

    // ...and "System" follows it, live.
    await choose('System');
    await page.locator('html[data-theme="light"]').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-theme="dark"]').waitFor();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('html[data-theme="light"]').waitFor();
    await shotsAtEveryWidth(page, SHOTS, 'theme-switch');
  });

  it('warns before the signed-in token is deleted, marks it in the list, and signs out when it goes', async () => {
    const created = async (name: string) =>
      (await api.post('/auth/v1/method/token', { name, description: 'ui test' })).body as { clientToken: string; authentication: { id: string } };
    const mine = await created('my-laptop');
    await created('ci-pipeline');
    await signInWithToken(page, fp.url, mine.clientToken);
    await page.getByRole('link', { name: 'Static tokens' }).click();
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await row('my-laptop').getByText('signed in with it').waitFor();
    expect(await row('ci-pipeline').getByText('signed in with it').count()).toBe(0);

    // Another token: the usual question only.
    await page.getByRole('button', { name: 'Delete token ci-pipeline' }).click();
    await page.getByRole('dialog').getByText('Clients using it are refused').waitFor();
    expect(await page.getByRole('dialog').getByText('You are signed in with this token.').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete token my-laptop' }).click();
    await page.getByRole('dialog').getByText('You are signed in with this token.').waitFor();
    await shotsAtEveryWidth(page, SHOTS, 'delete-own-token');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete token' }).click();
    // Gone on the server, and the page is back at sign-in.
    await page.getByLabel('Client token').waitFor();
    expect((await api.get(`/auth/v1/tokens/${mine.authentication.id}`)).status).toBe(404);
  });
});
