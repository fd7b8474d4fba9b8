/**
 * The console's additions of issue 21, in a real browser against a real Flagpole with authentication required:
 *  - the context as pasted JSON (a "Rows | JSON" choice that carries the context both ways; numbers and booleans
 *    become strings; nested values and broken JSON are refused under the box and block Evaluate);
 *  - the rule (variant flag) or rollout (boolean flag) that matched, named from the answer's segment keys, and an
 *    honest "does not name the rollout" when the answer cannot tell;
 *  - "Copy as" Node code for Flipt's SDK, OpenFeature with Flipt's provider and OpenFeature with the OFREP provider:
 *    each copied program is run with node against this server and must print what the console showed.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-console/ (FLAGPOLE_CONSOLE_SHOTS).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { BOOTSTRAP } from '../auth/support';
import { buildNamespace } from '../evaluation/fixtures';
import type { RunningFlagpole } from '../support/flagpole';
import { browserDescribe, ROOT, shotsAtEveryWidth } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(120_000);

const SHOTS = process.env.FLAGPOLE_CONSOLE_SHOTS ?? '/tmp/shots-console';
/** Inside the repository, so that the programs' imports resolve from its node_modules. */
const PROGRAMS = join(ROOT, '.tmp', 'console-snippets');
/** Every character a string literal could trip on: quotes, a backtick, `${`, a backslash. */
const TRICKY = 'R&D "core" it\'s ${HOME} `x` \\ end';

type InPage = { navigator: { clipboard: { readText(): Promise<string> } } };

