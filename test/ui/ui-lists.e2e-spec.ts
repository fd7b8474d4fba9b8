/**
 * The flag and segment lists of issue 21, in a real browser against a real Flagpole with authentication required:
 * one list view for both, whose search, filters, sort, page and page size live in the address (Back, Forward and a
 * reload bring them back; typing a search adds no history entry), answered by the API's `search`, `type`, `enabled`
 * and `sort` (docs/api.md, "Searching and sorting lists"), with a column picker remembered in the browser. What the
 * list shows is checked against the namespace as the API lists it without those additions, filtered and sorted here.
 * Timings on a 500-flag namespace are printed: the first rows after opening the page, and a search's answer after
 * the last key. Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-lists/ (FLAGPOLE_LISTS_SHOTS).
 */
import { BOOTSTRAP } from '../auth/support';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(180_000);

const SHOTS = process.env.FLAGPOLE_LISTS_SHOTS ?? '/tmp/shots-lists';
const NS = 'shop';
const FLAGS = 500;
const WORDS = ['Checkout', 'Dark mode', 'Beta banner', 'Search box', 'Pricing page', 'Onboarding', 'Zebra stripes'];

interface ListedFlag {
  key: string;
  name: string;
  description: string;
  type: 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';
  enabled: boolean;
}

const pad = (i: number) => String(i).padStart(3, '0');
/** Names that sort otherwise than keys; "beta" in some names and some descriptions; every type and state. */
const seedFlag = (i: number): ListedFlag => ({
  key: `flag-${pad(i)}`,
  name: `${WORDS[i % WORDS.length]} ${pad(i)}`,
  description: i % 5 === 0 ? 'Rolled out to beta users' : 'Steady',
  type: i % 3 === 0 ? 'BOOLEAN_FLAG_TYPE' : 'VARIANT_FLAG_TYPE',
  enabled: i % 2 === 0,
});

/** Compiles away: page functions run in the browser, and the test code has no DOM library (see support/browser). */
interface InPageNode {
  textContent: string | null;
  value: string;
}
interface InPage {
  document: {
    body: unknown;
    querySelector(s: string): InPageNode | null;
    querySelectorAll(s: string): Iterable<InPageNode>;
    addEventListener(type: string, listener: () => void, capture: boolean): void;
  };
  performance: { now(): number; getEntriesByType(type: string): Array<{ name: string; startTime: number; responseEnd: number }> };
  history: { length: number };
  location: { hash: string };
  localStorage: { getItem(key: string): string | null };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
  firstRowAt?: number;
  navAt?: number;
  timing?: { lastInput: number; matched: number };
}

