/**
 * Issue 40, flag lifecycle in the web UI, in Chromium against a real Flagpole with analytics on and authentication
 * required, in a Berlin browser. Flags of every kind are made at the start; the server's clock (`Clock`, spied
 * in-process as the server suites do) is then moved 41 days on and one lifecycle check run, and a browser whose own
 * clock is at that time too reads the result:
 *  - a flag's Lifecycle card: the kind (the namespace's default until set) chosen in a select that saves at once into
 *    `metadata.flagpole.kind`, every other metadata key kept; *Archive flag* / *Unarchive* writing the archive mark;
 *    a new flag made with a kind;
 *  - after the check, the flags list's *Potentially stale* badge with its reasons as text, exactly on the flags the
 *    server found stale, *Archived* on the archived one; the *Lifecycle* filter (`?stale=true`) listing only those;
 *  - the Flag health page (in the navigation): counts by state and by kind, the stale flags with their reasons and
 *    links to them; the flag page's card saying why; the flag's History showing the check's `stale` event;
 *  - with `lifecycle.enabled` off, none of it (no card, column, filter, kind field or navigation entry; the health
 *    page's address says there is no report) and no lifecycle request.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-lifecycle/ (FLAGPOLE_LIFECYCLE_SHOTS); none may
 * scroll sideways.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { Clock } from '../../src/common/clock';
import { LifecycleCheck } from '../../src/lifecycle/lifecycle-check';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { ANALYTICS_ON, flush } from '../analytics/support';
import { buildNamespace } from '../evaluation/fixtures';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(180_000);

const SHOTS = process.env.FLAGPOLE_LIFECYCLE_SHOTS ?? '/tmp/shots-lifecycle';
const BERLIN = { timezoneId: 'Europe/Berlin' };
const DAY = 86_400_000;
const flagsPath = '/api/v1/namespaces/shop/flags';

/** `2027-01-17 14:02` in Berlin, as the UI writes a time where the zone is named once nearby. */
const berlin = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );
/** The server's sentence as the page writes it: its RFC 3339 times in Berlin time. */
const inBerlin = (detail: string) => detail.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, berlin);

interface Reason {
  reason: string;
  since: string;
  detail: string;
}

interface Lifecycle {
  kind: string;
  state: string;
  reasons: Reason[];
}

/** Flags made through the API with metadata of their own (kinds set, a key of someone else's beside them). */
const MADE: Array<{ key: string; name: string; metadata?: Record<string, unknown> }> = [
  { key: 'quick-fix', name: 'Quick fix', metadata: { flagpole: { kind: 'operational' } } },
  { key: 'kill-payments', name: 'Kill payments', metadata: { flagpole: { kind: 'kill_switch' }, team: 'payments' } },
  { key: 'beta-access', name: 'Beta access', metadata: { flagpole: { kind: 'permission' } } },
  { key: 'old-banner', name: 'Old banner' },
];

