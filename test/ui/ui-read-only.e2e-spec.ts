/**
 * A read-only Flagpole in the web UI (Chromium): with `storage.type: local` the flag state comes from a features.yml,
 * every page says so in one notice, and no control that would write flag state is left enabled on the flags,
 * flag, segments, segment and namespaces pages (the disabled ones are described by the notice); Export, the Console
 * and static tokens still work. With database storage there is no notice and New flag is a link; with
 * `storage.read_only` the notice names that setting. Screenshots at 1440 and 390 px, light and dark, go to
 * /tmp/shots-read-only/ (FLAGPOLE_RO_SHOTS); none may scroll sideways.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, enabledWrites, launchBrowser, shotsAtEveryWidth } from './support/browser';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_RO_SHOTS ?? '/tmp/shots-read-only';
const LOCAL_NOTICE = 'Read-only: flags, segments and namespaces come from files (storage.type: local). Change them in the files.';

/** A variant flag with variants and a rule, a boolean flag with rollouts, and the segment both target. */
const FEATURES = `version: "1.4"
flags:
- key: checkout
  name: Checkout
  type: VARIANT_FLAG_TYPE
  description: which checkout the customer sees
  enabled: true
  variants:
  - key: classic
    name: Classic
  - key: express
    name: Express
    default: true
    attachment:
      steps: 1
  rules:
  - segment: beta-users
    distributions:
    - variant: classic
      rollout: 40
    - variant: express
      rollout: 60
- key: dark-mode
  name: Dark mode
  type: BOOLEAN_FLAG_TYPE
  description: the dark theme
  enabled: false
  rollouts:
  - description: staff first
    segment:
      key: beta-users
      value: true
  - threshold:
      percentage: 25
      value: true
segments:
- key: beta-users
  name: Beta users
  description: opted in
  match_type: ANY_MATCH_TYPE
  constraints:
  - type: STRING_COMPARISON_TYPE
    property: plan
    operator: eq
    value: pro
  - type: NUMBER_COMPARISON_TYPE
    property: age
    operator: gte
    value: "18"
`;

interface InPage {
  document: {
    getElementById(id: string): { textContent: string | null } | null;
  };
}

