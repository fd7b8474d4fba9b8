/**
 * Issue 21, item 4: the pages fit a phone. At a 390 px window (an iPhone's) in a real browser against a real Flagpole
 * holding long keys and names, no page scrolls sideways; "Delete flag" and "Delete segment" are wholly on screen;
 * a rule's or rollout's text keeps room beside its buttons instead of wrapping a word per line; and the rule,
 * variant and constraint dialogs open inside the window without scrolling sideways themselves. Screenshots of the
 * flag and segment pages at 1440 and 390 px, light and dark, go to /tmp/shots-narrow/ (FLAGPOLE_NARROW_SHOTS) for
 * people to look at.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { createToken } from '../auth/support';
import { buildNamespace, type ConstraintSpec } from '../evaluation/fixtures';
import type { RunningFlagpole } from '../support/flagpole';
import { browserDescribe, horizontalOverflow, shotsAtEveryWidth } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_NARROW_SHOTS ?? '/tmp/shots-narrow';
const PHONE = { width: 390, height: 844 };

const NS = 'mobile-storefront-experiments';
// Snake case as well as kebab case: a key with no hyphen has nowhere a line may break.
const VARIANT_FLAG = 'checkout_experience_redesign_holiday_season_2025';
const VARIANT_FLAG_NAME = 'Checkout experience redesign for the holiday season';
const BOOLEAN_FLAG = 'new-navigation-bar-for-mobile-and-desktop-clients';
const BOOLEAN_FLAG_NAME = 'New navigation bar for mobile and desktop clients';
const SEGMENT = 'enterprise-customers-in-the-european-union';
/** Segments and variants are named after their keys, in words. */
const nameOf = (key: string) => key.replace(/[-_]/g, ' ');
const SEGMENT_NAME = nameOf(SEGMENT);
const SEGMENTS = [SEGMENT, 'beta-testers-who-opted-into-early-access', 'internal_staff_and_contractor_accounts', 'mobile-app-users-on-the-latest-release'];
const TOKEN = 'storefront-mobile-app-production-ios-and-android';
const VARIANTS = ['control-with-the-current-checkout', 'treatment-one-page-checkout-with-wallets', 'treatment_two_step_express_checkout'];

/** A JSON attachment of the kind teams really send: nested, and long on one line. */
const attachment = (variant: string) =>
  JSON.stringify({
    variant,
    layout: { steps: variant.length % 3, wallets: ['apple-pay', 'google-pay', 'paypal-express'] },
    copy: { headline: 'Finish your order in seconds with saved payment details' },
  });

const CONSTRAINTS: Array<ConstraintSpec & { description: string }> = [
  {
    type: 'STRING_COMPARISON_TYPE',
    property: 'organisation_billing_country_code_iso_3166',
    operator: 'isoneof',
    value: '["DE","FR","NL","BE","LU","AT","IE","IT","ES","PT","FI","SE","DK","PL"]',
    description: 'Billing address in the European Union, by the country on the contract',
  },
  {
    type: 'NUMBER_COMPARISON_TYPE',
    property: 'number_of_seats_purchased_in_current_contract',
    operator: 'gte',
    value: '250',
    description: 'Enterprise tier starts at 250 seats',
  },
  { type: 'DATETIME_COMPARISON_TYPE', property: 'contract_renewal_date_after_negotiation', operator: 'gt', value: '2025-01-01T00:00:00Z', description: '' },
  {
    type: 'STRING_COMPARISON_TYPE',
    property: 'deployment_cluster_hostname',
    operator: 'suffix',
    value: 'enterprise-europe-west-production-cluster.example.com',
    description: 'Hosted in the EU region',
  },
];

/** Compiles away: page functions run in the browser, and the test code has no DOM library (see support/browser). */
interface InPageElement {
  scrollWidth: number;
  clientWidth: number;
  tagName: string;
  className: unknown;
  textContent: string | null;
  parentElement: InPageElement | null;
  querySelectorAll(selector: string): Iterable<InPageElement>;
  getBoundingClientRect(): { right: number };
}
type InPage = { getComputedStyle(e: InPageElement): { position: string; overflowX: string } };

/**
 * The elements in `root` that stick out of their parent on the right: a chip past its fieldset, a rule past its card.
 * What is positioned, or inside a box that scrolls or clips, is left out: it widens nothing.
 */
function overhanging(root: Locator): Promise<string[]> {
  return root.evaluate((r) => {
    const w = globalThis as unknown as InPage;
    const found: string[] = [];
    for (const e of (r as unknown as InPageElement).querySelectorAll('*')) {
      const parent = e.parentElement!;
      if (['absolute', 'fixed'].includes(w.getComputedStyle(e).position) || w.getComputedStyle(parent).overflowX !== 'visible') continue;
      if (e.getBoundingClientRect().right > parent.getBoundingClientRect().right + 1) {
        found.push(`${e.tagName.toLowerCase()}.${String(e.className)} "${(e.textContent ?? '').slice(0, 40)}"`);
      }
    }
    return found;
  });
}