async function seed(api: SignedInSuite['api']): Promise<void> {
  await buildNamespace(api, {
    key: 'shop',
    flags: [
      { key: 'checkout', name: 'Checkout', enabled: true, variants: [{ key: 'blue' }, { key: 'green' }], defaultVariant: 'green' },
      { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: true, rollouts: [{ threshold: { percentage: 100, value: true } }] },
    ],
  });
  for (const f of MADE) {
    const r = await api.post(flagsPath, { ...f, type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    if (r.status !== 200) throw new Error(`create ${f.key}: ${r.status} ${r.text}`);
  }
  // Metadata of someone else's on the flag whose kind the UI sets: it must stay.
  const checkout = (await api.get(`${flagsPath}/checkout`)).body;
  const put = await api.put(`${flagsPath}/checkout`, { name: checkout.name, description: '', enabled: true, defaultVariantId: checkout.defaultVariant.id, metadata: { owner: 'team-a' } });
  if (put.status !== 200) throw new Error(`metadata: ${put.status} ${put.text}`);
}

/** Runs one lifecycle check at `at` (ms) on the server's clock. */
async function checkAt(fp: RunningFlagpole, at: number): Promise<void> {
  const clock = jest.spyOn(fp.app.get(Clock), 'now').mockReturnValue(at);
  try {
    await fp.app.get(LifecycleCheck).check();
  } finally {
    clock.mockRestore();
  }
}

browserDescribe('issue 40: flag lifecycle in the web UI', () => {
  const ui = signedInSuite(seed, { env: ANALYTICS_ON, context: BERLIN });
  const page = () => ui.page;
  const main = () => page().locator('main');
  const card = (p: Page = page()) => p.locator('main section.lifecycle');
  const flag = async (key: string) => (await ui.api.get(`${flagsPath}/${key}`)).body as { metadata?: Record<string, unknown> };
  const lifecycle = async (key: string) => (await ui.api.get(`${flagsPath}/${key}/lifecycle`)).body as Lifecycle;
  let startedAt = 0;

  beforeAll(async () => {
    startedAt = Date.now();
    // `launch` evaluated: live; the others never: new.
    for (let i = 0; i < 3; i++) {
      const r = await ui.api.post('/evaluate/v1/boolean', { namespaceKey: 'shop', flagKey: 'launch', entityId: `user-${i}`, context: {} });
      if (r.status !== 200) throw new Error(`evaluate: ${r.status} ${r.text}`);
    }
    await flush(ui.fp);
    await checkAt(ui.fp, startedAt);
  });

  it("sets a flag's kind from its page, keeping the rest of its metadata, and archives and unarchives it", async () => {
    await ui.open('/namespaces/shop/flags/checkout');
    const kind = card().getByLabel('Kind');
    // Not set on the flag: the namespace's default, release, said so.
    await card().getByText("Not set on the flag: the namespace's default.").waitFor();
    expect(await kind.inputValue()).toBe('release');
    expect(await card().locator('.lifecycle-badge').textContent()).toBe('New');
    await shotsAtEveryWidth(page(), SHOTS, 'flag-new');

    await kind.selectOption({ label: 'Experiment' });
    await page().getByText('Kind of checkout: Experiment').waitFor();
    expect((await flag('checkout')).metadata).toEqual({ owner: 'team-a', flagpole: { kind: 'experiment' } });
    await card().getByText("Not set on the flag: the namespace's default.").waitFor({ state: 'detached' });
    expect(await kind.inputValue()).toBe('experiment');
    // The metadata card shows the mark too, as JSON beside the other key.
    expect(await main().getByLabel('Metadata key 2').inputValue()).toBe('flagpole');

    await ui.open('/namespaces/shop/flags/old-banner');
    await card().getByRole('button', { name: 'Archive flag' }).click();
    await card().getByRole('button', { name: 'Unarchive' }).waitFor();
    expect((await flag('old-banner')).metadata).toEqual({ flagpole: { archived: true } });
    expect(await card().locator('.lifecycle-badge').textContent()).toBe('Archived');
    await card().getByText(/^Archived: it is done with/).waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'flag-archived');
    // Unarchived, the mark goes (a flag never archived reads the same), then back for the rest of the suite.
    await card().getByRole('button', { name: 'Unarchive' }).click();
    await card().getByRole('button', { name: 'Archive flag' }).waitFor();
    expect((await flag('old-banner')).metadata ?? {}).toEqual({});
    await card().getByRole('button', { name: 'Archive flag' }).click();
    await card().getByRole('button', { name: 'Unarchive' }).waitFor();
    expect(await lifecycle('old-banner')).toMatchObject({ state: 'archived' });
  });

  it('makes a new flag of a chosen kind', async () => {
    await ui.open('/namespaces/shop/create/flag');
    await main().getByLabel('Name').fill('Pricing test');
    await main().getByLabel('Kind').selectOption({ label: 'Experiment' });
    await main().getByRole('button', { name: 'Create flag' }).click();
    await page().getByRole('heading', { name: 'Pricing test', level: 1 }).waitFor();
    expect((await flag('pricing-test')).metadata).toEqual({ flagpole: { kind: 'experiment' } });
    expect(await card().getByLabel('Kind').inputValue()).toBe('experiment');
    expect((await ui.api.delete(`${flagsPath}/pricing-test`)).status).toBe(200);
  });

  describe('41 days on', () => {
    let context: BrowserContext;
    let later: Page;
    let errors: string[];
    const laterAt = () => startedAt + 41 * DAY;
    /** The flags the server found potentially stale, each with its reasons' names. */
    const STALE: Record<string, string[]> = {
      checkout: ['lifetime', 'unused'],
      launch: ['lifetime', 'unused'],
      'quick-fix': ['lifetime', 'unused'],
    };

    beforeAll(async () => {
      await checkAt(ui.fp, laterAt());
      // What the server says, before the page is asked to show it.
      for (const key of ['checkout', 'launch', 'quick-fix', 'kill-payments', 'beta-access', 'old-banner']) {
        const l = await lifecycle(key);
        const expected = STALE[key] ? { state: 'potentially_stale', reasons: STALE[key] } : { state: key === 'old-banner' ? 'archived' : 'new', reasons: [] };
        expect({ key, state: l.state, reasons: l.reasons.map((r) => r.reason) }).toEqual({ key, ...expected });
      }
      // A browser whose clock is 41 days on too, so that "since" and "ago" read as they would then.
      context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
      await context.clock.install({ time: laterAt() });
      later = await context.newPage();
      later.setDefaultTimeout(10_000);
      errors = collectPageErrors(later);
      await signInWithToken(later, ui.fp.url, BOOTSTRAP);
    });
    afterEach(() => expect(errors.splice(0)).toEqual([]));
    afterAll(() => context?.close());

    const rows = (p: Page) => p.locator('main table.list tbody tr');
    /** Each row's flag key and what its Lifecycle cell says. */
    const listed = (p: Page) =>
      rows(p).evaluateAll((trs) =>
        trs.map((tr) => {
          const cells = (tr as unknown as { querySelector(s: string): { textContent: string } | null });
          return [cells.querySelector('.key')?.textContent?.trim() ?? '', cells.querySelector('td:nth-child(5)')?.textContent?.trim() ?? ''];
        }),
      );

    it('shows the potentially stale flags in the list with their reasons as text, and lists only them when asked', async () => {
      await later.goto(`${ui.fp.url}/#/namespaces/shop/flags`);
      await later.locator('main .stale-flag').first().waitFor();
      expect(await later.locator('main table.list thead th').nth(4).textContent()).toBe('Lifecycle');
      expect(Object.fromEntries(await listed(later))).toEqual({
        checkout: 'Potentially stale: past its lifetime, not evaluated lately',
        launch: 'Potentially stale: past its lifetime, not evaluated lately',
        'quick-fix': 'Potentially stale: past its lifetime, not evaluated lately',
        'kill-payments': '',
        'beta-access': '',
        'old-banner': 'Archived',
      });
      // The badge and its reasons are read as one: "Potentially stale: past its lifetime, …".
      const cell = later.locator('main .stale-flag').first();
      expect(await cell.locator('.stale-why').isVisible()).toBe(true);
      await shotsAtEveryWidth(later, SHOTS, 'flags-list');

      await later.getByLabel('Lifecycle').selectOption({ label: 'Potentially stale' });
      await later.waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash.includes('stale=true'));
      await later.getByText('1–3 of 3 flags').waitFor();
      expect((await listed(later)).map(([k]) => k).sort()).toEqual(Object.keys(STALE).sort());
      await shotsAtEveryWidth(later, SHOTS, 'flags-stale-only');
      await later.getByLabel('Lifecycle').selectOption({ label: 'Not stale' });
      // The same count as before: the rows of the other filter are waited for.
      await later.locator('main table.list').getByRole('link', { name: 'Kill payments', exact: true }).waitFor();
      await later.getByText('1–3 of 3 flags').waitFor();
      expect((await listed(later)).map(([k]) => k).sort()).toEqual(['beta-access', 'kill-payments', 'old-banner']);
    });

    it('shows the namespace\'s flag health: counts by state and kind, the stale flags with reasons and links', async () => {
      await later.goto(`${ui.fp.url}/#/namespaces/shop/flags`);
      await later.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flag health' }).click();
      await later.getByRole('heading', { name: 'Flag health', level: 1 }).waitFor();
      const count = (section: string, term: string) =>
        later.locator('main section', { has: later.getByRole('heading', { name: section }) }).locator('.health-counts > div').filter({ has: later.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) }).locator('.health-number');
      await count('By state', 'Potentially stale').filter({ hasText: '3' }).waitFor();
      expect(await count('By state', 'New').textContent()).toBe('2');
      expect(await count('By state', 'Live').textContent()).toBe('0');
      expect(await count('By state', 'Archived').textContent()).toBe('1');
      const health = (await ui.api.get('/api/v1/namespaces/shop/flag-health')).body as { kinds: Record<string, number> };
      for (const [kind, label] of [['release', 'Release'], ['experiment', 'Experiment'], ['operational', 'Operational'], ['kill_switch', 'Kill switch'], ['permission', 'Permission']]) {
        expect([kind, await count('By kind', label).textContent()]).toEqual([kind, String(health.kinds[kind] ?? 0)]);
      }
      const list = later.getByRole('list', { name: 'Potentially stale flags in shop' });
      expect((await list.locator('> li .stale-head a').allTextContents()).sort()).toEqual(Object.keys(STALE).sort());
      const launch = list.locator('> li', { has: later.getByRole('link', { name: 'launch', exact: true }) });
      expect(await launch.locator('.stale-reasons li').allTextContents()).toEqual(
        (await lifecycle('launch')).reasons.map((r) => expect.stringContaining(`: ${inBerlin(r.detail)} (since ${berlin(r.since)})`)),
      );
      // The server's "last at <RFC 3339>" is written in the page's zone.
      expect(await launch.locator('.stale-reasons li').nth(1).textContent()).toMatch(/last at \d{4}-\d\d-\d\d \d\d:\d\d\)/);
      expect(await launch.locator('.badge').textContent()).toBe('Release');
      await shotsAtEveryWidth(later, SHOTS, 'health');

      // Its link opens the flag, whose card says why too.
      await launch.getByRole('link', { name: 'launch', exact: true }).click();
      await later.getByRole('heading', { name: 'Why it may be stale' }).waitFor();
      expect(await card(later).locator('.lifecycle-badge').textContent()).toBe('Potentially stale');
      // The header says it on every view of the page.
      expect(await later.locator('main .page-header .subtitle').textContent()).toBe('launch · Boolean flag · Potentially stale');
      expect(await card(later).locator('.stale-reasons li strong').allTextContents()).toEqual(['Past its lifetime', 'Not evaluated lately']);
      await shotsAtEveryWidth(later, SHOTS, 'flag-stale');
    });

    it("shows the check's stale event in the flag's history, in words", async () => {
      await later.goto(`${ui.fp.url}/#/namespaces/shop/flags/launch?view=history`);
      const event = later.locator('.audit-event', { has: later.locator('.badge.audit-stale') });
      await event.waitFor();
      await event.getByText('Found potentially stale (release flag):').waitFor();
      expect(await event.locator('.stale-reasons li strong').allTextContents()).toEqual(['Past its lifetime', 'Not evaluated lately']);
      expect(await event.locator('.audit-who').textContent()).toBe('by lifecycle check (Flagpole itself)');
      await shotsAtEveryWidth(later, SHOTS, 'flag-history');
    });
  });

  it('shows none of it with lifecycle.enabled off, and reads no lifecycle', async () => {
    const fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_LIFECYCLE_ENABLED: 'false' });
    const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    const errors = collectPageErrors(p);
    const reads: string[] = [];
    p.on('request', (r) => {
      if (/\/lifecycle|\/flag-health|stale=/.test(r.url())) reads.push(r.url());
    });
    try {
      await buildNamespace(client(fp.url, bearer(BOOTSTRAP)), { key: 'shop', flags: [{ key: 'checkout', name: 'Checkout', variants: [{ key: 'blue' }] }] });
      await signInWithToken(p, fp.url, BOOTSTRAP);
      await p.goto(`${fp.url}/#/namespaces/shop/flags`);
      await p.getByRole('link', { name: 'Checkout', exact: true }).waitFor();
      expect(await p.locator('main table.list').getByRole('columnheader').allTextContents()).not.toContainEqual(expect.stringMatching(/Lifecycle/));
      expect(await p.getByLabel('Lifecycle').count()).toBe(0);
      expect(await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flag health' }).count()).toBe(0);
      await p.getByRole('link', { name: 'Checkout', exact: true }).click();
      await p.getByRole('heading', { name: 'Variants' }).waitFor();
      expect(await p.getByRole('heading', { name: 'Lifecycle' }).count()).toBe(0);
      await p.goto(`${fp.url}/#/namespaces/shop/create/flag`);
      await p.getByLabel('Name', { exact: true }).waitFor();
      expect(await p.getByLabel('Kind').count()).toBe(0);
      await p.goto(`${fp.url}/#/namespaces/shop/health`);
      await p.getByText("This Flagpole does not check flags' lifecycle").waitFor();
      expect(reads).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fp.close();
    }
  });
});
