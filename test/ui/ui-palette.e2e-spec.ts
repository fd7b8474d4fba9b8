/**
 * The command palette of issue 21, in a real browser against a real Flagpole with authentication required: Ctrl-K
 * (or the top bar's button) opens a dialog that jumps to a flag, segment, namespace or page by the keyboard or the
 * mouse; Escape gives focus back; the palette reads the namespace's flags and segments only once it is opened, shows
 * at most 50 results and says when nothing matches; the login page has none. Screenshots with the palette open, at
 * 1440 and 390 px, light and dark, go to /tmp/shots-palette/ (FLAGPOLE_PALETTE_SHOTS); none may scroll sideways.
 */
import type { Page, Request } from 'playwright-core';
import { buildNamespace } from '../evaluation/fixtures';
import type { RunningFlagpole } from '../support/flagpole';
import { browserDescribe, isFocused, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_PALETTE_SHOTS ?? '/tmp/shots-palette';

browserDescribe('issue 21: the command palette', () => {
  const ui = signedInSuite(async (api) => {
    await buildNamespace(api, {
      key: 'shop',
      segments: [{ key: 'beta-testers', name: 'Beta testers' }, { key: 'staff', name: 'Staff' }],
      // In this order on purpose: the flag whose key starts with the term must come first all the same.
      flags: [{ key: 'new-checkout', name: 'New checkout' }, { key: 'checkout', name: 'Checkout flow' }, { key: 'dark-mode', name: 'Dark mode' }],
    });
    await buildNamespace(api, { key: 'warehouse', flags: [{ key: 'pick-route', name: 'Pick route' }] });
    await buildNamespace(api, { key: 'bulk', flags: Array.from({ length: 60 }, (_, i) => ({ key: `bulk-flag-${String(i).padStart(2, '0')}` })) });
  });
  let fp: RunningFlagpole;
  let page: Page;
  beforeAll(() => {
    ({ fp, page } = ui);
  });
  const open = async (hash: string, heading: string) => {
    await page.goto(`${fp.url}/#${hash}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const palette = () => page.getByRole('dialog', { name: 'Go to' });
  const combobox = () => palette().getByRole('combobox');
  const options = () => palette().getByRole('option');
  const optionTexts = () => options().allInnerTexts();
  const pressShortcut = async () => {
    await page.keyboard.press('Control+K');
    await combobox().waitFor();
  };

  afterEach(async () => {
    // A test that failed with the palette open leaves it shut for the next.
    if (await palette().count()) await page.keyboard.press('Escape');
  });

  it('reads the flags and segments only once opened, then finds a flag by part of its name, best match first, and opens it with ↓ and Enter', async () => {
    const reads: string[] = [];
    const record = (r: Request) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && /^\/api\/v1\/namespaces\/shop\/(flags|segments)$/.test(url.pathname)) reads.push(`${url.pathname}?${url.searchParams}`);
    };
    page.on('request', record);
    await open('/namespaces/shop/flags', 'Flags');
    await page.getByText('1–3 of 3 flags').waitFor();
    // The flags page reads its own page of flags; nothing reads the whole list or the segments yet.
    expect(reads.filter((r) => !r.includes('limit=25'))).toEqual([]);

    await pressShortcut();
    expect(await isFocused(combobox())).toBe(true);
    expect(await palette().getAttribute('aria-modal')).toBe('true');
    await palette().getByRole('group', { name: 'Flags' }).waitFor();
    // Which lists, not how often: the UI's reads are sometimes started twice, the first given up (so are the page's).
    expect([...new Set(reads.filter((r) => !r.includes('limit=25')))].sort()).toEqual(['/api/v1/namespaces/shop/flags?limit=0', '/api/v1/namespaces/shop/segments?']);
    page.off('request', record);

    await combobox().fill('CHECK');
    expect(await optionTexts()).toEqual(['Checkout flow\ncheckout', 'New checkout\nnew-checkout']);
    expect(await combobox().getAttribute('aria-expanded')).toBe('true');
    const activeIs = async (name: string) => {
      const active = palette().getByRole('option', { selected: true });
      expect(await active.innerText()).toBe(name);
      expect(await combobox().getAttribute('aria-activedescendant')).toBe(await active.getAttribute('id'));
      expect(await palette().getByRole('listbox').getAttribute('id')).toBe(await combobox().getAttribute('aria-controls'));
    };
    await activeIs('Checkout flow\ncheckout');
    await page.keyboard.press('ArrowDown');
    await activeIs('New checkout\nnew-checkout');
    await page.keyboard.press('ArrowDown'); // past the last: back to the first
    await activeIs('Checkout flow\ncheckout');
    await page.keyboard.press('ArrowUp');
    await activeIs('New checkout\nnew-checkout');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'New checkout', level: 1 }).waitFor();
    expect(page.url()).toBe(`${fp.url}/#/namespaces/shop/flags/new-checkout`);
    expect(await palette().count()).toBe(0);
  });

  it('opens a segment by a click, from the top bar button', async () => {
    await open('/namespaces/shop/flags', 'Flags');
    await page.getByRole('banner').getByRole('button', { name: 'Search…' }).click();
    await combobox().fill('beta');
    const segments = palette().getByRole('group', { name: 'Segments' });
    await segments.getByRole('option', { name: 'Beta testers' }).click();
    await page.getByRole('heading', { name: 'Beta testers', level: 1 }).waitFor();
    expect(page.url()).toBe(`${fp.url}/#/namespaces/shop/segments/beta-testers`);
  });

  it('jumps to another namespace at the same section, and then offers that namespace’s flags', async () => {
    await open('/namespaces/shop/segments', 'Segments');
    await pressShortcut();
    await combobox().fill('wareh');
    expect(await optionTexts()).toEqual(['warehouse']);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    await page.waitForURL(`${fp.url}/#/namespaces/warehouse/segments`);

    await pressShortcut();
    await combobox().fill('pick');
    await palette().getByRole('option', { name: 'Pick route' }).waitFor();
    await combobox().fill('checkout');
    await palette().getByText('No match for “checkout”').waitFor();
    await page.keyboard.press('Escape');
  });

  it('opens from a text field too; Escape closes it and gives focus back to that field', async () => {
    await open('/namespaces/shop/flags', 'Flags');
    const search = page.getByLabel('Search flags');
    await search.fill('dar');
    await pressShortcut();
    expect(await isFocused(combobox())).toBe(true);
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
    expect(await isFocused(search)).toBe(true);
    // Neither the shortcut nor Escape changed what the field holds.
    expect(await search.inputValue()).toBe('dar');
  });

  it('says when nothing matches, and pages are found by name', async () => {
    await open('/namespaces/shop/flags', 'Flags');
    await pressShortcut();
    await combobox().fill('zzz-nothing');
    await palette().getByText('No match for “zzz-nothing”').waitFor();
    expect(await options().count()).toBe(0);
    expect(await combobox().getAttribute('aria-expanded')).toBe('false');
    expect(await combobox().getAttribute('aria-activedescendant')).toBeNull();

    await combobox().fill('audit');
    await palette().getByRole('group', { name: 'Pages' }).getByRole('option', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    expect(page.url()).toBe(`${fp.url}/#/namespaces/shop/audit`);
  });

  it('shows at most 50 results, and says how many matched', async () => {
    await open('/namespaces/bulk/flags', 'Flags');
    await pressShortcut();
    await combobox().fill('bulk-flag');
    await palette().getByText('Showing 50 of 60 — type to narrow').waitFor();
    expect(await options().count()).toBe(50);
    await combobox().fill('bulk-flag-5');
    await palette().getByRole('option', { name: 'bulk-flag-59' }).waitFor();
    expect(await options().count()).toBe(10);
    await page.keyboard.press('Escape');
  });

  it('does not open over another dialog', async () => {
    await open('/namespaces', 'Namespaces');
    await page.getByRole('button', { name: 'New namespace' }).click();
    const form = page.getByRole('dialog', { name: 'New namespace' });
    await form.waitFor();
    await page.keyboard.press('Control+K');
    await page.waitForTimeout(200);
    expect(await palette().count()).toBe(0);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('fits a phone and both themes, open', async () => {
    await open('/namespaces/shop/flags', 'Flags');
    await pressShortcut();
    await combobox().fill('e');
    await palette().getByRole('group', { name: 'Segments' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await palette().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await shotsAtEveryWidth(page, SHOTS, 'palette');
    expect(await isFocused(combobox())).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('closes when Back changes the page under it', async () => {
    await open('/namespaces/shop/flags', 'Flags');
    await open('/namespaces/shop/segments', 'Segments');
    await pressShortcut();
    await page.goBack();
    await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
    await palette().waitFor({ state: 'detached' });
  });

  it('is not on the login page', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const login = await context.newPage();
    await login.goto(`${fp.url}/`);
    await login.getByRole('heading', { name: 'Sign in to Flagpole' }).waitFor();
    await login.keyboard.press('Control+K');
    await login.waitForTimeout(200);
    expect(await login.getByRole('dialog').count()).toBe(0);
    expect(await login.getByRole('button', { name: 'Search…' }).count()).toBe(0);
    await context.close();
  });
});
