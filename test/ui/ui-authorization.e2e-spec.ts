/**
 * Authorization in the web UI (Chromium), with the example policy (docs/authorization.example.yml) and static tokens
 * naming their roles: a viewer sees flags, segments and namespaces with no control that would change them left
 * enabled (each disabled one says why in its tooltip, a locked form in a line above it); a production-editor edits
 * in production, and in a namespace it may not see gets a page that says so; holding viewer as well, it sees staging
 * with every write control disabled and the reason. A refusal the UI did not foresee (the policy changed since
 * sign-in) reads as words, not "permission denied". Screenshots at 1440 and 390 px, light and dark, go to
 * /tmp/shots-authorization/ (FLAGPOLE_AUTHZ_SHOTS); none may scroll sideways.
 */
import { writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer, eventually } from '../auth/support';
import { policyFile, startAuthorized, tokenWithRole } from '../authorization/support';
import { client, type RunningFlagpole } from '../support/flagpole';
import { browserDescribe, buildUiOnce, collectPageErrors, enabledWrites, launchBrowser, shotsAtEveryWidth, signInWithToken } from './support/browser';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_AUTHZ_SHOTS ?? '/tmp/shots-authorization';

/** A variant flag with variants and a rule, a boolean flag with a rollout, and the segment both target. */
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
  rules:
  - segment: beta-users
    distributions:
    - variant: express
      rollout: 100
