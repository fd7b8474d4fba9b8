/**
 * Signing in to the UI in a real browser, with authentication required, behind a reverse proxy's path prefix
 * (`/flagpole/`) and with CSRF protection on: the login page lists the enabled methods; an OIDC login runs through a
 * real OpenID Provider (oidc-provider, test/auth/support) and ends with the session cookie; writes pass the
 * cross-origin check; signing out expires the session. A pasted static token works for the tab, and a token that
 * stops working brings the login page back with a word of why.
 */
import type { Browser, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, createToken, TOKEN_REQUIRED } from '../auth/support';
import { startOidcProvider, type RunningProvider } from '../auth/support/oidc';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, launchBrowser, screenshot, sessionItem } from './support/browser';
import { startPrefixProxy, type PrefixProxy } from './support/prefix-proxy';

jest.setTimeout(60_000);

const PROVIDER = 'ACME';

browserDescribe('signing in to the UI', () => {
  let proxy: PrefixProxy;
  let provider: RunningProvider;
  let fp: RunningFlagpole;
  let browser: Browser;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    buildUiOnce();
    proxy = await startPrefixProxy('/flagpole');
    [provider, browser] = await Promise.all([
      startOidcProvider({
        clientId: 'flagpole-ui',
        clientSecret: 'ui-secret-0123456789',
        redirectUri: `${proxy.url}/auth/v1/method/oidc/acme/callback`,
      }),
      launchBrowser(),
    ]);
    const oidc = `FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_${PROVIDER}`;
    fp = await startFlagpole({
      ...TOKEN_REQUIRED,
      FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: '127.0.0.1',
      FLAGPOLE_AUTHENTICATION_SESSION_CSRF_KEY: 'ui-test-csrf-key',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
      [`${oidc}_ISSUER_URL`]: provider.issuer,
      [`${oidc}_CLIENT_ID`]: 'flagpole-ui',
      [`${oidc}_CLIENT_SECRET`]: 'ui-secret-0123456789',
      [`${oidc}_REDIRECT_ADDRESS`]: proxy.url,
      [`${oidc}_SCOPES`]: 'email profile',
    });
    proxy.setTarget(fp.url);
    api = client(fp.url, bearer(BOOTSTRAP));
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
    await provider?.close();
    await proxy?.close();
  });

  /** A fresh browser profile (no cookies, no sessionStorage) on the login page, through the proxy. */
  async function loginPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(10_000);
    const errors = collectPageErrors(page);
    await page.goto(`${proxy.url}/`);
    await page.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();
    return { page, errors };
  }

  it('lists the enabled browser logins and the token field, and serves everything under the prefix', async () => {
    const { page, errors } = await loginPage();
    await page.getByRole('button', { name: 'Sign in with Acme' }).waitFor();
    await page.getByLabel('Client token').waitFor();
    expect(await page.getByRole('button', { name: /GitHub/ }).count()).toBe(0);
    await screenshot(page, 'login');
    // The bare prefix is redirected by the proxy; the UI's assets and API calls all went through /flagpole/.
    await page.goto(proxy.url);
    await page.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();
    expect(page.url()).toBe(`${proxy.url}/`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('signs in through the OIDC provider, works with the session cookie, and signs out', async () => {
    const { page, errors } = await loginPage();
    await page.getByRole('button', { name: 'Sign in with Acme' }).click();
    await page.waitForURL((u) => u.href.startsWith(provider.issuer));
    await page.locator('input[name=login]').fill('alice');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.locator('button[type=submit]').click(); // the consent page
    await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
    expect(page.url()).toBe(`${proxy.url}/#/namespaces/default/flags`);
    await page.getByText('alice@example.com').waitFor();
    const cookies = await page.context().cookies(proxy.url);
    expect(cookies.map((c) => c.name)).toContain('flagpole_client_token');

    // A write with the session cookie, through the prefix, past the cross-origin check.
    await page.getByRole('link', { name: 'New flag' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Signed in');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await page.getByRole('heading', { name: 'Signed in', level: 1 }).waitFor();
    expect((await api.get('/api/v1/namespaces/default/flags/signed-in')).status).toBe(200);

    const sessionCookie = cookies.find((c) => c.name === 'flagpole_client_token')!;
    const asSession = { cookie: `flagpole_client_token=${sessionCookie.value}` };
    expect((await client(fp.url).get('/auth/v1/self', undefined, asSession)).body.metadata['io.flagpole.auth.email']).toBe('alice@example.com');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect((await client(fp.url).get('/auth/v1/self', undefined, asSession)).status).toBe(401);
    expect((await page.context().cookies(proxy.url)).map((c) => c.name)).not.toContain('flagpole_client_token');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('accepts a pasted static token for this tab only, and says so in words when a token is refused', async () => {
    const { page } = await loginPage();
    await page.getByLabel('Client token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.getByRole('alert').filter({ hasText: 'This token was not accepted' }).waitFor();

    const { clientToken, authentication } = await createToken(api, { name: 'ui-user' });
    await page.getByLabel('Client token').fill(clientToken);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
    await page.getByText('ui-user').waitFor();
    expect(await sessionItem(page, 'flagpole.clientToken')).toBe(clientToken);

    // The token is deleted elsewhere: the next call's 401 brings the login page back, with the reason.
    // The next call is made by moving to another page through its address, not by clicking a link: a call the open
    // page makes on its own (a refresh) may meet the 401 first and replace the shell, link and all, under the click.
    await api.delete(`/auth/v1/tokens/${authentication.id}`);
    await page.evaluate(() => { (globalThis as unknown as { location: { hash: string } }).location.hash = '#/namespaces/default/segments'; });
    await page.getByText('The client token is no longer accepted. Sign in again.').waitFor();
    expect(await sessionItem(page, 'flagpole.clientToken')).toBeNull();

    // Signing out with a pasted token forgets it in the browser and leaves the token itself working.
    await page.getByLabel('Client token').fill(BOOTSTRAP);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();
    expect((await api.get('/auth/v1/self')).status).toBe(200);
    await page.context().close();
  });
});