browserDescribe('the console: JSON context, matched rule, copy as code', () => {
  // Clipboard permissions so that the copies can be read back as the user would paste them.
  const ui = signedInSuite(seedConsole, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  let fp: RunningFlagpole;
  let page: Page;
  beforeAll(() => {
    ({ fp, page } = ui);
  });

  const text = (testId: string) => page.getByTestId(testId).textContent();
  const jsonBox = () => page.getByLabel('Context (JSON)');
  const choose = (view: 'Rows' | 'JSON') => page.getByRole('radio', { name: view, exact: true }).check();
  const evaluateButton = () => page.getByRole('button', { name: 'Evaluate' });

  async function start(flagKey: string, protocol: 'Flagpole API' | 'OFREP' = 'Flagpole API') {
    // Loaded afresh: going to the address it is already at would keep the last test's input.
    await page.goto(`${fp.url}/#/namespaces/shop/console`);
    await page.reload();
    await page.getByRole('heading', { name: 'Console', level: 1 }).waitFor();
    await page.getByRole('radio', { name: protocol }).check();
    await page.getByLabel('Flag key').fill(flagKey);
    await page.getByLabel('Entity ID').fill('user-42');
  }

  async function fillRows(context: Record<string, string>) {
    for (const [i, [key, value]] of Object.entries(context).entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Add context entry' }).click();
      await page.getByLabel(`Context key ${i + 1}`).fill(key);
      await page.getByLabel(`Context value ${i + 1}`).fill(value);
    }
  }

  /** Evaluates; resolves when this answer is on the card (evaluating clears the card first). */
  async function evaluate(testId = 'result-reason') {
    await evaluateButton().click();
    await page.getByTestId(testId).waitFor();
  }

  const rows = async () => {
    const out: Array<[string, string]> = [];
    for (let i = 1; (await page.getByLabel(`Context key ${i}`).count()) > 0; i++) {
      out.push([await page.getByLabel(`Context key ${i}`).inputValue(), await page.getByLabel(`Context value ${i}`).inputValue()]);
    }
    return out;
  };


  describe('the context as JSON', () => {
    it('carries the rows over to JSON and back, numbers and booleans turned into strings, and evaluates either way', async () => {
      await start('checkout');
      await fillRows({ plan: 'pro', age: '30' });
      await choose('JSON');
      expect(JSON.parse(await jsonBox().inputValue())).toEqual({ plan: 'pro', age: '30' });

      await jsonBox().fill('{"plan": "pro", "age": 12, "beta": false}');
      await choose('Rows');
      expect(await rows()).toEqual([['plan', 'pro'], ['age', '12'], ['beta', 'false']]);
      await evaluate();
      // pro and not an adult, not beta: rule 3.
      expect(await text('result-variant')).toBe('basic');

      await choose('JSON');
      await jsonBox().fill('{"plan": "pro", "age": 30}');
      await evaluate();
      expect(await text('result-variant')).toBe('treatment');
      await shotsAtEveryWidth(page, SHOTS, 'console-json');
    });

    it('refuses nested values, non-objects and broken JSON under the box, and blocks Evaluate and the copies', async () => {
      await start('checkout');
      await choose('JSON');
      const cases: Array<[string, RegExp]> = [
        ['{"plan": {"tier": "pro"}}', /"plan" is an object: context values are strings/],
        ['{"tags": ["a", "b"]}', /"tags" is an array/],
        ['{"plan": null}', /"plan" is null/],
        ['["pro"]', /must be a JSON object such as \{"plan": "pro"\}, not an array/],
        ['{"plan": "pro",}', /^Not valid JSON: .*JSON.*\. Fix it to evaluate or to go back to rows\.$/],
      ];
      for (const [json, message] of cases) {
        await jsonBox().fill(json);
        const error = page.locator('.context-input .field-error');
        expect(await error.textContent()).toMatch(message);
        expect(await jsonBox().getAttribute('aria-invalid')).toBe('true');
        expect(await evaluateButton().isDisabled()).toBe(true);
        expect(await page.getByRole('radio', { name: 'Rows', exact: true }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Copy as curl' }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Copy as Node (Flipt SDK)' }).isDisabled()).toBe(true);
      }
      // Enter in the flag key would submit the form: still nothing is evaluated.
      await page.getByLabel('Flag key').press('Enter');
      expect(await page.getByTestId('result-reason').count()).toBe(0);
      await shotsAtEveryWidth(page, SHOTS, 'console-json-error');

      await jsonBox().fill('');
      expect(await evaluateButton().isEnabled()).toBe(true);
      await choose('Rows');
      expect(await rows()).toEqual([['', '']]);
    });
  });

  describe('the rule or rollout that matched', () => {
    const variantCases: Array<[Record<string, string>, string, RegExp]> = [
      [{ plan: 'pro', age: '30' }, 'treatment', /^Matched rule 1: if segments pro and adults$/],
      [{ beta: 'true' }, 'preview', /^Matched rule 2: if segments beta or staff$/],
      [{ plan: 'pro', age: '12' }, 'basic', /^Matched rule 3: if segment pro$/],
    ];

    it.each(variantCases)('a variant match with %j names its rule by rank', async (context, variant, rule) => {
      await start('checkout');
      await fillRows(context);
      await evaluate('result-rule');
      expect(await text('result-variant')).toBe(variant);
      expect((await page.getByTestId('result-rule').innerText()).replace(/\s+/g, ' ')).toMatch(rule);
      await page.getByRole('link', { name: "See it on the flag's page" }).waitFor();
      if (variant === 'preview') await shotsAtEveryWidth(page, SHOTS, 'console-matched-rule');
    });

    it('names no rule when nothing matched, and names it from OFREP metadata too', async () => {
      await start('checkout');
      await fillRows({ plan: 'free' });
      await evaluate();
      expect(await text('result-variant')).toBe('control');
      expect(await page.getByTestId('result-rule').count()).toBe(0);

      await start('checkout', 'OFREP');
      await fillRows({ beta: 'true' });
      await evaluate('result-rule');
      expect(await text('result-value')).toBe('"preview"');
      expect((await page.getByTestId('result-rule').innerText()).replace(/\s+/g, ' ')).toMatch(/^Matched rule 2: /);
    });

    it('names a boolean rollout only when the answer singles it out, and says so when it does not', async () => {
      await start('dark-mode');
      await fillRows({ plan: 'pro' });
      await evaluate('result-rollout');
      expect(await text('result-enabled')).toBe('true');
      expect((await page.getByTestId('result-rollout').innerText()).replace(/\s+/g, ' ')).toMatch(/^Matched rollout 1: if segment pro then true$/);

      await start('dark-mode');
      await evaluate('result-rollout');
      expect(await text('result-enabled')).toBe('false');
      expect((await page.getByTestId('result-rollout').innerText()).replace(/\s+/g, ' ')).toBe('Matched rollout 2: 100% of entities get false');
      await shotsAtEveryWidth(page, SHOTS, 'console-matched-rollout');

      await start('banner');
      await evaluate('result-rollout');
      expect(await text('result-enabled')).toBe('true');
      expect(await text('result-rollout')).toMatch(/^The boolean answer does not name the rollout: any of the 2 percentage rollouts that serve true/);
    });
  });

  describe('copy as code', () => {
    const COPIES = ['Copy as Node (Flipt SDK)', 'Copy as OpenFeature (Flipt)', 'Copy as OpenFeature (OFREP)'];

    /** Copies with the button `label` and reads the clipboard back, as a user would paste it. */
    async function copy(label: string): Promise<string> {
      const group = page.getByRole('group', { name: 'Copy the request as code' });
      // By position: the button is renamed "Copied" for a moment, and an earlier one may still be.
      await group.getByRole('button', { name: label }).waitFor();
      const names = await group.getByRole('button').allInnerTexts();
      const button = group.getByRole('button').nth(names.indexOf(label));
      await button.click();
      await button.filter({ hasText: 'Copied' }).waitFor();
      return page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText());
    }

    /** Runs a copied program with node from the repository, with `env`; its output, or its failure. */
    async function run(name: string, code: string, env: Record<string, string>) {
      mkdirSync(PROGRAMS, { recursive: true });
      const file = join(PROGRAMS, `${name}.mjs`);
      writeFileSync(file, code);
      // Asynchronously: the server answering it runs in this process.
      return promisify(execFile)(process.execPath, [file], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 20_000 }).then(
        ({ stdout }) => ({ ok: true, stdout: stdout.trim() }),
        (e: { stdout?: string; stderr?: string }) => ({ ok: false, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
    }

    it('copies programs that print the variant the console showed, with typed values kept exactly as typed', async () => {
      await start('checkout');
      await choose('JSON');
      // Only the staff segment matches, and only with the team exactly as typed: quotes, backtick, ${, backslash.
      await jsonBox().fill(JSON.stringify({ team: TRICKY, age: 12, beta: false }));
      await evaluate('result-rule');
      expect(await text('result-variant')).toBe('preview');

      for (const [i, label] of COPIES.entries()) {
        const code = await copy(label);
        expect(code).toContain('process.env.FLAGPOLE_TOKEN');
        expect(code).not.toContain(BOOTSTRAP);
        const out = await run(`variant-${i}`, code, { FLAGPOLE_TOKEN: BOOTSTRAP });
        expect({ label, ...out }).toEqual({ label, ok: true, stdout: expect.stringMatching(/^preview (MATCH_EVALUATION_REASON|TARGETING_MATCH)$/) });
      }
      // Without the token the server refuses the same program: it is the variable that carries the token.
      const denied = await run('variant-no-token', await copy(COPIES[0]), {});
      expect(denied).toEqual({ ok: false, stdout: expect.stringContaining('request was not authenticated') });
    });

    it('copies programs that print the enabled value the console showed for a boolean flag', async () => {
      await start('dark-mode');
      await fillRows({ plan: 'pro' });
      await evaluate('result-rollout');
      const shown = await text('result-enabled');
      expect(shown).toBe('true');
      for (const [i, label] of COPIES.entries()) {
        const out = await run(`boolean-${i}`, await copy(label), { FLAGPOLE_TOKEN: BOOTSTRAP });
        expect({ label, ...out }).toEqual({ label, ok: true, stdout: expect.stringMatching(new RegExp(`^${shown} (MATCH_EVALUATION_REASON|TARGETING_MATCH)$`)) });
      }
    });
  });
});

/** The namespace the console is tried on: rules of each kind, and boolean flags whose rollouts can and cannot be named. */
function seedConsole(api: SignedInSuite['api']) {
  return buildNamespace(api, {
    key: 'shop',
    segments: [
      { key: 'pro', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] },
      { key: 'adults', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
      { key: 'beta', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }] },
      { key: 'staff', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'team', operator: 'eq', value: TRICKY }] },
    ],
    flags: [
      {
        key: 'checkout',
        variants: [{ key: 'control' }, { key: 'treatment' }, { key: 'preview' }, { key: 'basic' }],
        defaultVariant: 'control',
        rules: [
          // Rule 1 has segment pro too, but as AND it reports both segments: an answer naming pro alone is rule 3's.
          { segments: ['pro', 'adults'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['treatment', 100]] },
          // OR reports only the segments that matched: an answer naming beta alone (or staff alone) is rule 2's.
          { segments: ['beta', 'staff'], operator: 'OR_SEGMENT_OPERATOR', distributions: [['preview', 100]] },
          { segments: ['pro'], distributions: [['basic', 100]] },
        ],
      },
      {
        key: 'dark-mode',
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [{ segment: { segments: ['pro'], value: true } }, { threshold: { percentage: 100, value: false } }],
      },
      {
        key: 'banner',
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [{ threshold: { percentage: 50, value: true } }, { threshold: { percentage: 100, value: true } }],
      },
    ],
  });
}