browserDescribe('a read-only Flagpole in the web UI', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const shots = (name: string) => shotsAtEveryWidth(page, SHOTS, name);

  beforeAll(async () => {
    buildUiOnce();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  /** The text of what `aria-describedby` points at, for each disabled control of `role` named by `name`. */
  async function reasons(role: 'button' | 'switch', name?: RegExp): Promise<string[]> {
    const out: string[] = [];
    for (const control of await page.locator('main').getByRole(role, name ? { name } : {}).all()) {
      expect(await control.isDisabled()).toBe(true);
      const ids = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
      const texts = await page.evaluate(
        (list) => list.map((id) => (globalThis as unknown as InPage).document.getElementById(id)?.textContent ?? `missing #${id}`),
        ids,
      );
      out.push(texts.join(' | ') || 'no description');
    }
    return out;
  }


  describe('storage.type local: flags from files', () => {
    let dir: string;
    let fp: RunningFlagpole;
    let api: ReturnType<typeof client>;
    const open = (hash: string) => page.goto(`${fp.url}/#${hash}`);
    const notice = () => page.getByRole('note');

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'flagpole-ui-read-only-'));
      writeFileSync(join(dir, 'features.yml'), FEATURES);
      fp = await startFlagpole({ FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir, FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true' });
      api = client(fp.url);
      expect((await api.get('/meta/info')).body.storage).toEqual({ type: 'local', readOnly: true });
    });
    afterAll(async () => {
      await fp?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('flags page: says why once, New flag and every switch disabled with that reason', async () => {
      await open('/namespaces/default/flags');
      await page.getByRole('link', { name: 'Dark mode' }).waitFor();
      expect(await notice().isVisible()).toBe(true);
      expect(await notice().textContent()).toBe(LOCAL_NOTICE);
      expect(await notice().count()).toBe(1);
      expect(await page.getByRole('link', { name: 'New flag' }).count()).toBe(0);
      expect(await reasons('button', /^New flag$/)).toEqual([LOCAL_NOTICE]);
      // The switches still show each flag's state.
      expect(await page.getByRole('switch', { name: 'Enable checkout' }).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByRole('switch', { name: 'Enable dark-mode' }).getAttribute('aria-checked')).toBe('false');
      expect(await reasons('switch')).toEqual([LOCAL_NOTICE, LOCAL_NOTICE]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('flags');
    });

    it('variant flag page: fields shown but not changeable, no save, no add/edit/delete/reorder', async () => {
      await open('/namespaces/default/flags/checkout');
      await page.getByText('then serve').waitFor();
      expect(await notice().isVisible()).toBe(true);
      const name = page.getByLabel('Name', { exact: true });
      expect(await name.inputValue()).toBe('Checkout');
      expect(await name.isEditable()).toBe(false);
      expect(await page.getByLabel('Description').isEditable()).toBe(false);
      const defaultVariant = page.getByLabel('Default variant');
      expect(await defaultVariant.isDisabled()).toBe(true);
      expect(await defaultVariant.locator('option:checked').textContent()).toBe('express');
      expect(await page.getByRole('button', { name: 'Save details' }).count()).toBe(0);
      expect(await reasons('switch')).toEqual([LOCAL_NOTICE]);
      expect(await reasons('button', /^(Delete flag|Add variant|Add rule)$/)).toEqual([LOCAL_NOTICE, LOCAL_NOTICE, LOCAL_NOTICE]);
      // Variants and the rule are listed, without their row buttons.
      await page.getByRole('cell', { name: 'classic', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^(Edit|Delete) variant/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Move|Edit|Delete) rule/ }).count()).toBe(0);
      expect(await enabledWrites(page)).toEqual([]);
      expect(await page.getByRole('link', { name: 'Try in console' }).isVisible()).toBe(true);
      await shots('flag-variant');
    });

    it('boolean flag page: rollouts listed, none of them changeable', async () => {
      await open('/namespaces/default/flags/dark-mode');
      await page.getByText('staff first').waitFor();
      expect(await page.getByText('Threshold', { exact: true }).isVisible()).toBe(true);
      expect(await reasons('button', /^(Delete flag|Add rollout)$/)).toEqual([LOCAL_NOTICE, LOCAL_NOTICE]);
      expect(await page.getByRole('button', { name: /^(Move|Edit|Delete) rollout/ }).count()).toBe(0);
      expect(await enabledWrites(page)).toEqual([]);
    });

    it('segments and a segment: New segment, details, match type and constraints locked', async () => {
      await open('/namespaces/default/segments');
      await page.getByRole('link', { name: 'Beta users' }).waitFor();
      expect(await page.getByRole('link', { name: 'New segment' }).count()).toBe(0);
      expect(await reasons('button', /^New segment$/)).toEqual([LOCAL_NOTICE]);
      expect(await enabledWrites(page)).toEqual([]);

      await page.getByRole('link', { name: 'Beta users' }).click();
      await page.getByRole('cell', { name: 'plan', exact: true }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).isEditable()).toBe(false);
      expect(await page.getByLabel('any constraint').isChecked()).toBe(true);
      expect(await page.getByLabel('any constraint').isDisabled()).toBe(true);
      expect(await page.getByLabel('all constraints').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save details' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /constraint on/ }).count()).toBe(0);
      expect(await reasons('button', /^(Delete segment|Add constraint)$/)).toEqual([LOCAL_NOTICE, LOCAL_NOTICE]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('segment');
    });

    it('an address that creates says it cannot', async () => {
      await open('/namespaces/default/create/flag');
      await page.getByText('Flags cannot be created while Flagpole is read-only').waitFor();
      expect(await page.getByRole('button', { name: 'Create flag' }).count()).toBe(0);
      await open('/namespaces/default/create/segment');
      await page.getByText('Segments cannot be created while Flagpole is read-only').waitFor();
      expect(await page.getByLabel('Name', { exact: true }).count()).toBe(0);
    });

    it('namespaces page: only Export remains, and it downloads the files\' state', async () => {
      await open('/namespaces');
      await page.getByRole('button', { name: 'Export namespace default' }).waitFor();
      expect(await reasons('button', /^(Import…|New namespace)$/)).toEqual([LOCAL_NOTICE, LOCAL_NOTICE]);
      expect(await page.getByRole('button', { name: /namespace default$/ }).evaluateAll((es) => es.map((e) => e.getAttribute('aria-label')))).toEqual([
        'Export namespace default',
      ]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('namespaces');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export namespace default' }).click()]);
      expect(download.suggestedFilename()).toBe('default.features.yml');
      const saved = readFileSync((await download.path())!, 'utf8');
      expect(saved).toBe((await http(fp.url, 'GET', '/api/v1/namespaces/default/export')).text);
      expect(saved).toContain('- key: checkout\n');
    });

    it('the console still evaluates', async () => {
      await open('/namespaces/default/console?flag=checkout');
      await page.getByLabel('Entity ID').fill('user-42');
      await page.getByLabel('Context key 1').fill('plan');
      await page.getByLabel('Context value 1').fill('pro');
      await page.getByRole('button', { name: 'Evaluate' }).click();
      await page.getByTestId('result-reason').waitFor();
      const expected = (await api.post('/evaluate/v1/variant', { namespaceKey: 'default', flagKey: 'checkout', entityId: 'user-42', context: { plan: 'pro' } })).body;
      expect(expected).toMatchObject({ match: true, segmentKeys: ['beta-users'] });
      expect(await page.getByTestId('result-variant').textContent()).toBe(expected.variantKey);
      expect(await page.getByTestId('result-reason').textContent()).toBe('MATCH_EVALUATION_REASON');
    });

    it('static tokens stay writable: a token is created', async () => {
      await open('/settings/tokens');
      const create = page.getByRole('button', { name: 'New token' });
      await page.getByRole('heading', { name: 'Static tokens', level: 1 }).waitFor();
      await create.click();
      await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('deploy-bot');
      await page.getByRole('dialog').getByRole('button', { name: 'Create token' }).click();
      expect(await page.getByTestId('new-token').inputValue()).toMatch(/^[A-Za-z0-9_-]{43}=$/);
      const listed = (await api.get('/auth/v1/tokens?method=METHOD_TOKEN')).body.authentications;
      expect(listed.map((a: { metadata: Record<string, string> }) => a.metadata['io.flagpole.auth.token.name'])).toContain('deploy-bot');
    });
  });

  describe('storage.type database', () => {
    it('shows no notice, and the flags page can write', async () => {
      const fp = await startFlagpole();
      try {
        const api = client(fp.url);
        expect((await api.get('/meta/info')).body.storage).toEqual({ type: 'database' });
        expect((await api.post('/api/v1/namespaces/default/flags', { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE' })).status).toBe(200);
        await page.goto(`${fp.url}/#/namespaces/default/flags`);
        await page.getByRole('link', { name: 'Checkout' }).waitFor();
        expect(await page.getByRole('note').count()).toBe(0);
        expect(await page.getByRole('link', { name: 'New flag' }).isVisible()).toBe(true);
        // What the read-only cases find nothing of is here: the helper can fail.
        expect(await enabledWrites(page)).toEqual(['New flag', 'switch Enable checkout']);
      } finally {
        await fp.close();
      }
    });

    it('with storage.read_only, the notice names the setting and New flag is disabled', async () => {
      const fp = await startFlagpole({ FLAGPOLE_STORAGE_READ_ONLY: 'true' });
      try {
        expect((await client(fp.url).get('/meta/info')).body.storage).toEqual({ type: 'database', readOnly: true });
        await page.goto(`${fp.url}/#/namespaces/default/flags`);
        await page.getByText('No flags in this namespace.').waitFor();
        const text = 'Read-only: this Flagpole is configured read-only (storage.read_only).';
        expect(await page.getByRole('note').textContent()).toBe(text);
        expect(await reasons('button', /^New flag$/)).toEqual([text]);
      } finally {
        await fp.close();
      }
    });
  });
});
