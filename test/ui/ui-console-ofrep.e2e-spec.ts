/**
 * The console answering as OFREP (issue 17), in a real browser against a real Flagpole without authentication: a
 * user picks "OFREP", evaluates a variant flag (a rule, segments, an attachment) and a boolean flag, and sees what
 * `POST /ofrep/v1/evaluate/flags/{key}` answers over HTTP for the same input; an unknown key shows OFREP's
 * FLAG_NOT_FOUND; "Copy as curl" copies a command that asks the same thing. Screenshots of the answer at desktop and
 * phone widths, light and dark, go to .tmp/ui-screenshots/console-ofrep-<width>-<theme>.png.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { buildNamespace } from '../evaluation/fixtures';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, isFocused, launchBrowser, screenshot } from './support/browser';

jest.setTimeout(60_000);

const NS = 'shop';
const ENTITY = 'user-42';

/** The test code compiles without the DOM library; the page function names the browser's clipboard this way. */
type InPage = { navigator: { clipboard: { readText(): Promise<string> } } };

browserDescribe('the console answering as OFREP', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  /** What OFREP answers over HTTP for the console's input: the entity id is the targeting key. */
  const ofrep = (flagKey: string, context: Record<string, string>) =>
    api.post(`/ofrep/v1/evaluate/flags/${flagKey}`, { context: { ...context, targetingKey: ENTITY } }, { 'x-flipt-namespace': NS });

  async function evaluate(flagKey: string, context: Record<string, string>) {
    await page.getByLabel('Flag key').fill(flagKey);
    await page.getByLabel('Entity ID').fill(ENTITY);
    for (const [i, [key, value]] of Object.entries(context).entries()) {
      if ((await page.getByLabel(`Context key ${i + 1}`).count()) === 0) await page.getByRole('button', { name: 'Add context entry' }).click();
      await page.getByLabel(`Context key ${i + 1}`).fill(key);
      await page.getByLabel(`Context value ${i + 1}`).fill(value);
    }
    // Evaluating clears the card first, so what appears next is this answer.
    await page.getByRole('button', { name: 'Evaluate' }).click();
  }

  const text = (testId: string) => page.getByTestId(testId).textContent();

  beforeAll(async () => {
    buildUiOnce();
    [fp, browser] = await Promise.all([startFlagpole(), launchBrowser()]);
    api = client(fp.url);
    await buildNamespace(api, {
      key: NS,
      segments: [
        { key: 'pro-users', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] },
        { key: 'adults', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
      ],
      flags: [
        {
          key: 'checkout',
          variants: [{ key: 'control' }, { key: 'treatment', attachment: '{"color":"green","steps":[1,2,3],"copy":{"cta":"Pay now"}}' }],
          defaultVariant: 'control',
          rules: [{ segments: ['pro-users', 'adults'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['treatment', 100]] }],
        },
        { key: 'dark-mode', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['pro-users'], value: true } }] },
      ],
    });
    // Clipboard permissions so that "Copy as curl" can be read back as the user would paste it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    page.setDefaultTimeout(5_000);
    errors = collectPageErrors(page);
    await page.goto(`${fp.url}/#/namespaces/${NS}/console`);
    await page.getByRole('heading', { name: 'Console', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  it('keeps the Flagpole API as the default, and switches to OFREP from the keyboard', async () => {
    const flagpole = page.getByRole('radio', { name: 'Flagpole API' });
    const ofrepChoice = page.getByRole('radio', { name: 'OFREP' });
    expect(await page.getByRole('group', { name: 'Answer as' }).count()).toBe(1);
    expect(await flagpole.isChecked()).toBe(true);
    await flagpole.focus();
    await page.keyboard.press('ArrowRight');
    expect(await ofrepChoice.isChecked()).toBe(true);
    expect(await isFocused(ofrepChoice)).toBe(true);
    await page.getByText('the entity id as targetingKey').waitFor();
  });

  it('shows a variant flag as OFREP answers it: value, variant, reason, segments and the attachment', async () => {
    const context = { plan: 'pro', age: '30' };
    await evaluate('checkout', context);
    await page.getByTestId('result-value').waitFor();

    const expected = (await ofrep('checkout', context)).body;
    expect(expected).toMatchObject({ key: 'checkout', value: 'treatment', variant: 'treatment', reason: 'TARGETING_MATCH' });
    expect(Object.keys(expected.metadata).sort()).toEqual(['attachment', 'segments']);
    expect(await text('result-value')).toBe(JSON.stringify(expected.value));
    expect(await text('result-variant')).toBe(expected.variant);
    expect(await text('result-reason')).toBe(expected.reason);
    await page.getByText('A rule or rollout matched.').waitFor();
    expect(await text('result-metadata-segments')).toBe(expected.metadata.segments);
    // The attachment is indented for reading; it is the same JSON.
    expect(await text('result-metadata-attachment')).toBe(JSON.stringify(JSON.parse(expected.metadata.attachment), null, 2));
    expect(JSON.parse((await page.locator('.result details pre').textContent()) ?? '')).toEqual(expected);

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.locator(`html[data-theme="${theme}"]`).waitFor();
        // Nothing wider than a phone's screen: the page never scrolls sideways.
        expect(await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
          return root.scrollWidth <= root.clientWidth;
        })).toBe(true);
        await screenshot(page, `console-ofrep-${width}-${theme}`);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('copies the OFREP request as a curl command that answers the same', async () => {
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const curl = await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText());
    expect(curl).toContain(`curl -s ${fp.url}/ofrep/v1/evaluate/flags/checkout `);
    expect(curl).toContain(`-H 'X-Flipt-Namespace: ${NS}'`);
    expect(curl).toContain(`-H "Authorization: Bearer $FLAGPOLE_TOKEN"`);
    // Run as pasted into a shell (authentication is off here, so any token does). Asynchronously: the server answering
    // it runs in this process.
    const { stdout } = await promisify(execFile)('bash', ['-c', curl], { env: { ...process.env, FLAGPOLE_TOKEN: 'unused' }, timeout: 10_000 });
    expect(JSON.parse(stdout)).toEqual((await ofrep('checkout', { plan: 'pro', age: '30' })).body);
  });

  it('shows a boolean flag as OFREP answers it, matched and not', async () => {
    for (const plan of ['pro', 'free']) {
      const context = { plan, age: '30' };
      await evaluate('dark-mode', context);
      await page.getByTestId('result-value').waitFor();
      const expected = (await ofrep('dark-mode', context)).body;
      expect(expected).toMatchObject(plan === 'pro' ? { value: true, reason: 'TARGETING_MATCH' } : { value: false, reason: 'DEFAULT' });
      expect(await text('result-value')).toBe(String(expected.value));
      expect(await text('result-variant')).toBe(expected.variant);
      expect(await text('result-reason')).toBe(expected.reason);
      // A boolean flag's answer has no metadata.
      expect(expected.metadata).toEqual({});
      expect(await page.locator('[data-testid^="result-metadata-"]').count()).toBe(0);
    }
  });

  it("shows OFREP's FLAG_NOT_FOUND for a key that does not exist", async () => {
    await evaluate('no-such-flag', {});
    const expected = await ofrep('no-such-flag', {});
    expect(expected.status).toBe(404);
    expect(expected.body).toEqual({ key: 'no-such-flag', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'flag was not found no-such-flag' });
    await page.getByRole('alert').filter({ hasText: `${expected.body.errorDetails} (FLAG_NOT_FOUND)` }).waitFor();
    expect(await page.getByTestId('result-value').count()).toBe(0);

    // Back to the Flagpole API, the error of the other protocol goes with it.
    await page.getByRole('radio', { name: 'Flagpole API' }).check();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