browserDescribe('issue 21: the flag and segment lists', () => {
  let listed: ListedFlag[] = [];
  const ui = signedInSuite(async (api) => {
    expect((await api.post('/api/v1/namespaces', { key: NS, name: 'Shop' })).status).toBe(200);
    const all = Array.from({ length: FLAGS }, (_, i) => seedFlag(i));
    for (let i = 0; i < all.length; i += 8) {
      const made = await Promise.all(all.slice(i, i + 8).map((f) => api.post(`/api/v1/namespaces/${NS}/flags`, f)));
      expect(made.map((r) => r.status)).toEqual(made.map(() => 200));
    }
    for (let i = 0; i < 30; i++) {
      const name = `${WORDS[i % WORDS.length]} group ${pad(i)}`;
      await api.post(`/api/v1/namespaces/${NS}/segments`, { key: `segment-${pad(i)}`, name, matchType: 'ALL_MATCH_TYPE' });
    }
    // Creation order as the server keeps it (the flags were created in parallel): the list's default order.
    listed = (await api.get(`/api/v1/namespaces/${NS}/flags`)).body.flags;
  });
  const page = () => ui.page;
  const rowKeys = () => page().locator('table.list tbody .key').allTextContents();
  const pager = () => page().locator('.pager-range');
  const hash = () => page().evaluate(() => (globalThis as unknown as InPage).location.hash);
  // A date-time column's header also names the zone ("Updated (UTC)", issue 43): the names alone here.
  const headers = async () => (await page().locator('table.list thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').replace(/ \(.*\)$/, '').trim());
  /** The list once its pager says `range`, as the keys of its rows. */
  const listAt = async (range: string) => {
    await pager().filter({ hasText: range }).waitFor();
    return rowKeys();
  };

  /**
   * The list at `range` once its rows are `keys`, or as it is after 5 s: a new sort keeps the pager's range, so the
   * pager alone does not say the rows have changed.
   */
  const listOnceItIs = async (range: string, keys: string[]) => {
    const until = Date.now() + 5000;
    for (;;) {
      const shown = await listAt(range);
      if (shown.join() === keys.join() || Date.now() > until) return shown;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const openFlags = async (query = '') => {
    await ui.open(`/namespaces/${NS}/flags${query}`);
    await page().getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
  };

  const byName = (flags: ListedFlag[], desc: boolean) =>
    [...flags].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1) * (desc ? -1 : 1));
  const contains = (f: ListedFlag, term: string) => [f.key, f.name, f.description].some((s) => s.toLowerCase().includes(term));
  const booleanOn = () => listed.filter((f) => f.type === 'BOOLEAN_FLAG_TYPE' && f.enabled);
  const range = (from: number, count: number, total: number) => `${from + 1}–${from + count} of ${total.toLocaleString('en-US')} flags`;

  it('opens a 500-flag namespace: first rows after a page load and after an in-app navigation (timings printed)', async () => {
    expect(listed).toHaveLength(FLAGS);
    // A page of its own, so that its timing script runs for no other test.
    const timing = await ui.browser.newPage({ viewport: { width: 1440, height: 900 } });
    timing.setDefaultTimeout(10_000);
    const errors = collectPageErrors(timing);
    await timing.addInitScript(() => {
      const w = globalThis as unknown as InPage;
      // The first flag row of the list: performance.now() counts from the document's navigation.
      new w.MutationObserver(() => {
        if (!w.firstRowAt && w.document.querySelector('table.list tbody a[href*="/flags/"]')) w.firstRowAt = w.performance.now();
      }).observe(w.document, { subtree: true, childList: true });
    });
    await signInWithToken(timing, ui.fp.url, BOOTSTRAP);
    const firstRow = timing.locator('table.list tbody tr').first();
    // Warm: the server, the browser's cache of the UI.
    await timing.goto(`${ui.fp.url}/#/namespaces/${NS}/flags`);
    await firstRow.waitFor();

    const load: number[] = [];
    const inApp: number[] = [];
    for (let i = 0; i < 3; i++) {
      await timing.goto('about:blank');
      await timing.goto(`${ui.fp.url}/#/namespaces/${NS}/flags`);
      await firstRow.waitFor();
      load.push(Math.round(await timing.evaluate(() => (globalThis as unknown as InPage).firstRowAt!)));

      // From another page of the same document, with no list in its cache yet.
      await timing.goto('about:blank');
      await timing.goto(`${ui.fp.url}/#/namespaces`);
      await timing.getByRole('heading', { name: 'Namespaces', level: 1 }).waitFor();
      await timing.evaluate((ns) => {
        const w = globalThis as unknown as InPage;
        w.firstRowAt = 0;
        w.navAt = w.performance.now();
        w.location.hash = `#/namespaces/${ns}/flags`;
      }, NS);
      await firstRow.waitFor();
      inApp.push(Math.round(await timing.evaluate(() => (globalThis as unknown as InPage).firstRowAt! - (globalThis as unknown as InPage).navAt!)));
    }
    expect(await timing.locator('table.list tbody tr').count()).toBe(25);
    // Printed, not asserted: a loaded machine stretches them however it likes.
    console.log(`Flag list, ${FLAGS} flags, first row: page load ${load.join(', ')} ms; in-app navigation ${inApp.join(', ')} ms`);
    expect(errors).toEqual([]);
    await timing.close();
  });

  it('answers a search from the API after the last key, counting what it found', async () => {
    await openFlags();
    await listAt(range(0, 25, FLAGS));
    const expected = listed.filter((f) => contains(f, 'beta'));
    const first = expected.slice(0, 25).map((f) => f.key);
    await page().evaluate((keys) => {
      const w = globalThis as unknown as InPage;
      const timing = (w.timing = { lastInput: 0, matched: 0 });
      w.document.addEventListener('input', () => ((timing.lastInput = w.performance.now()), (timing.matched = 0)), true);
      new w.MutationObserver(() => {
        const shown = [...w.document.querySelectorAll('table.list tbody .key')].map((e) => e.textContent).join();
        if (!timing.matched && shown === keys.join()) timing.matched = w.performance.now();
      }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
    }, first);

    // How long the API took to answer the search, of the time it took.
    const answered = page().waitForEvent('requestfinished', (r) => new URL(r.url()).searchParams.get('search') === 'beta');
    await page().getByLabel('Search flags').pressSequentially('beta', { delay: 40 });
    expect(await listAt(range(0, 25, expected.length))).toEqual(first);
    const { lastInput, matched } = await page().evaluate(() => (globalThis as unknown as InPage).timing!);
    const ms = Math.round(matched - lastInput);
    await answered;
    const [sent, received] = await page().evaluate(() => {
      const w = globalThis as unknown as InPage;
      const entry = w.performance.getEntriesByType('resource').filter((e) => e.name.includes('search=beta')).pop()!;
      return [entry.startTime, entry.responseEnd];
    });
    console.log(
      `Flag list search over ${FLAGS} flags: rows matched ${ms} ms after the last key (${expected.length} found); the request left ` +
        `${Math.round(sent - lastInput)} ms after the key, its answer took ${Math.round(received - sent)} ms, the rows showed ${Math.round(matched - received)} ms after it`,
    );
    // The rows that match came after the last key (how long after is printed above, not asserted).
    expect(ms).toBeGreaterThan(0);
    // Every row found has the term in its key, name or description, and the address has it.
    expect(await hash()).toBe(`#/namespaces/${NS}/flags?q=beta`);

    await page().getByLabel('Search flags').fill('no such flag');
    await page().getByText('No flag matches "no such flag".').waitFor();
    expect(await rowKeys()).toEqual([]);
    await shotsAtEveryWidth(page(), SHOTS, 'flags-no-match');
  });

  it('sorts by a column header, either way, and says how in aria-sort', async () => {
    await openFlags();
    await listAt(range(0, 25, FLAGS));
    const name = page().getByRole('button', { name: /^Name/ });
    await name.click();
    const ascending = byName(listed, false).slice(0, 25).map((f) => f.key);
    expect(await listOnceItIs(range(0, 25, FLAGS), ascending)).toEqual(ascending);
    expect(await page().locator('th', { has: name }).getAttribute('aria-sort')).toBe('ascending');
    await name.click();
    await page().locator('th[aria-sort="descending"]', { has: name }).waitFor();
    const descending = byName(listed, true).slice(0, 25).map((f) => f.key);
    expect(await listOnceItIs(range(0, 25, FLAGS), descending)).toEqual(descending);
    expect(await hash()).toBe(`#/namespaces/${NS}/flags?sort=-name`);
    // One column at a time says how the list is sorted; the sort menu says the same.
    expect(await page().locator('th[aria-sort]').count()).toBe(1);
    expect(await page().getByLabel('Sort', { exact: true }).inputValue()).toBe('-name');

    await page().getByRole('button', { name: /^Key/ }).click();
    const byKey = [...listed].sort((a, b) => (a.key < b.key ? -1 : 1));
    await page().locator('th[aria-sort="ascending"]', { has: page().getByRole('button', { name: /^Key/ }) }).waitFor();
    const keys = byKey.slice(0, 25).map((f) => f.key);
    expect(await listOnceItIs(range(0, 25, FLAGS), keys)).toEqual(keys);
  });

  it('filters by type and by on/off, and keeps search, filters, sort, page and size in the address', async () => {
    await openFlags();
    await listAt(range(0, 25, FLAGS));
    const matching = byName(booleanOn(), true);
    const keys = (from: number, to: number) => matching.slice(from, to).map((f) => f.key);

    await page().getByLabel('Type', { exact: true }).selectOption('boolean');
    await page().getByLabel('Enabled', { exact: true }).selectOption('true');
    expect(await listAt(range(0, 25, matching.length))).toEqual(booleanOn().slice(0, 25).map((f) => f.key));
    await page().getByRole('button', { name: /^Name/ }).click();
    await page().getByRole('button', { name: /^Name/ }).click();
    await page().getByLabel('Per page').selectOption('50');
    expect(await listAt(range(0, 50, matching.length))).toEqual(keys(0, 50));
    await page().getByRole('button', { name: 'Next →' }).click();
    const secondPage = range(50, matching.length - 50, matching.length);
    expect(await listAt(secondPage)).toEqual(keys(50, 100));
    const full = `#/namespaces/${NS}/flags?type=boolean&enabled=true&sort=-name&page=2&size=50`;
    expect(await hash()).toBe(full);
    await shotsAtEveryWidth(page(), SHOTS, 'flags-filtered');

    // A reload: the same list, the same controls.
    await page().reload();
    expect(await listAt(secondPage)).toEqual(keys(50, 100));
    expect(await hash()).toBe(full);
    expect(await page().getByLabel('Type', { exact: true }).inputValue()).toBe('boolean');
    expect(await page().getByLabel('Enabled', { exact: true }).inputValue()).toBe('true');
    expect(await page().getByLabel('Per page').inputValue()).toBe('50');
    expect(await page().locator('th[aria-sort="descending"]').textContent()).toMatch(/^Name/);

    // Back: one change at a time, as they were made.
    await page().goBack();
    expect(await listAt(range(0, 50, matching.length))).toEqual(keys(0, 50));
    expect(await hash()).toBe(`#/namespaces/${NS}/flags?type=boolean&enabled=true&sort=-name&size=50`);
    await page().goBack();
    expect(await listAt(range(0, 25, matching.length))).toEqual(keys(0, 25));
    expect(await page().getByLabel('Per page').inputValue()).toBe('25');
    await page().goForward();
    expect(await listAt(range(0, 50, matching.length))).toEqual(keys(0, 50));

    // Typing adds no history entry, and starts again at the first page with the filters kept.
    const entries = await page().evaluate(() => (globalThis as unknown as InPage).history.length);
    await page().getByLabel('Search flags').pressSequentially('page', { delay: 30 });
    const found = matching.filter((f) => contains(f, 'page'));
    expect(await listAt(range(0, found.length, found.length))).toEqual(found.map((f) => f.key));
    expect(await hash()).toBe(`#/namespaces/${NS}/flags?q=page&type=boolean&enabled=true&sort=-name&size=50`);
    expect(await page().evaluate(() => (globalThis as unknown as InPage).history.length)).toBe(entries);
    // Back leaves the search (its entry was replaced, not added): the box follows the address.
    await page().goBack();
    expect(await listAt(range(0, 25, matching.length))).toEqual(keys(0, 25));
    expect(await page().getByLabel('Search flags').inputValue()).toBe('');
    await page().goForward();
    await pager().filter({ hasText: range(0, found.length, found.length) }).waitFor();
    expect(await page().getByLabel('Search flags').inputValue()).toBe('page');
  });

  it('lets the user choose the optional columns, and remembers them after a reload', async () => {
    await openFlags();
    await listAt(range(0, 25, FLAGS));
    expect(await headers()).toEqual(['Enabled', 'Name', 'Key', 'Type', 'Lifecycle', 'Description', 'Updated']);
    await page().getByRole('button', { name: 'Columns' }).click();
    const menu = page().getByRole('group', { name: 'Show columns' });
    await menu.getByLabel('Description').uncheck();
    await menu.getByLabel('Created').check();
    expect(await headers()).toEqual(['Enabled', 'Name', 'Key', 'Type', 'Lifecycle', 'Updated', 'Created']);
    await shotsAtEveryWidth(page(), SHOTS, 'flags-columns');
    await page().keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await page().reload();
    await listAt(range(0, 25, FLAGS));
    expect(await headers()).toEqual(['Enabled', 'Name', 'Key', 'Type', 'Lifecycle', 'Updated', 'Created']);
    expect(JSON.parse((await page().evaluate(() => (globalThis as unknown as InPage).localStorage.getItem('flagpole.columns.flags')))!)).toMatchObject({
      description: false,
      created: true,
    });
    // Sorting by the column just shown: what the API answers for that sort (flags created in the same millisecond
    // are in the order the server chooses).
    await page().getByRole('button', { name: /^Created/ }).click();
    await page().getByRole('button', { name: /^Created/ }).click();
    await page().locator('th[aria-sort="descending"]', { has: page().getByRole('button', { name: /^Created/ }) }).waitFor();
    expect(await hash()).toBe(`#/namespaces/${NS}/flags?sort=-createdAt`);
    const newest = (await ui.api.get(`/api/v1/namespaces/${NS}/flags?sort=-createdAt&limit=25`)).body.flags as ListedFlag[];
    expect(await listAt(range(0, 25, FLAGS))).toEqual(newest.map((f) => f.key));

    await page().getByRole('button', { name: 'Columns' }).click();
    await menu.getByLabel('Description').check();
    await menu.getByLabel('Created').uncheck();
    expect(await headers()).toEqual(['Enabled', 'Name', 'Key', 'Type', 'Lifecycle', 'Description', 'Updated']);
  });

  it('lists segments the same way: search and sort, kept in the address', async () => {
    await ui.open(`/namespaces/${NS}/segments`);
    await page().getByText('1–25 of 30 segments').waitFor();
    await page().getByRole('button', { name: /^Name/ }).click();
    await page().getByRole('button', { name: /^Name/ }).click();
    await page().getByLabel('Search segments').pressSequentially('zebra', { delay: 30 });
    // Zebra stripes group 006, 013, 020, 027: by name, descending.
    await page().getByText('1–4 of 4 segments').waitFor();
    expect(await rowKeys()).toEqual(['segment-027', 'segment-020', 'segment-013', 'segment-006']);
    expect(await hash()).toBe(`#/namespaces/${NS}/segments?q=zebra&sort=-name`);
    await page().reload();
    await page().getByText('1–4 of 4 segments').waitFor();
    expect(await rowKeys()).toEqual(['segment-027', 'segment-020', 'segment-013', 'segment-006']);
    expect(await page().getByLabel('Search segments').inputValue()).toBe('zebra');
    await shotsAtEveryWidth(page(), SHOTS, 'segments-search');
  });

  it('stacks the rows on a phone: nothing scrolls sideways, not even inside the table', async () => {
    await openFlags();
    await listAt(range(0, 25, FLAGS));
    await page().setViewportSize({ width: 390, height: 844 });
    const wrap = page().locator('.list-table');
    const [scrollWidth, clientWidth] = await wrap.evaluate((e) => {
      const el = e as unknown as { scrollWidth: number; clientWidth: number };
      return [el.scrollWidth, el.clientWidth];
    });
    expect(scrollWidth).toBe(clientWidth);
    const firstName = page().locator('table.list tbody tr').first().getByRole('link');
    const box = (await firstName.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // The switch shares the name's line.
    const toggle = (await page().locator('table.list tbody tr').first().getByRole('switch').boundingBox())!;
    expect(toggle.x + toggle.width).toBeLessThanOrEqual(390);
    expect(Math.abs(toggle.y + toggle.height / 2 - (box.y + box.height / 2))).toBeLessThan(16);
    await page().setViewportSize({ width: 1440, height: 900 });
    await shotsAtEveryWidth(page(), SHOTS, 'flags');
  });
});
