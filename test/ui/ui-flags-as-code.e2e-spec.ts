/**
 * Export and Import on the Namespaces page, in Chromium against a Flagpole with authentication required: import a
 * file into a new namespace, see a refusal that names the line, replace a namespace, and download an export that is
 * the API's export byte for byte. Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-flags-as-code/
 * (FLAGPOLE_FAC_SHOTS); none may scroll sideways.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, launchBrowser, shotsAtEveryWidth, signInWithToken } from './support/browser';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_FAC_SHOTS ?? '/tmp/shots-flags-as-code';
const FIXTURE = join(__dirname, '..', 'flags-as-code', 'fixtures', 'v1.4-complete.yml');

browserDescribe('flags as code in the web UI: Export and Import', () => {
  const shots = (name: string) => shotsAtEveryWidth(page, SHOTS, name);
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  let browser: Browser;
  let page: Page;
  let errors: string[];


  beforeAll(async () => {
    buildUiOnce();
    [fp, browser] = await Promise.all([startFlagpole(TOKEN_REQUIRED), launchBrowser()]);
    api = client(fp.url, bearer(BOOTSTRAP));
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
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

  it('imports a file into a new namespace', async () => {
    await page.goto(`${fp.url}/#/namespaces`);
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a namespace' });
    await dialog.getByLabel('Namespace key').fill('staging');
    await dialog.getByLabel('Document file').setInputFiles(FIXTURE);
    await dialog.getByText('Read v1.4-complete.yml.').waitFor();
    expect(await dialog.getByLabel('Document', { exact: true }).inputValue()).toBe(readFileSync(FIXTURE, 'utf8'));
    await shots('import-dialog');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page.getByText('3 flags and 2 segments imported into staging (new namespace)').waitFor();
    await page.getByRole('link', { name: 'Staging' }).waitFor();
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags).toHaveLength(3);
  });

  it('shows a refusal as the server words it, naming the line, and writes nothing', async () => {
    await page.getByRole('button', { name: 'Import into namespace staging' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import into namespace staging' });
    await dialog.getByLabel('Document', { exact: true }).fill('flags:\n- key: extra\n  name: Extra\n  variants:\n  - key: a\n  rules:\n  - segment: europe\n    distributions:\n    - variant: b\n');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('line 9, column 16, flags[0].rules[0].distributions[0].variant: flag "extra" has no variant "b"').waitFor();
    await shots('import-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // A document was pasted: the dialog asks before dropping it (issue 43).
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags).toHaveLength(3);
  });

  it('replaces a namespace when asked to', async () => {
    await page.getByRole('button', { name: 'Import into namespace staging' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import into namespace staging' });
    await dialog.getByLabel('Document', { exact: true }).fill('flags:\n- key: only\n  name: Only\n');
    await dialog.getByLabel(/Delete all of them first/).check();
    await dialog.getByRole('button', { name: 'Import' }).click();
    // It asks first, naming what it deletes (ui-first-day-imports covers the question).
    await page.getByRole('dialog', { name: 'Replace everything in namespace staging?' }).getByRole('button', { name: 'Delete and import' }).click();
    await page.getByText('1 flag and 0 segments imported into staging (3 flags and 2 segments replaced)').waitFor();
    expect((await api.get('/api/v1/namespaces/staging/flags')).body.flags.map((f: { key: string }) => f.key)).toEqual(['only']);
  });

  it('downloads the export the API gives, named after the namespace', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export namespace staging' }).click()]);
    expect(download.suggestedFilename()).toBe('staging.features.yml');
    const saved = readFileSync((await download.path())!, 'utf8');
    expect(saved).toBe((await http(fp.url, 'GET', '/api/v1/namespaces/staging/export', undefined, bearer(BOOTSTRAP))).text);
    expect(saved).toContain('- key: only\n  name: Only\n');
    await shots('namespaces-with-export');
  });
});
