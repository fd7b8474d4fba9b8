/**
 * What the UI suites share: the built UI (built here when missing or older than ui/), Debian's Chromium driven by
 * playwright-core (never a downloaded browser), screenshots, and a description block that skips with a clear
 * message when there is no Chromium. `.ci/run` installs Chromium, so CI runs them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { TEST_DIALECT } from '../../support/databases';

export const ROOT = join(__dirname, '..', '..', '..');
export const CHROMIUM = process.env.FLAGPOLE_TEST_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(ROOT, '.tmp', 'ui-screenshots');

/**
 * The browser suites run once, in the SQLite pass: they test the UI, which is the same on every database (the
 * API suites cover the dialects).
 */
export const browserDescribe: jest.Describe = !existsSync(CHROMIUM)
  ? skipWith(`UI browser suite skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`)
  : TEST_DIALECT !== 'sqlite'
    ? describe.skip
    : describe;

function skipWith(message: string): jest.Describe {
  console.warn(message);
  return describe.skip;
}

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((f) => newest(join(path, f))));
}

/** Builds the UI into dist/web with Vite unless it is newer than every file of ui/ (`npm test` alone must work). */
export function buildUiOnce(): void {
  const index = join(ROOT, 'dist', 'web', 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs > newest(join(ROOT, 'ui'))) return;
  // Vite's Node API is ESM-only and Jest's runtime is CommonJS: run its CLI.
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.mts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // No sandbox as root; no background networking: this machine's network is closed to everything but loopback.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Saves a screenshot (the whole page, or the viewport for dialogs) as .tmp/ui-screenshots/<name>.png, for people to look at. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions finished, and without the passing notices that would cover the page's corner.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage, animations: 'disabled', style: '.notices { display: none }' });
}

/** How far the page is wider than its window (0 = no sideways scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}

/**
 * The view as it is at 1440 and 390 px, light and dark, saved as `<dir>/<name>-<width>-<theme>.png` for people to look
 * at; fails when the view scrolls sideways (the shot is taken first, so that it shows why). Leaves the page at
 * 1440 px, light.
 */
export async function shotsAtEveryWidth(page: Page, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.locator(`html[data-theme="${theme}"]`).waitFor();
      const overflow = await horizontalOverflow(page);
      await page.screenshot({ path: join(dir, `${name}-${width}-${theme}.png`), fullPage: true, animations: 'disabled', style: '.notices { display: none }' });
      expect({ name, width, overflow }).toEqual({ name, width, overflow: 0 });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Fails the test on any error the page logs or throws (React warnings included), with the text. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A failed request is logged by Chromium as a console error; the tests provoke some on purpose (a 400).
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/**
 * The test code compiles without the DOM library (it runs in Node); page functions are sent to the browser as source
 * text, so they name its globals through `globalThis` with this type, which compiles away.
 */
type InPage = { document: { activeElement: unknown }; sessionStorage: { getItem(key: string): string | null } };

export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((e) => e === (globalThis as unknown as InPage).document.activeElement);
}

export function sessionItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => (globalThis as unknown as InPage).sessionStorage.getItem(k), key);
}

/** Opens the UI at `url` and signs in on its login page with a static token; resolves on the flags page. */
export async function signInWithToken(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Client token').fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
}

/** Names of what would write: a button, link or switch named like this must not be enabled where writing is denied. */
const WRITES = /^(New |Add |Edit|Delete|Import|Save|Move |Create|Enable )/;

/** The accessible names of the enabled controls of `role` in the page's main area. */
export async function enabledControls(page: Page, role: 'button' | 'link' | 'switch'): Promise<string[]> {
  const names: string[] = [];
  for (const control of await page.locator('main').getByRole(role).all()) {
    if (!(await control.isEnabled())) continue;
    names.push((await control.getAttribute('aria-label')) ?? (await control.innerText()).trim());
  }
  return names;
}

/** Every enabled control in the main area whose name says it writes (switches as `switch <name>`); [] on a read-only page. */
export async function enabledWrites(page: Page): Promise<string[]> {
  const [buttons, links, switches] = [await enabledControls(page, 'button'), await enabledControls(page, 'link'), await enabledControls(page, 'switch')];
  return [...buttons, ...links].filter((n) => WRITES.test(n)).concat(switches.map((n) => `switch ${n}`));
}
