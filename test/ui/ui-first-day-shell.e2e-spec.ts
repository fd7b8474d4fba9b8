/**
 * Issue 43 (a new user's first day), the shell's items, in a real browser against a real Flagpole with authentication
 * required and the audit trail stored: at 390 px the navigation folds behind a Menu button and the static tokens
 * table stacks, at 1440 px the namespace switcher shows its whole choice (14); the audit trail's actor search matches
 * part of a name and its filters survive a reload (18); the palette offers actions, not only pages (19); in the dark
 * theme a dialog's backdrop dims the page and a disabled button looks disabled by more than its opacity (20); the
 * navigation's footer shows the version and links to the API explorer (22). Screenshots at 1440 and 390 px, light and
 * dark, go to /tmp/shots-43/g6/ (FLAGPOLE_G6_SHOTS) for people to look at.
 */
import type { Locator, Page } from 'playwright-core';
import { bearer, createToken, eventually } from '../auth/support';
import type { RunningFlagpole } from '../support/flagpole';
import { browserDescribe, isFocused, shotsAtEveryWidth } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_G6_SHOTS ?? '/tmp/shots-43/g6';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

const NS = 'mobile-storefront-experiments';
const NS_NAME = 'Mobile storefront experiments';

/** Compiles away: page functions run in the browser, and the test code has no DOM library (see support/browser). */
interface InPageElement {
  scrollWidth: number;
  clientWidth: number;
  value: string;
  selectedOptions: Array<{ textContent: string | null }>;
  style: Record<string, string>;
  remove(): void;
  append(...nodes: unknown[]): void;
  getBoundingClientRect(): { width: number };
  insertAdjacentHTML(where: string, html: string): void;
  querySelector(selector: string): InPageElement;
}
interface InPage {
  document: { body: InPageElement; createElement(tag: string): InPageElement; querySelector(selector: string): InPageElement };
  getComputedStyle(e: InPageElement, pseudo?: string): Record<string, string> & { getPropertyValue(name: string): string };
}
const inPage = () => globalThis as unknown as InPage;

/** [r, g, b, a] of a computed colour (`rgb(…)` or `rgba(…)`). */
function rgba(colour: string): number[] {
  const parts = colour.match(/[\d.]+/g)?.map(Number) ?? [];
  if (parts.length < 3) throw new Error(`not a colour: ${colour}`);
  return [parts[0], parts[1], parts[2], parts[3] ?? 1];
}

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** `over` (with its alpha) painted on the opaque `under`. */
function composite(over: number[], under: number[]): number[] {
  const a = over[3];
  return [0, 1, 2].map((i) => over[i] * a + under[i] * (1 - a));
}

