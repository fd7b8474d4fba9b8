/**
 * Issue 43, "a new user's first day without traps", items 7, 8, 9 and 15: what the UI shows a person. In a Berlin
 * browser (UTC+2 in June, UTC+1 in winter), so that local time and UTC differ; with the audit trail stored. A datetime
 * constraint reads in the zone the Times preference chose, named, in the list and in Edit alike; list values
 * (`is one of`, a rule's segments) are separate items, since commas are legal in them; history names rules, variants
 * and segments rather than ids; a list names its zone once, in the column header; keys break only at - _ ,.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-43/g4/.
 */
import type { Locator } from 'playwright-core';
import { eventually } from '../auth/support';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_G4_SHOTS ?? '/tmp/shots-43/g4';
const NS = 'default';
const LONG_KEY = 'eu-staff_premiumcustomersaustria,switzerlandearlyaccess_programme-x';

/** Compiles away: page functions run in the browser (see support/browser). */
interface InPage {
  document: { createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getClientRects(): ArrayLike<{ top: number }> } };
  NodeFilter: { SHOW_TEXT: number };
}
interface TextWalker { nextNode(): { textContent: string | null } | null }

browserDescribe("issue 43: what a person reads (zones, lists, names in history, keys)", () => {
  const ids: { rules: Record<string, string>; variants: Record<string, string> } = { rules: {}, variants: {} };
  const ui = signedInSuite(
    async (api) => {
      const post = async (path: string, body: unknown) => {
        const r = await api.post(`/api/v1/namespaces/${NS}${path}`, body);
        expect(r.status).toBe(200);
        return r.body;
      };
      for (const key of ['internal-staff', 'premium', 'at-users', 'gone-soon', LONG_KEY]) await post('/segments', { key, name: key });
      await post('/segments', { key: 'regions', name: 'Regions' });
      await post('/segments/regions/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'country', operator: 'isoneof', value: '["at,ch","de"]' });
      await post('/segments/regions/constraints', { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'gt', value: '2026-06-01T08:00:00Z' });
      await post('/flags', { key: 'banner', name: 'Banner', type: 'VARIANT_FLAG_TYPE' });
      for (const key of ['blue', 'green']) ids.variants[key] = (await post('/flags/banner/variants', { key })).id;
      ids.rules.both = (await post('/flags/banner/rules', { segmentKeys: ['internal-staff', 'premium'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 })).id;
      ids.rules.at = (await post('/flags/banner/rules', { segmentKey: 'at-users', rank: 2 })).id;
      ids.rules.gone = (await post('/flags/banner/rules', { segmentKey: 'gone-soon', rank: 3 })).id;
      await post(`/flags/banner/rules/${ids.rules.both}/distributions`, { variantId: ids.variants.blue, rollout: 100 });
      expect((await api.put(`/api/v1/namespaces/${NS}/flags/banner/rules/order`, { ruleIds: [ids.rules.at, ids.rules.both, ids.rules.gone] })).status).toBe(200);
      expect((await api.delete(`/api/v1/namespaces/${NS}/flags/banner/rules/${ids.rules.gone}`)).status).toBe(200);
      await post('/flags', { key: LONG_KEY, name: 'Long key' });
      // The trail is written after each change commits.
      await eventually(async () => expect((await api.get(`/api/v1/audit/events?namespaceKey=${NS}&flagKey=banner`)).body.totalCount).toBe(9));
    },
    { env: { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' }, context: { timezoneId: 'Europe/Berlin' } },
  );
  const page = () => ui.page;
  const times = () => page().getByRole('navigation', { name: 'Main' }).getByLabel('Times');
  const dialog = () => page().getByRole('dialog');
  const constraintRow = (property: string) => page().locator('section[aria-labelledby="constraints-heading"] tbody tr').filter({ hasText: property });

  afterEach(async () => {
    // Each test starts in local time, as a new user does.
    if ((await times().count()) > 0 && (await times().inputValue()) !== 'local') await times().selectOption('local');
  });

  it('7. shows a datetime constraint in the zone Times chose, named, in the list and in Edit, and saves the instant meant', async () => {
    await ui.open(`/namespaces/${NS}/segments/regions`);
    expect(await times().inputValue()).toBe('local');
    await constraintRow('signup').getByText('2026-06-01 10:00 (local, UTC+2)').waitFor();
    await constraintRow('signup').getByRole('button', { name: /^Edit/ }).click();
    const local = dialog().getByLabel('Value (local, UTC+2)');
    expect(await local.inputValue()).toBe('2026-06-01T10:00');
    await shotsAtEveryWidth(page(), SHOTS, 'constraint-date-local');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await times().selectOption('utc');
    await constraintRow('signup').getByText('2026-06-01 08:00 UTC').waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'constraints-utc');
    await constraintRow('signup').getByRole('button', { name: /^Edit/ }).click();
    const utc = dialog().getByLabel('Value (UTC)');
    expect(await utc.inputValue()).toBe('2026-06-01T08:00');
    await utc.fill('2026-06-01T09:30');
    await dialog().getByRole('button', { name: 'Save constraint' }).click();
    await constraintRow('signup').getByText('2026-06-01 09:30 UTC').waitFor();
    const stored = (await ui.api.get(`/api/v1/namespaces/${NS}/segments/regions`)).body.constraints.find((c: { property: string }) => c.property === 'signup');
    expect(stored.value).toBe('2026-06-01T09:30:00Z');
  });

  it("8. shows an 'is one of' list as separate values, and a rule's segments in history as separate items", async () => {
    await ui.open(`/namespaces/${NS}/segments/regions`);
    const values = constraintRow('country').getByRole('list', { name: 'Values' }).getByRole('listitem');
    await constraintRow('country').waitFor();
    expect(await values.allTextContents()).toEqual(['at,ch', 'de']);
    await shotsAtEveryWidth(page(), SHOTS, 'constraint-list-values');
    // The question before a delete names the values the same way.
    await constraintRow('country').getByRole('button', { name: /^Delete/ }).click();
    expect(await dialog().getByRole('list', { name: 'Values' }).getByRole('listitem').allTextContents()).toEqual(['at,ch', 'de']);
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await ui.open(`/namespaces/${NS}/flags/banner?view=history`);
    const created = historyItem(/^Rule #1 of flag banner created/);
    const segments = created.getByRole('list', { name: 'segments' }).getByRole('listitem');
    // The names come from the flag, read after the history: wait for them.
    await segments.filter({ hasText: /^premium$/ }).waitFor();
    expect(await segments.allTextContents()).toEqual(['internal-staff', 'premium']);
    expect(await created.innerText()).not.toContain('internal-staff,premium');
  });

  const historyItem = (heading: RegExp): Locator =>
    page().getByRole('list', { name: 'History of flag banner' }).getByRole('listitem').filter({ has: page().locator('.audit-what', { hasText: heading }) });

  it('9. names rules, variants and segments in history: a reorder as the new order, splits by variant, no empty lists', async () => {
    await ui.open(`/namespaces/${NS}/flags/banner?view=history`);
    const reorder = historyItem(/^Rule order of flag banner/);
    await reorder.waitFor();
    const order = reorder.getByRole('list', { name: 'New order of the rules' }).getByRole('listitem');
    await order.filter({ hasText: 'a rule since deleted' }).waitFor();
    expect(await order.allTextContents()).toEqual(['at-users', 'internal-staff and premium', 'a rule since deleted']);
    const reorderText = await reorder.innerText();
    expect(reorderText).not.toContain('not recorded');
    expect(reorderText).not.toContain('rule_ids');
    expect(reorderText).not.toContain(ids.rules.at.slice(0, 8));

    const split = historyItem(/^Distribution/);
    expect(await split.locator('.audit-what').innerText()).toMatch(/^Distribution blue of rule internal-staff and premium created/);
    const splitText = await split.innerText();
    expect(splitText).not.toContain(ids.variants.blue.slice(0, 8));
    expect(splitText).not.toContain(ids.rules.both.slice(0, 8));
    expect(splitText).not.toContain('variant_id');

    const created = historyItem(/^Rule #1 of flag banner created/);
    expect(await created.innerText()).not.toMatch(/distributions/);
    await shotsAtEveryWidth(page(), SHOTS, 'flag-history');
  });

  it("9. names a distribution's variant and rule on the namespace's Audit trail too (the trail's list names its flag)", async () => {
    await ui.open(`/namespaces/${NS}/audit`);
    const split = page().getByRole('listitem').filter({ has: page().locator('.audit-what', { hasText: /^Distribution/ }) }).first();
    await split.locator('.audit-what', { hasText: /internal-staff and premium/ }).waitFor();
    expect(await split.locator('.audit-what').innerText()).toMatch(/^Distribution blue of rule internal-staff and premium/);
    expect(await split.innerText()).not.toContain(ids.variants.blue.slice(0, 8));
  });

  /** Where a key's text breaks lines: the character before each break. */
  const breaksIn = (cell: Locator) =>
    cell.evaluate((el) => {
      const w = globalThis as unknown as InPage;
      const walker = (w.document as unknown as { createTreeWalker(n: unknown, f: number): TextWalker }).createTreeWalker(el, w.NodeFilter.SHOW_TEXT);
      const chars: Array<{ ch: string; top: number }> = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const range = w.document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rects = range.getClientRects();
          if (rects.length > 0) chars.push({ ch: text[i], top: rects[0].top });
        }
      }
      return chars.flatMap((c, i) => (i > 0 && c.top > chars[i - 1].top + 2 ? [chars[i - 1].ch] : []));
    });

  it('15. names the zone once per list, in the column header, and breaks keys only at - _ ,', async () => {
    await ui.open(`/namespaces/${NS}/flags`);
    for (const width of [1440, 390]) {
      await page().setViewportSize({ width, height: 844 });
      const key = page().locator('table.list tbody .key', { hasText: LONG_KEY });
      const breaks = await breaksIn(key);
      // At 390 px the key is wider than the phone: it must break somewhere.
      if (width === 390) expect(breaks.length).toBeGreaterThan(0);
      for (const ch of breaks) expect({ width, before: ch }).toEqual({ width, before: expect.stringMatching(/^[-_,]$/) });
    }
    await page().setViewportSize({ width: 1440, height: 900 });

    const header = page().locator('table.list thead th').filter({ hasText: 'Updated' });
    expect((await header.textContent())!.replace(/[▲▼↕]/g, '').replace(/\s+/g, ' ').trim()).toBe('Updated (local, Europe/Berlin)');
    const updated = page().locator('table.list tbody td.cell-line.nowrap');
    await updated.first().waitFor();
    for (const text of await updated.allInnerTexts()) expect(text.replace(/^Updated\s*/, '')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await times().selectOption('utc');
    await header.filter({ hasText: 'Updated (UTC)' }).waitFor();

    await shotsAtEveryWidth(page(), SHOTS, 'flags-list');
    await ui.open(`/namespaces/${NS}/segments`);
    await page().locator('table.list tbody .key', { hasText: LONG_KEY }).waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'segments-list');
  });
});