- key: dark-mode
  name: Dark mode
  type: BOOLEAN_FLAG_TYPE
  description: the dark theme
  enabled: false
  rollouts:
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
`;


browserDescribe('authorization in the web UI', () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };
  let policy: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const open = (hash: string) => page.goto(`${fp.url}/#${hash}`);
  const shots = (name: string) => shotsAtEveryWidth(page, SHOTS, name);

  beforeAll(async () => {
    buildUiOnce();
    policy = policyFile();
    fp = await startAuthorized(policy);
    for (const ns of ['production', 'staging']) {
      const r = await fp.admin.post(`/api/v1/namespaces/${ns}/import`, FEATURES, { 'content-type': 'application/yaml' });
      expect({ status: r.status, created: r.body.flagsCreated }).toEqual({ status: 200, created: 2 });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fp?.close();
  });

  /** A fresh browser (no session, no remembered namespace) signed in with a token holding `roles`. */
  async function signIn(roles: string): Promise<string> {
    await context?.close();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    errors = collectPageErrors(page);
    const token = await tokenWithRole(fp.admin, roles);
    await signInWithToken(page, fp.url, token);
    return token;
  }
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  /** The tooltip of each control of `role` named by `name`, each of which must be disabled. */
  async function reasons(role: 'button' | 'switch', name?: RegExp): Promise<string[]> {
    const out: string[] = [];
    for (const control of await page.locator('main').getByRole(role, name ? { name } : {}).all()) {
      expect(await control.isDisabled()).toBe(true);
      out.push((await control.getAttribute('title')) ?? 'no reason');
    }
    return out;
  }

  describe('a viewer', () => {
    beforeAll(() => signIn('viewer'));

    it('sees the flags, with New flag and every switch disabled and the reason', async () => {
      await open('/namespaces/production/flags');
      await page.getByRole('link', { name: 'Dark mode' }).waitFor();
      expect(await page.getByRole('link', { name: 'New flag' }).count()).toBe(0);
      expect(await reasons('button', /^New flag$/)).toEqual(['Your role (viewer) may not create flags in production.']);
      // The switches still show each flag's state.
      expect(await page.getByRole('switch', { name: 'Enable checkout' }).getAttribute('aria-checked')).toBe('true');
      const changeFlags = 'Your role (viewer) may not change flags in production.';
      expect(await reasons('switch')).toEqual([changeFlags, changeFlags]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('viewer-flags');
    });

    it('sees a variant flag without being able to change it: no save, no add, edit, delete or move', async () => {
      await open('/namespaces/production/flags/checkout');
      await page.getByText('then serve').waitFor();
      const name = page.getByLabel('Name', { exact: true });
      expect(await name.inputValue()).toBe('Checkout');
      expect(await name.isEditable()).toBe(false);
      expect(await page.getByLabel('Description').isEditable()).toBe(false);
      expect(await page.getByLabel('Default variant').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save details' }).count()).toBe(0);
      // The form says why, and its fields are described by that line.
      const why = 'Your role (viewer) may not change flags in production.';
      expect(await page.locator('.lock-reason').textContent()).toBe(why);
      expect(await name.getAttribute('aria-describedby')).toBe(await page.locator('.lock-reason').getAttribute('id'));
      expect(await page.getByRole('switch').getAttribute('title')).toBe(why);
      expect(await reasons('button', /^(Delete flag|Add variant|Add rule)$/)).toEqual([
        'Your role (viewer) may not delete flags in production.',
        'Your role (viewer) may not create flags in production.',
        'Your role (viewer) may not create flags in production.',
      ]);
      await page.getByRole('cell', { name: 'classic', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^(Edit|Delete) variant/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Move|Edit|Delete) rule/ }).count()).toBe(0);
      expect(await enabledWrites(page)).toEqual([]);
      expect(await page.getByRole('link', { name: 'Try in console' }).isVisible()).toBe(true);
      await shots('viewer-flag');

      // Its history is the audit trail, which a viewer may not read: no History tab, and the address shows the details.
      expect(await page.locator('main').getByRole('link', { name: 'History' }).count()).toBe(0);
      await open('/namespaces/production/flags/checkout?view=history');
      await page.locator('main').getByRole('heading', { name: 'Details', level: 2 }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('sees a boolean flag\'s rollouts, none of them changeable', async () => {
      await open('/namespaces/production/flags/dark-mode');
      await page.getByText('Threshold', { exact: true }).waitFor();
      expect(await reasons('button', /^Add rollout$/)).toEqual(['Your role (viewer) may not create flags in production.']);
      expect(await page.getByRole('button', { name: /^(Move|Edit|Delete) rollout/ }).count()).toBe(0);
      expect(await enabledWrites(page)).toEqual([]);
    });

    it('sees segments and a segment\'s constraints without being able to change them', async () => {
      await open('/namespaces/production/segments');
      await page.getByRole('link', { name: 'Beta users' }).waitFor();
      expect(await reasons('button', /^New segment$/)).toEqual(['Your role (viewer) may not create segments in production.']);
      expect(await enabledWrites(page)).toEqual([]);

      await page.getByRole('link', { name: 'Beta users' }).click();
      await page.getByRole('cell', { name: 'plan', exact: true }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).isEditable()).toBe(false);
      expect(await page.getByLabel('any constraint').isDisabled()).toBe(true);
      expect(await page.locator('.lock-reason').textContent()).toBe('Your role (viewer) may not change segments in production.');
      expect(await page.getByRole('button', { name: 'Save details' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /constraint on/ }).count()).toBe(0);
      expect(await reasons('button', /^(Delete segment|Add constraint)$/)).toEqual([
        'Your role (viewer) may not delete segments in production.',
        'Your role (viewer) may not create segments in production.',
      ]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('viewer-segment');
    });

    it('an address that creates says why it cannot', async () => {
      await open('/namespaces/production/create/flag');
      await page.getByText('Your role (viewer) may not create flags in production.').waitFor();
      expect(await page.getByRole('button', { name: 'Create flag' }).count()).toBe(0);
      await open('/namespaces/production/create/segment');
      await page.getByText('Your role (viewer) may not create segments in production.').waitFor();
      expect(await page.getByLabel('Name', { exact: true }).count()).toBe(0);
    });

    it('namespaces: New namespace and Import disabled with the reason; rows offer only Export', async () => {
      await open('/namespaces');
      await page.getByRole('button', { name: 'Export namespace production' }).waitFor();
      expect(await reasons('button', /^(Import…|New namespace)$/)).toEqual([
        'Your role (viewer) may not import flags and segments.',
        'Your role (viewer) may not create namespaces.',
      ]);
      expect(await page.getByRole('button', { name: /namespace production$/ }).evaluateAll((es) => es.map((e) => e.getAttribute('aria-label')))).toEqual([
        'Export namespace production',
      ]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('viewer-namespaces');
    });

    it('static tokens: New token disabled, and the refused list says why in words', async () => {
      await open('/settings/tokens');
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toBe('Your role (viewer) may not see static tokens.');
      expect(await reasons('button', /^New token$/)).toEqual(['Your role (viewer) may not create static tokens.']);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('viewer-tokens');
    });
  });

  describe('a production-editor', () => {
    let api: ReturnType<typeof client>;
    beforeAll(async () => {
      api = client(fp.url, bearer(await signIn('production-editor')));
    });

    it('starts in production (it may not see default) and edits there: a switch changes the flag', async () => {
      await page.getByRole('link', { name: 'Dark mode' }).waitFor();
      expect(page.url()).toBe(`${fp.url}/#/namespaces/production/flags`);
      expect(await enabledWrites(page)).toEqual(['New flag', 'switch Enable checkout', 'switch Enable dark-mode']);
      expect(await page.getByRole('switch', { name: 'Enable dark-mode' }).getAttribute('title')).toBeNull();
      await page.getByRole('switch', { name: 'Enable dark-mode' }).click();
      await page.getByText('dark-mode is enabled').waitFor();
      expect((await api.get('/api/v1/namespaces/production/flags/dark-mode')).body.enabled).toBe(true);
      await shots('editor-production-flags');
    });

    it('a flag in production offers save, add, edit, delete and move', async () => {
      await open('/namespaces/production/flags/checkout');
      await page.getByText('then serve').waitFor();
      expect(await page.getByLabel('Name', { exact: true }).isEditable()).toBe(true);
      expect(await page.locator('.lock-reason').count()).toBe(0);
      const writes = await enabledWrites(page);
      for (const name of ['Delete flag', 'Add variant', 'Edit variant classic', 'Delete variant express', 'Add rule', 'Edit rule 1', 'Delete rule 1', 'switch Enabled']) {
        expect(writes).toContain(name);
      }
    });

    it('a namespace it may not see says so, with a way back', async () => {
      await open('/namespaces/staging/flags');
      await page.getByRole('heading', { name: 'No access to this namespace', level: 1 }).waitFor();
      expect(await page.getByRole('alert').textContent()).toBe('Your role (production-editor) may not see namespace staging.');
      expect(await page.locator('main').getByRole('link', { name: 'production', exact: true }).getAttribute('href')).toBe('#/namespaces/production/flags');
      expect(await enabledWrites(page)).toEqual([]);
      await shots('editor-no-access');
    });

    it('namespaces: sees production only, may import into it but not edit, delete or create namespaces', async () => {
      await open('/namespaces');
      await page.getByRole('button', { name: 'Export namespace production' }).waitFor();
      expect(await page.locator('main tbody tr').count()).toBe(1);
      expect(await page.getByRole('button', { name: /namespace production$/ }).evaluateAll((es) => es.map((e) => e.getAttribute('aria-label')))).toEqual([
        'Export namespace production',
        'Import into namespace production',
      ]);
      expect(await page.getByRole('button', { name: 'Import…' }).isEnabled()).toBe(true);
      expect(await reasons('button', /^New namespace$/)).toEqual(['Your role (production-editor) may not create namespaces.']);
    });
  });

  describe('a production-editor that is also a viewer', () => {
    beforeAll(() => signIn('production-editor,viewer'));

    it('sees staging with every write control disabled and the reason; production stays editable', async () => {
      await open('/namespaces/staging/flags');
      await page.getByRole('link', { name: 'Dark mode' }).waitFor();
      const roles = 'Your roles (production-editor, viewer)';
      expect(await reasons('button', /^New flag$/)).toEqual([`${roles} may not create flags in staging.`]);
      expect(await reasons('switch')).toEqual([`${roles} may not change flags in staging.`, `${roles} may not change flags in staging.`]);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('editor-viewer-staging-flags');

      await open('/namespaces/staging/flags/checkout');
      await page.getByText('then serve').waitFor();
      expect(await page.locator('.lock-reason').textContent()).toBe(`${roles} may not change flags in staging.`);
      expect(await page.getByRole('button', { name: /^(Edit|Delete) variant/ }).count()).toBe(0);
      expect(await enabledWrites(page)).toEqual([]);
      await shots('editor-viewer-staging-flag');

      await open('/namespaces/production/flags');
      await page.getByRole('link', { name: 'Dark mode' }).waitFor();
      expect(await enabledWrites(page)).toEqual(['New flag', 'switch Enable checkout', 'switch Enable dark-mode']);
    });
  });

  it('a role that may see a namespace but not its flags gets the reason instead of the list', async () => {
    await signIn('evaluator');
    await open('/namespaces/production/flags');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Your role (evaluator) may not see flags in production.');
    expect(await reasons('button', /^New flag$/)).toEqual(['Your role (evaluator) may not create flags in production.']);
  });

  it('a refusal the UI did not foresee (the policy changed since sign-in) is said in words', async () => {
    const api = client(fp.url, bearer(await signIn('production-editor')));
    // The UI still holds the permissions of sign-in; the server reloads the edited policy.
    writeFileSync(policy, 'version: "1"\nroles:\n  admin:\n    - resources: "*"\n      actions: "*"\n  production-editor:\n    - resources: [namespace, flag, segment]\n      actions: [read]\n      namespaces: [production]\nbindings:\n  - role: admin\n    token:\n      metadata:\n        io.flagpole.auth.token.name: initial_bootstrap_token\n');
    // Probed with the flag as it is, so that a write let through before the reload changes nothing.
    const same = { name: 'Checkout', description: 'which checkout the customer sees', enabled: true };
    await eventually(async () => expect((await api.put('/api/v1/namespaces/production/flags/checkout', same)).status).toBe(403));
    await open('/namespaces/production/flags/checkout');
    await page.getByText('then serve').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Checkout 2');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'Permission denied: your role does not allow this (authorization policy). Ask an administrator if you need it.',
    );
    expect((await api.get('/api/v1/namespaces/production/flags/checkout')).body.name).toBe('Checkout');
  });
});
