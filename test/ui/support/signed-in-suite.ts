/**
 * The set-up most browser suites share: a real Flagpole with authentication required (static tokens), the UI built,
 * Debian's Chromium, a page signed in with the bootstrap token, and no page error allowed in any test. Call it at
 * the top of a `browserDescribe` block; the fields are filled in by its `beforeAll`:
 *
 *   const ui = signedInSuite((api) => buildNamespace(api, { key: 'shop', ... }));
 *   it('…', async () => { await ui.page.goto(`${ui.fp.url}/#/namespaces/shop/flags`); … });
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../../auth/support';
import { client, RunningFlagpole, startFlagpole } from '../../support/flagpole';
import { buildUiOnce, collectPageErrors, launchBrowser, signInWithToken } from './browser';

export interface SignedInSuite {
  fp: RunningFlagpole;
  /** The API as the bootstrap token. */
  api: ReturnType<typeof client>;
  browser: Browser;
  page: Page;
  /**
   * Opens `#<hash>` in the page, and waits until the app's router has taken the new history entry as its own
   * (ui/src/routing/hash-router.ts numbers each entry as its `hashchange` arrives, a task after the navigation).
   * Without the wait, a second `open` could come first: the first entry then never got its number, and a later Back
   * to it looked like a new page to the router (a leave guard did not ask; ui-forms failed once in CI that way).
   */
  open(hash: string): Promise<unknown>;
}

/** What the test reads of the page's history (the router's entry number, hash-router.ts's INDEX). */
interface RouterWindow {
  history: { state: { flagpoleIndex?: number } | null };
}

export function signedInSuite(
  seed: (api: SignedInSuite['api']) => Promise<unknown> = async () => undefined,
  options: { env?: Record<string, string>; context?: BrowserContextOptions } = {},
): SignedInSuite {
  const suite = {
    open: async (hash: string) => {
      const target = `${suite.fp.url}/#${hash}`;
      // The same address again is no new entry (and no hashchange): nothing for the router to number.
      const again = suite.page.url() === target;
      await suite.page.goto(target);
      if (!again) await suite.page.waitForFunction(() => (globalThis as unknown as RouterWindow).history.state?.flagpoleIndex !== undefined);
    },
  } as SignedInSuite;
  let errors: string[] = [];
  beforeAll(async () => {
    buildUiOnce();
    [suite.fp, suite.browser] = await Promise.all([startFlagpole({ ...TOKEN_REQUIRED, ...options.env }), launchBrowser()]);
    suite.api = client(suite.fp.url, bearer(BOOTSTRAP));
    await seed(suite.api);
    const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 }, ...options.context });
    suite.page = await context.newPage();
    suite.page.setDefaultTimeout(10_000);
    errors = collectPageErrors(suite.page);
    await signInWithToken(suite.page, suite.fp.url, BOOTSTRAP);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.fp?.close();
  });
  afterEach(async () => {
    await suite.page?.unrouteAll();
    expect(errors.splice(0)).toEqual([]);
  });
  return suite;
}