browserDescribe('issue 43: the shell on a new user’s first day', () => {
  const ui: SignedInSuite = signedInSuite(seed, { env: { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' } });
  let fp: RunningFlagpole;
  let page: Page;
  beforeAll(() => {
    ({ fp, page } = ui);
  });
  afterEach(async () => {
    if (!page) return;
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  const open = async (hash: string, heading: string) => {
    await ui.open(hash);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const banner = () => page.getByRole('banner');
  const nav = () => page.getByRole('navigation', { name: 'Main' });
  const menuButton = () => banner().getByRole('button', { name: 'Menu' });

  /** The height on screen of what is visible of `locator` (0 when hidden). */
  async function heightOf(locator: Locator): Promise<number> {
    if (!(await locator.isVisible())) return 0;
    return (await locator.boundingBox())?.height ?? 0;
  }

  async function seed(api: SignedInSuite['api']) {
    expect((await api.post('/api/v1/namespaces', { key: NS, name: NS_NAME })).status).toBe(200);
    // A second actor, whose name the audit trail's search finds by a part of it.
    const { clientToken } = await createToken(api, { name: 'release-manager', description: 'Ships the weekly release from the CI pipeline of the storefront' });
    const asRelease = bearer(clientToken);
    expect((await api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE' }, asRelease)).status).toBe(200);
    expect((await api.put(`/api/v1/namespaces/${NS}/flags/checkout`, { name: 'Checkout flow', type: 'BOOLEAN_FLAG_TYPE', enabled: true }, asRelease)).status).toBe(200);
    expect((await api.post(`/api/v1/namespaces/${NS}/segments`, { key: 'staff', name: 'Staff', matchType: 'ALL_MATCH_TYPE' })).status).toBe(200);
    await createToken(api, { name: 'storefront-mobile-app-production-ios-and-android', namespaceKey: NS, description: 'The iOS and Android apps, read-only' });
    await eventually(async () => {
      const r = await api.get(`/api/v1/audit/events?namespaceKey=${NS}`);
      expect(r.body.totalCount).toBe(4);
    });
  }

  it('item 14: at 390 px the header and navigation fold behind a Menu button (Escape closes it), taking under 150 px', async () => {
    await page.setViewportSize(PHONE);
    await open(`/namespaces/${NS}/flags`, 'Flags');
    const folded = (await heightOf(banner())) + (await heightOf(nav()));
    expect({ folded, under150: folded < 150 }).toEqual({ folded, under150: true });
    // The page's heading is near the top: the first screen is the page, not the menu.
    expect((await page.getByRole('heading', { name: 'Flags', level: 1 }).boundingBox())!.y).toBeLessThan(160);

    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(await nav().getByRole('link', { name: 'Segments' }).isVisible()).toBe(false);
    await menuButton().click();
    expect(await menuButton().getAttribute('aria-expanded')).toBe('true');
    await nav().getByRole('link', { name: 'Segments' }).waitFor();
    await page.getByLabel('Namespace', { exact: true }).waitFor();
    await banner().getByRole('button', { name: 'Sign out' }).waitFor();
    // Escape from inside the menu folds it and gives focus back to its button.
    await nav().getByRole('link', { name: 'Audit trail' }).focus();
    await page.keyboard.press('Escape');
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(await nav().getByRole('link', { name: 'Segments' }).isVisible()).toBe(false);
    expect(await isFocused(menuButton())).toBe(true);
    // A link in it leads to its page and folds it.
    await menuButton().click();
    await nav().getByRole('link', { name: 'Segments' }).click();
    await page.getByRole('heading', { name: 'Segments', level: 1 }).waitFor();
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');

    // Wide, there is no Menu button and the navigation is always there.
    await page.setViewportSize(DESKTOP);
    expect(await menuButton().isVisible()).toBe(false);
    await nav().getByRole('link', { name: 'Flags' }).waitFor();
  });

  it('item 14: the static tokens table stacks at 390 px instead of scrolling', async () => {
    await page.setViewportSize(PHONE);
    await open('/settings/tokens', 'Static tokens');
    const wrap = page.locator('main .table-wrap');
    await wrap.getByText('storefront-mobile-app-production-ios-and-android').waitFor();
    const scrolls = await wrap.evaluate((e) => (e as unknown as InPageElement).scrollWidth - (e as unknown as InPageElement).clientWidth);
    expect({ scrolls }).toEqual({ scrolls: 0 });
    // Each token's Delete is on screen.
    for (const del of await wrap.getByRole('button', { name: /^Delete/ }).all()) {
      const b = (await del.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
  });

  it('item 14: at 1440 px the namespace switcher shows its whole choice, a long name and its key', async () => {
    await open(`/namespaces/${NS}/flags`, 'Flags');
    const switcher = page.getByLabel('Namespace', { exact: true });
    // The chosen option's text, set in the select's font, against the room the select gives it (less its arrow).
    const fit = await switcher.evaluate((s) => {
      const w = globalThis as unknown as InPage;
      const select = s as unknown as InPageElement;
      const probe = w.document.createElement('span');
      const style = w.getComputedStyle(select);
      Object.assign(probe.style, { font: style.font, position: 'absolute', visibility: 'hidden', whiteSpace: 'pre' });
      (probe as unknown as { textContent: string }).textContent = select.selectedOptions[0].textContent ?? '';
      w.document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      const room = select.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return { text: Math.ceil(text), room: Math.floor(room) };
    });
    expect({ ...fit, fits: fit.text <= fit.room }).toEqual({ ...fit, fits: true });
  });

  it('item 18: the audit trail’s actor search matches part of a name, and the filters survive a reload', async () => {
    // The API: `actorContains` matches a part, any case; `actor` still matches only the whole value.
    expect((await ui.api.get(`/api/v1/audit/events?namespaceKey=${NS}&actorContains=RELEASE`)).body.totalCount).toBe(2);
    expect((await ui.api.get(`/api/v1/audit/events?namespaceKey=${NS}&actor=release`)).body.totalCount).toBe(0);
    expect((await ui.api.get(`/api/v1/audit/events?namespaceKey=${NS}&actor=release-manager`)).body.totalCount).toBe(2);

    await open(`/namespaces/${NS}/audit`, 'Audit trail');
    await page.getByText('1–4 of 4 changes').waitFor();
    await page.getByLabel('Actor').fill('release');
    await page.getByText('1–2 of 2 changes').waitFor();
    await page.getByLabel('Type').selectOption('flag');
    await page.getByLabel('Action').selectOption('updated');
    await page.getByText('1–1 of 1 changes').or(page.getByText('1–1 of 1 change')).waitFor();
    await page.waitForURL(/[?&]actor=release(&|$)/);
    expect(new URL(page.url().replace('#/', '')).searchParams.get('type')).toBe('flag');

    await page.reload();
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    expect(await page.getByLabel('Actor').inputValue()).toBe('release');
    expect(await page.getByLabel('Type').inputValue()).toBe('flag');
    expect(await page.getByLabel('Action').inputValue()).toBe('updated');
    await page.getByText('1–1 of 1 changes').or(page.getByText('1–1 of 1 change')).waitFor();
    expect(await page.locator('.audit-what').allTextContents()).toEqual(['Flag checkout updated']);
  });

  it('item 19: the palette offers actions: a new flag, a new segment, and the flag on screen in the console', async () => {
    const palette = () => page.getByRole('dialog', { name: 'Go to' });
    const actions = () => palette().getByRole('group', { name: 'Actions' });
    await open(`/namespaces/${NS}/flags/checkout`, 'Checkout flow');
    await page.keyboard.press('Control+K');
    await palette().getByRole('combobox').fill('new');
    await actions().getByRole('option', { name: /New flag/ }).waitFor();
    await actions().getByRole('option', { name: /New segment/ }).waitFor();
    await palette().getByRole('combobox').fill('console');
    await actions().getByRole('option', { name: /checkout in the console/ }).click();
    await page.getByRole('heading', { name: 'Console', level: 1 }).waitFor();
    expect(page.url()).toBe(`${fp.url}/#/namespaces/${NS}/console?flag=checkout`);

    await page.keyboard.press('Control+K');
    await palette().getByRole('combobox').fill('new seg');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New segment', level: 1 }).waitFor();
    expect(page.url()).toBe(`${fp.url}/#/namespaces/${NS}/create/segment`);
    // Off a flag's page there is no flag to evaluate.
    await page.keyboard.press('Control+K');
    await palette().getByRole('combobox').fill('in the console');
    await palette().getByText('No match for “in the console”').waitFor();
    await page.keyboard.press('Escape');
  });

  it('item 20: in the dark theme a dialog’s backdrop dims the page, and a disabled button differs from an enabled one by more than opacity', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await open('/namespaces', 'Namespaces');
    await page.locator('html[data-theme="dark"]').waitFor();
    await page.getByRole('button', { name: 'New namespace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New namespace' });
    await dialog.waitFor();
    const colours = await dialog.evaluate((d) => {
      const w = globalThis as unknown as InPage;
      const backdrop = w.getComputedStyle(d as unknown as InPageElement, '::backdrop').backgroundColor;
      const body = w.getComputedStyle(w.document.body).backgroundColor;
      const surface = w.getComputedStyle(w.document.querySelector('.sidenav')).backgroundColor;
      return { backdrop, body, surface };
    });
    const backdrop = rgba(colours.backdrop);
    // See-through, so the page shows, and darker than the page under it by far: a dimming colour, not a tint.
    expect(backdrop[3]).toBeGreaterThan(0.3);
    expect(backdrop[3]).toBeLessThan(1);
    for (const under of [colours.body, colours.surface]) {
      const before = luminance(rgba(under));
      const after = luminance(composite(backdrop, rgba(under)));
      expect({ under, dimmed: after <= before * 0.5 }).toEqual({ under, dimmed: true });
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Buttons of each kind, enabled and disabled, in the page's own styles.
    const styles = await page.evaluate(() => {
      const w = globalThis as unknown as InPage;
      const main = w.document.querySelector('main');
      main.insertAdjacentHTML(
        'beforeend',
        '<div id="g6-buttons"><button>Plain</button><button disabled>Plain</button><button class="primary">Primary</button>' +
          '<button class="primary" disabled>Primary</button><button class="danger">Danger</button><button class="danger" disabled>Danger</button></div>',
      );
      const buttons = (w.document.querySelector('#g6-buttons') as unknown as { children: InPageElement[] }).children;
      const read = (b: InPageElement) => {
        const s = w.getComputedStyle(b);
        return { background: s.backgroundColor, border: `${s.borderTopStyle} ${s.borderTopColor}`, colour: s.color };
      };
      const out = [0, 2, 4].map((i) => ({ enabled: read(buttons[i]), disabled: read(buttons[i + 1]) }));
      w.document.querySelector('#g6-buttons').remove();
      return out;
    });
    for (const [kind, { enabled, disabled }] of ['plain', 'primary', 'danger'].map((k, i) => [k, styles[i]] as const)) {
      expect({ kind, background: disabled.background !== enabled.background, border: disabled.border !== enabled.border, colour: disabled.colour !== enabled.colour })
        .toEqual({ kind, background: true, border: true, colour: true });
    }
  });

  it('item 22: the navigation’s footer shows the version and links to the API explorer', async () => {
    const version = (await ui.api.get('/meta/info')).body.version as string;
    await open(`/namespaces/${NS}/flags`, 'Flags');
    await nav().getByText(`Flagpole ${version}`).waitFor();
    const explorer = nav().getByRole('link', { name: 'API explorer' });
    const href = await explorer.evaluate((a) => (a as unknown as { href: string }).href);
    expect(href).toBe(`${fp.url}/docs`);
    const docs = await fetch(href);
    expect(docs.status).toBe(200);
  });

  it('fits 1440 and 390 px, light and dark: screenshots of the shell, folded and open, the tokens and the audit trail', async () => {
    await open(`/namespaces/${NS}/flags`, 'Flags');
    await shotsAtEveryWidth(page, SHOTS, 'flags');
    await page.setViewportSize(PHONE);
    await menuButton().click();
    await nav().getByRole('link', { name: 'Segments' }).waitFor();
    await shotsAtEveryWidth(page, SHOTS, 'flags-menu-open');
    await open('/settings/tokens', 'Static tokens');
    await shotsAtEveryWidth(page, SHOTS, 'tokens');
    await open(`/namespaces/${NS}/audit?actor=release`, 'Audit trail');
    await page.getByText('1–2 of 2 changes').waitFor();
    await shotsAtEveryWidth(page, SHOTS, 'audit');
    await open(`/namespaces/${NS}/flags/checkout`, 'Checkout flow');
    await page.keyboard.press('Control+K');
    await page.getByRole('dialog', { name: 'Go to' }).getByRole('combobox').fill('new');
    await shotsAtEveryWidth(page, SHOTS, 'palette-actions');
    await page.keyboard.press('Escape');
  });
});
