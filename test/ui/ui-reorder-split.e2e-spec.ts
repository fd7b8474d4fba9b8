/**
 * Issue 21, "Reach Flipt's UI": a flag's rules and a boolean flag's rollouts are reordered by dragging, with the
 * mouse and with the keyboard (the ↑/↓ buttons stay, ui-stale-focus covers them), and a rule's split is edited in the
 * rules list itself. In a real browser against a real Flagpole with authentication required; what was saved is read
 * back through the API.
 */
import type { Locator, Request, Response } from 'playwright-core';
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, isFocused, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(90_000);

const SHOTS = process.env.FLAGPOLE_DND_SHOTS ?? '/tmp/shots-dnd';
const THREE = [{ segments: ['everyone'] }, { segments: ['beta'] }, { segments: ['staff'] }];
const ROLLOUTS = [
  { threshold: { percentage: 10, value: true } },
  { segment: { segments: ['beta'], value: true } },
  { segment: { segments: ['staff'], value: false } },
];

browserDescribe('issue 21: drag to reorder, split edited in place', () => {
  const ui = signedInSuite((api) =>
    buildNamespace(api, {
      key: 'shop',
      segments: [{ key: 'everyone' }, { key: 'beta' }, { key: 'staff' }],
      flags: [
        { key: 'by-mouse', variants: [{ key: 'on' }], rules: THREE },
        { key: 'by-keys', variants: [{ key: 'on' }], rules: THREE },
        {
          key: 'colour',
          variants: [{ key: 'control' }, { key: 'blue' }, { key: 'red' }],
          rules: [
            { segments: ['everyone'], distributions: [['control', 50], ['blue', 50]] },
            { segments: ['beta'], distributions: [['control', 50], ['blue', 30], ['red', 20]] },
            { segments: ['staff'], distributions: [['red', 100]] },
          ],
        },
        // What a deleted variant leaves behind: one share below 100 %.
        { key: 'leftover', variants: [{ key: 'control' }], rules: [{ segments: ['everyone'], distributions: [['control', 80]] }] },
        { key: 'toggle-mouse', type: 'BOOLEAN_FLAG_TYPE', rollouts: ROLLOUTS },
        { key: 'toggle-keys', type: 'BOOLEAN_FLAG_TYPE', rollouts: ROLLOUTS },
      ],
    }),
  );
  const page = () => ui.page;
  const section = (what: 'rule' | 'rollout') => page().locator(`section[aria-labelledby="${what}s-heading"]`);
  const handle = (what: 'rule' | 'rollout', n: number) => page().getByRole('button', { name: `Move ${what} ${n}`, exact: true });
  const open = async (flag: string, what: 'rule' | 'rollout') => {
    await ui.open(`/namespaces/shop/flags/${flag}`);
    await handle(what, 3).waitFor();
  };

  /** Rules as their segment, rollouts as "threshold" or their segment: in the order the API has them. */
  const saved = async (flag: string, what: 'rule' | 'rollout') => {
    const body = (await ui.api.get(`/api/v1/namespaces/shop/flags/${flag}/${what}s`)).body as {
      rules: Array<{ segmentKey?: string; threshold?: unknown; segment?: { segmentKey: string } }>;
    };
    return body.rules.map((r) => (what === 'rule' ? r.segmentKey : r.threshold ? 'threshold' : r.segment!.segmentKey));
  };
  /** The same, as the page shows it. */
  const shown = async (what: 'rule' | 'rollout') =>
    (await section(what).locator('.ranked-body').allInnerTexts()).map((t) => (/Threshold/.test(t) ? 'threshold' : t.match(/If\s+([\w-]+)/)?.[1]));
  /** Waits until screen readers were told `text` (dnd-kit's live region, in the list's words). */
  const announced = (text: string) => page().locator('[id^="DndLiveRegion"]').getByText(text, { exact: true }).waitFor({ state: 'attached' });
  /**
   * Focuses item `n`'s handle and presses Space: picked up once screen readers hear where it is (dnd-kit has then
   * measured the list) and dnd-kit listens for the arrow keys, which it starts on a timer after the pick-up: a timer
   * set now runs after that one. A person's next key never comes that fast; the browser's synthetic one may.
   */
  const pickUp = async (what: 'rule' | 'rollout', n: number) => {
    await handle(what, n).focus();
    await page().keyboard.press('Space');
    await section(what).locator('.ranked-item.dragging').waitFor();
    await announced(`${what === 'rule' ? 'Rule' : 'Rollout'} ${n} is over position ${n}.`);
    await page().evaluate(() => new Promise((done) => setTimeout(done)));
  };
  /** Resolves with the answer to the next `PUT …/order`, started before `act`. */
  const orderSaved = async (act: () => Promise<unknown>): Promise<Response> => {
    const answer = page().waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/order'));
    await act();
    return answer;
  };
  /** The writes (method and path) the page sends while `act` runs. */
  const writesDuring = async (act: () => Promise<unknown>): Promise<string[]> => {
    const writes: string[] = [];
    const note = (r: Request) => void (r.method() !== 'GET' && writes.push(`${r.method()} ${new URL(r.url()).pathname}`));
    page().on('request', note);
    try {
      await act();
    } finally {
      page().off('request', note);
    }
    return writes;
  };
  const centre = async (l: Locator) => {
    const box = (await l.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  /** Presses the mouse on the handle of item `from` and lets go a little above item `to`'s handle, moving in steps. */
  const drag = async (what: 'rule' | 'rollout', from: number, to: number, beforeDrop?: () => Promise<unknown>) => {
    // As a person would: the list in view first (the rules are below the variants).
    await section(what).locator('ol.ranked').scrollIntoViewIfNeeded();
    const start = await centre(handle(what, from));
    const end = await centre(handle(what, to));
    await page().mouse.move(start.x, start.y);
    await page().mouse.down();
    await page().mouse.move(start.x, start.y - 10, { steps: 3 });
    await page().mouse.move(end.x, end.y - 8, { steps: 15 });
    await beforeDrop?.();
    await page().mouse.up();
  };

  describe('rules', () => {
    it('moves rule 3 above rule 1 with the mouse, and the server has the new order', async () => {
      await open('by-mouse', 'rule');
      expect(await shown('rule')).toEqual(['everyone', 'beta', 'staff']);
      const answer = await orderSaved(() =>
        drag('rule', 3, 1, async () => {
          // Mid-drag: the dragged card is marked and the others make room for it.
          await section('rule').locator('.ranked-item.dragging').waitFor();
          await page().screenshot({ path: `${SHOTS}/rules-mid-drag.png`, style: '.notices { display: none }' });
        }),
      );
      expect(answer.status()).toBe(200);
      expect(await shown('rule')).toEqual(['staff', 'everyone', 'beta']);
      expect(await saved('by-mouse', 'rule')).toEqual(['staff', 'everyone', 'beta']);
      await page().reload();
      await handle('rule', 3).waitFor();
      expect(await shown('rule')).toEqual(['staff', 'everyone', 'beta']);
      await shotsAtEveryWidth(page(), SHOTS, 'rules-sortable');
    });

    it('moves a rule with the keyboard: Space picks it up, ↑ moves it, Space drops it, and the focus stays on it', async () => {
      await open('by-keys', 'rule');
      const answer = await orderSaved(async () => {
        await pickUp('rule', 3);
        await page().keyboard.press('ArrowUp');
        await announced('Rule 3 is over position 2.');
        await page().keyboard.press('ArrowUp');
        // The page scrolls to show where the rule would go; it is dropped once it is there.
        await announced('Rule 3 is over position 1.');
        await page().keyboard.press('Space');
      });
      expect(answer.status()).toBe(200);
      await announced('Rule 3 was dropped at position 1.');
      expect(await saved('by-keys', 'rule')).toEqual(['staff', 'everyone', 'beta']);
      expect(await shown('rule')).toEqual(['staff', 'everyone', 'beta']);
      // The handle went with its rule, now first, and still has the focus: Space and ↓ move it on.
      await page().waitForFunction(() => {
        const e = (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement;
        return e?.getAttribute('aria-label') === 'Move rule 1';
      });
      expect(await isFocused(handle('rule', 1))).toBe(true);
    });

    it('puts a rule back where it was when Escape ends a keyboard drag, and saves nothing', async () => {
      await open('by-keys', 'rule');
      const before = await saved('by-keys', 'rule');
      const writes = await writesDuring(async () => {
        await pickUp('rule', 2);
        await page().keyboard.press('ArrowDown');
        await announced('Rule 2 is over position 3.');
        await page().keyboard.press('Escape');
        await announced('Moving cancelled: rule 2 stays where it was.');
        await section('rule').locator('.ranked-item.dragging').waitFor({ state: 'detached' });
        await page().waitForTimeout(300);
      });
      expect(writes).toEqual([]);
      expect(await shown('rule')).toEqual(before);
      expect(await saved('by-keys', 'rule')).toEqual(before);
    });
  });

  describe('rollouts', () => {
    it('moves rollout 3 above rollout 1 with the mouse', async () => {
      await open('toggle-mouse', 'rollout');
      expect(await shown('rollout')).toEqual(['threshold', 'beta', 'staff']);
      const answer = await orderSaved(() => drag('rollout', 3, 1));
      expect(answer.status()).toBe(200);
      expect(await saved('toggle-mouse', 'rollout')).toEqual(['staff', 'threshold', 'beta']);
      expect(await shown('rollout')).toEqual(['staff', 'threshold', 'beta']);
      await shotsAtEveryWidth(page(), SHOTS, 'rollouts-sortable');
    });

    it('moves a rollout one place up with the keyboard', async () => {
      await open('toggle-keys', 'rollout');
      const answer = await orderSaved(async () => {
        await pickUp('rollout', 3);
        await page().keyboard.press('ArrowUp');
        await announced('Rollout 3 is over position 2.');
        await page().keyboard.press('Space');
      });
      expect(answer.status()).toBe(200);
      expect(await saved('toggle-keys', 'rollout')).toEqual(['threshold', 'staff', 'beta']);
      expect(await shown('rollout')).toEqual(['threshold', 'staff', 'beta']);
    });
  });

  describe("a rule's split, edited in the list", () => {
    const splits = async () =>
      ((await ui.api.get('/api/v1/namespaces/shop/flags/colour/rules')).body as { rules: Array<{ distributions: Array<{ rollout: number }> }> }).rules.map(
        (r) => r.distributions.map((d) => d.rollout),
      );
    const editor = (n: number) => page().getByRole('form', { name: `Split of rule ${n}` });
    const save = (n: number) => editor(n).getByRole('button', { name: 'Save split' });
    /** Opens rule `n`'s split for editing; resolves with the rule's text as it was shown before. */
    const openSplit = async (n: number) => {
      await open('colour', 'rule');
      const shown = await section('rule').locator('.ranked-body').nth(n - 1).innerText();
      await page().getByRole('button', { name: `Edit split of rule ${n}` }).click();
      await editor(n).waitFor();
      return shown;
    };

    it('changes 50/50 to 70/30 in place: the total follows, Save is enabled at 100 %, and the API has 70/30', async () => {
      await openSplit(1);
      // No dialog: the boxes are in the rule's card, the first one focused.
      expect(await page().getByRole('dialog').count()).toBe(0);
      expect(await isFocused(editor(1).getByLabel('control'))).toBe(true);
      await expect(editor(1).locator('.total').innerText()).resolves.toBe('Total: 100% ✓');

      await editor(1).getByLabel('control').fill('70');
      await expect(editor(1).locator('.total').innerText()).resolves.toBe('Total: 120%');
      expect(await save(1).isDisabled()).toBe(true);
      await editor(1).getByLabel('blue').fill('30');
      await expect(editor(1).locator('.total').innerText()).resolves.toBe('Total: 100% ✓');
      expect(await save(1).isEnabled()).toBe(true);

      await save(1).click();
      await editor(1).waitFor({ state: 'detached' });
      expect(await splits()).toEqual([[70, 30], [50, 30, 20], [100]]);
      const first = section('rule').locator('.ranked-body').first();
      expect(await first.innerText()).toMatch(/control 70%\s*blue 30%/);
      expect(await isFocused(page().getByRole('button', { name: 'Edit split of rule 1' }))).toBe(true);
    });

    it('writes only the shares that changed', async () => {
      await openSplit(2);
      const before = await splits();
      const puts = await writesDuring(async () => {
        await editor(2).getByLabel('control').fill('60');
        await editor(2).getByLabel('blue').fill('20');
        // Enter saves, as in any form.
        await editor(2).getByLabel('blue').press('Enter');
        await editor(2).waitFor({ state: 'detached' });
      });
      expect(await splits()).toEqual([before[0], [60, 20, 20], [100]]);
      expect(puts).toHaveLength(2);
      expect(puts.every((p) => /^PUT .*\/rules\/[^/]+\/distributions\/[^/]+$/.test(p))).toBe(true);
    });

    it('keeps Save disabled at a total of 110 % and says why; Escape puts the split back', async () => {
      const shownBefore = await openSplit(1);
      const before = await splits();
      await editor(1).getByLabel('control').fill('60');
      await editor(1).getByLabel('blue').fill('50');
      await editor(1).locator('.total').getByText('Total: 110%').waitFor();
      expect(await save(1).isDisabled()).toBe(true);
      const why = editor(1).getByText('The percentages must add up to 100% (now 110%).');
      await why.waitFor();
      // The reason is the disabled button's description, for screen readers.
      expect(await save(1).getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
      // Enter does not get round the disabled button.
      await editor(1).getByLabel('blue').press('Enter');
      await shotsAtEveryWidth(page(), SHOTS, 'split-110');

      await editor(1).getByLabel('control').press('Escape');
      await editor(1).waitFor({ state: 'detached' });
      expect(await section('rule').locator('.ranked-body').first().innerText()).toBe(shownBefore);
      expect(await isFocused(page().getByRole('button', { name: 'Edit split of rule 1' }))).toBe(true);
      expect(await splits()).toEqual(before);
    });

    it('gives the focus to the rule\'s Edit button when a saved split leaves nothing to split', async () => {
      await ui.open('/namespaces/shop/flags/leftover');
      await page().getByRole('button', { name: 'Edit split of rule 1' }).click();
      await editor(1).getByLabel('control').fill('100');
      await save(1).click();
      await editor(1).waitFor({ state: 'detached' });
      // One share at 100 %: no "Edit split" any more, and the focus did not fall to the page.
      expect(await page().getByRole('button', { name: 'Edit split of rule 1' }).count()).toBe(0);
      expect(await isFocused(page().getByRole('button', { name: 'Edit rule 1' }))).toBe(true);
    });

    it('offers no split editor for a rule that serves one variant at 100 %', async () => {
      await open('colour', 'rule');
      expect(await page().getByRole('button', { name: /^Edit split of rule/ }).count()).toBe(2);
      expect(await page().getByRole('button', { name: 'Edit split of rule 3' }).count()).toBe(0);
    });
  });
});
