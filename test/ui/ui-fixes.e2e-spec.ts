/**
 * Four fixes of issue 21, in a real browser against a real Flagpole with authentication required (static tokens):
 *  2. "Copy as curl" copies a command that works when pasted into a shell with `FLAGPOLE_TOKEN` exported (the token
 *     variable used to be single-quoted, so the shell sent its name and every call answered 401);
 *  5. a search never shows another term's results under the term in the box, even when the first answer is slow;
 *  6. a namespace that does not exist says so, with a way back, rather than looking like an empty one;
 *  7. the login card is centred on a wide screen and fits a phone's.
 * Screenshots of each view at 1440 and 390 px, light and dark, go to /tmp/shots-fixes/ (FLAGPOLE_FIXES_SHOTS) for
 * people to look at; none of them may scroll sideways.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { APIResponse, Browser, Page, Route } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace } from '../evaluation/fixtures';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, horizontalOverflow, launchBrowser, shotsAtEveryWidth, signInWithToken } from './support/browser';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_FIXES_SHOTS ?? '/tmp/shots-fixes';

/** Compiles away: page functions run in the browser, and the test code has no DOM library (see support/browser). */
interface InPage {
  document: {
    body: unknown;
    querySelector(s: string): { value: string } | null;
    querySelectorAll(s: string): Iterable<{ textContent: string | null }>;
    addEventListener(type: string, listener: () => void, capture: boolean): void;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
  searchLog?: Array<{ search: string; keys: string[] }>;
}

browserDescribe('issue 21: four fixes of the web UI', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const open = (hash: string) => page.goto(`${fp.url}/#${hash}`);
  const shots = (p: Page, name: string) => shotsAtEveryWidth(p, SHOTS, name);


  beforeAll(async () => {
    buildUiOnce();
    [fp, browser] = await Promise.all([startFlagpole(TOKEN_REQUIRED), launchBrowser()]);
    api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, {
      key: 'shop',
      // A value with a quote and a dollar sign: the copied body must reach the server as it was typed.
      segments: [{ key: 'quoted', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: "it's $HOME" }] }],
      flags: [{ key: 'checkout', variants: [{ key: 'control' }, { key: 'treatment' }], defaultVariant: 'control', rules: [{ segments: ['quoted'], distributions: [['treatment', 100]] }] }],
    });
    await buildNamespace(api, {
      key: 'search',
      flags: [{ key: 'alpha-one', name: 'Alpha one' }, { key: 'alpha-two', name: 'Alpha two' }, { key: 'beta-one', name: 'Beta one' }],
    });
    // Clipboard permissions so that "Copy as curl" can be read back as the user would paste it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
    await signInWithToken(page, fp.url, BOOTSTRAP);
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  describe('2. Copy as curl', () => {
    /** Runs the copied command as pasted into bash, with `env` exported; curl's -w adds the status on a last line. */
    async function runCopied(env: Record<string, string>) {
      await page.getByRole('button', { name: 'Copy as curl' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      const curl = await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText());
      // Asynchronously: the server answering it runs in this process.
      const { stdout } = await promisify(execFile)('bash', ['-c', `${curl} -w '\\n%{http_code}'`], {
        env: { PATH: process.env.PATH, ...env },
        timeout: 10_000,
      });
      const lines = stdout.trimEnd().split('\n');
      return { curl, status: Number(lines.pop()), body: JSON.parse(lines.join('\n')) };
    }

    it('copies a command that answers 200 with the same evaluation when FLAGPOLE_TOKEN is exported, in both protocols', async () => {
      await open('/namespaces/shop/console');
      await page.getByLabel('Flag key').fill('checkout');
      await page.getByLabel('Entity ID').fill('user-42');
      await page.getByLabel('Context key 1').fill('plan');
      await page.getByLabel('Context value 1').fill("it's $HOME");
      await page.getByRole('button', { name: 'Evaluate' }).click();
      // The page's own answer first: the rule matched on the typed value.
      expect(await page.getByTestId('result-variant').textContent()).toBe('treatment');
      await page.getByText('The command reads your client token from').waitFor();

      const flagpole = await runCopied({ FLAGPOLE_TOKEN: BOOTSTRAP });
      expect(flagpole.status).toBe(200);
      expect(flagpole.body).toMatchObject({ flagKey: 'checkout', match: true, variantKey: 'treatment', segmentKeys: ['quoted'], reason: 'MATCH_EVALUATION_REASON' });
      // The token comes from the shell, never from the page: the clipboard does not carry it.
      expect(flagpole.curl).not.toContain(BOOTSTRAP);
      expect(flagpole.curl).toContain('"Authorization: Bearer $FLAGPOLE_TOKEN"');
      // Without the variable the same command is refused: it is the variable that carries the token.
      expect((await runCopied({})).status).toBe(401);

      await page.getByRole('radio', { name: 'OFREP' }).check();
      const ofrep = await runCopied({ FLAGPOLE_TOKEN: BOOTSTRAP });
      expect(ofrep.status).toBe(200);
      expect(ofrep.body).toMatchObject({ key: 'checkout', value: 'treatment', variant: 'treatment', reason: 'TARGETING_MATCH' });

      await page.getByRole('button', { name: 'Evaluate' }).click();
      await page.getByTestId('result-value').waitFor();
      await page.getByRole('button', { name: 'Copy as curl' }).waitFor();
      await shots(page, 'console-curl');
    });
  });

  describe('5. search', () => {
    /** Every state of the list the page ever rendered, with the search box's text at that moment. */
    const searchLog = () => page.evaluate(() => (globalThis as unknown as InPage).searchLog ?? []);
    const rowKeys = () => page.locator('table.list tbody .key').allTextContents();

    it("never shows a slow first term's results under the next term, and ends with the next term's", async () => {
      await open('/namespaces/search/flags');
      await page.getByText('1–3 of 3 flags').waitFor();
      await page.evaluate(() => {
        const w = globalThis as unknown as InPage;
        const log: Array<{ search: string; keys: string[] }> = (w.searchLog = []);
        const record = () =>
          log.push({
            search: w.document.querySelector('input[type=search]')?.value ?? '',
            keys: [...w.document.querySelectorAll('table.list tbody .key')].map((e) => e.textContent ?? ''),
          });
        // After every change React makes to the page (before it is painted), and after every keystroke has been
        // handled (a capturing listener would log the box's new text beside rows React has not yet replaced, a state
        // that is never painted).
        new w.MutationObserver(record).observe(w.document.body, { subtree: true, childList: true, characterData: true });
        w.document.addEventListener('input', record, false);
      });

      // The next search's read of the list is held until the test lets it go (the server already answered it).
      let hold: ((held: { route: Route; response: APIResponse }) => void) | undefined;
      const held = () => new Promise<{ route: Route; response: APIResponse }>((resolve) => (hold = resolve));
      await page.route(
        // The search for "alpha" (the API's `search` parameter).
        (url) => url.pathname === '/api/v1/namespaces/search/flags' && url.searchParams.get('search') === 'alpha',
        async (route) => {
          if (!hold) return route.continue();
          const release = hold;
          hold = undefined;
          release({ route, response: await route.fetch() });
        },
      );
      const box = page.getByLabel('Search flags');

      // The answer for "alpha" arrives just after "beta" was typed.
      let slow = held();
      await box.fill('alpha');
      let first = await slow;
      await box.fill('beta');
      await first.route.fulfill({ response: first.response });
      await page.getByText('1–1 of 1 flag').waitFor();
      expect(await rowKeys()).toEqual(['beta-one']);

      // The answer for "alpha" arrives after "beta"'s search has started: it is dropped. (Chromium holds a request
      // for the same URL until the first is answered, so "beta"'s answer cannot come first.)
      await box.fill('');
      await page.getByText('1–3 of 3 flags').waitFor();
      slow = held();
      await box.fill('alpha');
      first = await slow;
      await box.fill('beta');
      await page.waitForTimeout(600); // past the typing pause: the search for "beta" has started
      // The page gave up the request when the term changed; letting it go now may find it gone.
      await first.route.fulfill({ response: first.response }).catch(() => undefined);
      await page.getByText('1–1 of 1 flag').waitFor();
      await page.waitForTimeout(300);
      expect(await rowKeys()).toEqual(['beta-one']);
      await page.unrouteAll({ behavior: 'ignoreErrors' });

      const log = await searchLog();
      const underBeta = log.filter((s) => s.search === 'beta');
      expect(underBeta.filter((s) => s.keys.some((k) => k.startsWith('alpha')))).toEqual([]);
      expect(underBeta.some((s) => s.keys.join() === 'beta-one')).toBe(true);
      // The log did see the lists change: the plain list of three, back after the box was cleared.
      expect(log.some((s) => s.search === '' && s.keys.length === 3)).toBe(true);

      await shots(page, 'search');
    });
  });

  describe('6. a namespace that does not exist', () => {
    it('says so, for every page in it, with a link to the namespaces', async () => {
      for (const section of ['flags', 'segments', 'console', 'audit']) {
        await open(`/namespaces/nope/${section}`);
        await page.getByRole('heading', { name: 'Namespace not found', level: 1 }).waitFor();
        await page.getByText('There is no namespace nope.').waitFor();
        expect(await page.getByText('No flags in this namespace yet').count()).toBe(0);
      }
      await open('/namespaces/nope/flags');
      await page.getByRole('heading', { name: 'Namespace not found', level: 1 }).waitFor();
      // The switcher names the namespace of the address, not the first one it lists.
      expect(await page.getByLabel('Namespace', { exact: true }).inputValue()).toBe('nope');
      await shots(page, 'missing-namespace');
      await page.getByRole('main').getByRole('link', { name: 'Go to the namespaces' }).click();
      await page.getByRole('heading', { name: 'Namespaces', level: 1 }).waitFor();
      expect(page.url()).toBe(`${fp.url}/#/namespaces`);
    });

    it('still shows an empty namespace as empty, one created since the page loaded included', async () => {
      await api.post('/api/v1/namespaces', { key: 'fresh', name: 'Fresh' });
      await open('/namespaces/fresh/flags');
      await page.getByText('No flags in this namespace yet').waitFor();
      expect(await page.getByRole('heading', { name: 'Namespace not found' }).count()).toBe(0);
    });
  });

  describe('7. the login card', () => {
    it('is centred at 1440 px and fits at 390 px', async () => {
      // A fresh browser profile: no token, so the login page.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const login = await context.newPage();
      login.setDefaultTimeout(10_000);
      const loginErrors = collectPageErrors(login);
      await login.goto(`${fp.url}/`);
      await login.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();

      const card = async () => (await login.locator('.login-card').boundingBox())!;
      let box = await card();
      expect(Math.abs(box.x + box.width / 2 - 720)).toBeLessThanOrEqual(2);
      expect(Math.abs(box.y + box.height / 2 - 450)).toBeLessThanOrEqual(2);

      await login.setViewportSize({ width: 390, height: 844 });
      box = await card();
      expect(await horizontalOverflow(login)).toBe(0);
      expect(box.x).toBeGreaterThanOrEqual(8);
      expect(box.x + box.width).toBeLessThanOrEqual(390 - 8);
      expect(Math.abs(box.x + box.width / 2 - 195)).toBeLessThanOrEqual(2);

      await shots(login, 'login');
      expect(loginErrors).toEqual([]);
      await context.close();
    });
  });
});