browserDescribe('issue 21 item 4: the flag and segment pages at 390 px', () => {
  const ui = signedInSuite(seedLongNames, { context: { viewport: PHONE } });
  let fp: RunningFlagpole;
  let page: Page;
  const open = async (hash: string, heading: string) => {
    await page.goto(`${fp.url}/#${hash}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const dialog = () => page.getByRole('dialog');
  /** The window with a dialog open, for people to look at. */
  const dialogShot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled', style: '.notices { display: none }' });

  /** Where `locator` is, failing when it is not on the page. */
  async function box(locator: Locator) {
    const b = await locator.boundingBox();
    if (!b) throw new Error(`${locator} has no box`);
    return b;
  }

  /** The open dialog's left and right edges and how far its content is wider than it: all inside a phone. */
  async function expectDialogInside(title: string) {
    await dialog().getByRole('heading', { name: title }).waitFor();
    const b = await box(dialog());
    const inside = await dialog().evaluate((e) => (e as unknown as InPageElement).scrollWidth - (e as unknown as InPageElement).clientWidth);
    expect({ title, left: b.x >= 0, right: b.x + b.width <= PHONE.width, inside }).toEqual({ title, left: true, right: true, inside: 0 });
    expect({ title, overhanging: await overhanging(dialog()) }).toEqual({ title, overhanging: [] });
    // Its buttons too: the one that saves must be reachable.
    for (const button of await dialog().getByRole('button').all()) {
      const bb = await box(button);
      expect({ title, button: await button.innerText(), right: bb.x + bb.width <= PHONE.width }).toMatchObject({ right: true });
    }
  }

  async function expectFullyInView(locator: Locator) {
    const b = await box(locator);
    expect({ what: String(locator), left: b.x >= 0, right: b.x + b.width <= PHONE.width }).toEqual({ what: String(locator), left: true, right: true });
  }

  /** Every rule's or rollout's text gets at least 200 px: a phrase per line, not a word. */
  async function expectRankedTextRoom(count: number) {
    const bodies = page.locator('li.ranked-item .ranked-body');
    expect(await bodies.count()).toBe(count);
    for (const body of await bodies.all()) {
      const b = await box(body);
      expect({ text: (await body.innerText()).slice(0, 40), wide: b.width >= 200, inside: b.x + b.width <= PHONE.width }).toMatchObject({ wide: true, inside: true });
    }
  }

  beforeAll(() => {
    mkdirSync(SHOTS, { recursive: true });
    ({ fp, page } = ui);
  });
  beforeEach(async () => {
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('scrolls no page sideways', async () => {
    const main = () => page.locator('main');
    const button = (name: string) => () => page.getByRole('button', { name }).waitFor();
    // Each page with what shows that it has loaded its list or answer: the heading comes first.
    const pages: Array<[string, string, () => Promise<unknown>]> = [
      [`/namespaces/${NS}/flags`, 'Flags', () => main().getByRole('link', { name: VARIANT_FLAG_NAME }).waitFor()],
      [`/namespaces/${NS}/flags/${VARIANT_FLAG}`, VARIANT_FLAG_NAME, button('Edit rule 3')],
      [`/namespaces/${NS}/flags/${BOOLEAN_FLAG}`, BOOLEAN_FLAG_NAME, button('Edit rollout 3')],
      [`/namespaces/${NS}/segments`, 'Segments', () => main().getByRole('link', { name: SEGMENT_NAME }).waitFor()],
      [`/namespaces/${NS}/segments/${SEGMENT}`, SEGMENT_NAME, button('Edit constraint on deployment_cluster_hostname')],
      [`/namespaces/${NS}/console`, 'Console', async () => {
        // With an answer: the served variant's attachment is the widest thing the console shows.
        await page.getByLabel('Flag key').fill(VARIANT_FLAG);
        await page.getByLabel('Entity ID').fill('customer-0042-with-a-long-entity-identifier');
        await page.getByRole('button', { name: 'Evaluate' }).click();
        await page.getByRole('heading', { name: 'Result' }).waitFor();
      }],
      ['/settings/tokens', 'Static tokens', () => main().getByText(TOKEN).waitFor()],
      ['/namespaces', 'Namespaces', () => main().getByRole('link', { name: NS, exact: true }).waitFor()],
    ];
    const overflow: Record<string, number> = {};
    for (const [hash, heading, loaded] of pages) {
      await open(hash, heading);
      await loaded();
      overflow[hash] = await horizontalOverflow(page);
    }
    expect(overflow).toEqual(Object.fromEntries(pages.map(([hash]) => [hash, 0])));
  });

  it('shows a variant flag whole: Delete flag on screen, rules readable, its dialogs inside the window', async () => {
    await open(`/namespaces/${NS}/flags/${VARIANT_FLAG}`, VARIANT_FLAG_NAME);
    await page.getByRole('button', { name: 'Edit rule 3' }).waitFor();
    await expectFullyInView(page.getByRole('button', { name: 'Delete flag' }));
    await expectRankedTextRoom(3);
    expect(await overhanging(page.locator('main'))).toEqual([]);
    for (const name of ['Move rule 2 up', 'Edit rule 2', 'Delete rule 3']) await expectFullyInView(page.getByRole('button', { name }));

    await page.getByRole('button', { name: 'Edit rule 1' }).click();
    await expectDialogInside('Edit rule');
    // A percentage split over three variants: the split's fields too.
    expect(await dialog().getByRole('radio', { name: 'a percentage split' }).isChecked()).toBe(true);
    await dialogShot('rule-dialog-390');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expectDialogInside('New rule');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: `Edit variant ${VARIANTS[1]}` }).click();
    await expectDialogInside(`Edit variant ${VARIANTS[1]}`);
    await dialogShot('variant-dialog-390');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete flag' }).click();
    await expectDialogInside(`Delete flag ${VARIANT_FLAG}?`);
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await shotsAtEveryWidth(page, SHOTS, 'variant-flag');
  });

  it('shows a boolean flag whole: its rollouts readable', async () => {
    await open(`/namespaces/${NS}/flags/${BOOLEAN_FLAG}`, BOOLEAN_FLAG_NAME);
    await page.getByRole('button', { name: 'Edit rollout 3' }).waitFor();
    await expectFullyInView(page.getByRole('button', { name: 'Delete flag' }));
    await expectRankedTextRoom(3);
    expect(await overhanging(page.locator('main'))).toEqual([]);
    await page.getByRole('button', { name: 'Edit rollout 1' }).click();
    await expectDialogInside('Edit rollout');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await shotsAtEveryWidth(page, SHOTS, 'boolean-flag');
  });

  it('shows a segment whole: Delete segment on screen, the constraint dialog inside the window', async () => {
    await open(`/namespaces/${NS}/segments/${SEGMENT}`, SEGMENT_NAME);
    await page.getByRole('button', { name: 'Edit constraint on deployment_cluster_hostname' }).waitFor();
    await expectFullyInView(page.getByRole('button', { name: 'Delete segment' }));
    expect(await overhanging(page.locator('main'))).toEqual([]);

    await page.getByRole('button', { name: 'Edit constraint on organisation_billing_country_code_iso_3166' }).click();
    await expectDialogInside('Edit constraint on organisation_billing_country_code_iso_3166');
    await dialogShot('constraint-dialog-390');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add constraint' }).click();
    await expectDialogInside('New constraint');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await shotsAtEveryWidth(page, SHOTS, 'segment');
  });
});

/** A namespace of long keys and names: a variant flag, a boolean flag, segments with constraints, and a token. */
async function seedLongNames(api: SignedInSuite['api']): Promise<void> {
  await buildNamespace(api, {
    key: NS,
    segments: SEGMENTS.map((key, i) => ({
      key,
      name: nameOf(key),
      description: 'Customers we want to try the new checkout on before everyone else gets it',
      matchType: i === 0 ? 'ALL_MATCH_TYPE' : 'ANY_MATCH_TYPE',
      constraints: i === 0 ? CONSTRAINTS : [],
    })),
    flags: [
      {
        key: VARIANT_FLAG,
        name: VARIANT_FLAG_NAME,
        description: 'Which checkout each customer sees while we measure conversion over the holiday season',
        variants: VARIANTS.map((key) => ({ key, name: nameOf(key), attachment: attachment(key) })),
        defaultVariant: VARIANTS[0],
        rules: [
          { segments: SEGMENTS.slice(0, 3), operator: 'AND_SEGMENT_OPERATOR', distributions: [[VARIANTS[0], 34], [VARIANTS[1], 33], [VARIANTS[2], 33]] },
          { segments: [SEGMENTS[3], SEGMENTS[1]], distributions: [[VARIANTS[0], 50], [VARIANTS[1], 30], [VARIANTS[2], 20]] },
          { segments: [SEGMENTS[2]], distributions: [[VARIANTS[2], 100]] },
        ],
      },
      {
        key: BOOLEAN_FLAG,
        name: BOOLEAN_FLAG_NAME,
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [
          { description: 'Staff and beta testers first', segment: { segments: [SEGMENTS[2], SEGMENTS[1]], value: true } },
          { segment: { segments: [SEGMENTS[0], SEGMENTS[3]], operator: 'AND_SEGMENT_OPERATOR', value: false } },
          { description: 'A quarter of everyone else', threshold: { percentage: 25, value: true } },
        ],
      },
    ],
  });
  await createToken(api, { name: TOKEN, description: 'Used by the mobile apps to evaluate flags at start-up' });
}
