/**
 * Issue 41, scheduled changes on the flag page, in Chromium against a real Flagpole with authentication and the
 * example authorization policy (the bootstrap token is an admin; a viewer reads flags), in a Berlin browser:
 *  - a progressive rollout (three steps, one after the change to summer time, one with a deadline) made in the
 *    "Schedule a change" dialog is stored as the instants meant, and its timeline reads in words, in the zone Times
 *    chose; the server's refusal (more steps than `schedules.max_steps`) is shown in the dialog as worded;
 *  - pause, resume and cancel from the timeline, each checked through the API;
 *  - a schedule whose rollout was deleted fails when its time comes (the server's clock moved, one tick run) and the
 *    page shows it as failed, with the server's message, above the details and in the timeline;
 *  - a step the server applied shows once its time has passed, without a reload (the page's clock moved too);
 *  - a viewer sees a rule's split scheduled, in words, and no control that would change a schedule.
 * Screenshots at 1440 and 390 px, light and dark, go to /tmp/shots-41/ (FLAGPOLE_SCHEDULE_SHOTS); none may scroll
 * sideways.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { Clock } from '../../src/common/clock';
import { ScheduleRunner } from '../../src/schedules/schedule-runner';
import { BOOTSTRAP } from '../auth/support';
import { authorizationEnv, policyFile, tokenWithRole } from '../authorization/support';
import { buildNamespace, type Built } from '../evaluation/fixtures';
import { browserDescribe, collectPageErrors, shotsAtEveryWidth, signInWithToken } from './support/browser';
import { signedInSuite, type SignedInSuite } from './support/signed-in-suite';

jest.setTimeout(180_000);

const SHOTS = process.env.FLAGPOLE_SCHEDULE_SHOTS ?? '/tmp/shots-41';
const BERLIN = { timezoneId: 'Europe/Berlin' };
const MAX_STEPS = 3;
const schedulesOf = (flag: string) => `/api/v1/namespaces/shop/flags/${flag}/schedules`;

interface Schedule {
  id: string;
  type: string;
  rolloutId?: string;
  ruleId?: string;
  description?: string;
  status: string;
  steps: Array<{ at: string; deadline?: string; percentage?: number; status: string; message?: string }>;
}

let built: Built;

async function seed(api: SignedInSuite['api']): Promise<void> {
  built = await buildNamespace(api, {
    key: 'shop',
    segments: [{ key: 'beta', name: 'Beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }] }],
    flags: [
      { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', rollouts: [{ description: 'ramp', threshold: { percentage: 0, value: true } }] },
      { key: 'doomed', name: 'Doomed', type: 'BOOLEAN_FLAG_TYPE', rollouts: [{ threshold: { percentage: 5, value: true } }] },
      {
        key: 'checkout',
        name: 'Checkout',
        variants: [{ key: 'blue' }, { key: 'green' }],
        rules: [{ segments: ['beta'], distributions: [['blue', 100], ['green', 0]] }],
      },
    ],
  });
}

browserDescribe('issue 41: scheduled changes on the flag page', () => {
  const ui = signedInSuite(seed, {
    env: authorizationEnv(policyFile(), { FLAGPOLE_SCHEDULES_MAX_STEPS: String(MAX_STEPS) }),
    context: BERLIN,
  });
  const page = () => ui.page;
  const main = () => page().locator('main');
  const dialog = () => page().getByRole('dialog');
  const section = () => main().locator('section.schedules');
  const schedules = async (flag: string) => ((await ui.api.get(schedulesOf(flag))).body as { schedules: Schedule[] }).schedules;
  const step = (n: number) => dialog().getByRole('group', { name: `Step ${n}`, exact: true });

  it('makes a progressive rollout in the dialog, stored as the instants meant; the API refusing it is shown there', async () => {
    await ui.open('/namespaces/shop/flags/launch');
    await section().getByText('Nothing scheduled.').waitFor();
    await section().getByRole('button', { name: 'Schedule a change' }).click();
    await dialog().getByLabel('Change', { exact: true }).selectOption({ label: 'Rollout 1 “ramp”: percentage (threshold, now 0 %)' });

    // Berlin: UTC+1 until the change to summer time on 30 March 2031, UTC+2 after it.
    const plan: Array<[string, number, string?]> = [
      ['2031-03-01T09:00', 10],
      ['2031-03-02T09:00', 25],
      ['2031-03-03T09:00', 50],
      ['2031-03-31T09:00', 100, '2031-03-31T12:00'],
    ];
    for (const [i, [at, percentage, deadline]] of plan.entries()) {
      if (i > 0) await dialog().getByRole('button', { name: 'Add step' }).click();
      await step(i + 1).getByLabel(/^At /).fill(at);
      await step(i + 1).getByLabel('Percentage').fill(String(percentage));
      if (deadline) await step(i + 1).getByLabel(/^Deadline /).fill(deadline);
    }
    expect(await step(1).getByLabel(/^At /).getAttribute('id')).toBeTruthy();
    expect(await step(1).locator('label', { hasText: /^At / }).innerText()).toBe('At (local, UTC+1)');
    expect(await step(4).locator('label', { hasText: /^At / }).innerText()).toBe('At (local, UTC+2)');
    await dialog().getByLabel('Description').fill('spring launch');
    await shotsAtEveryWidth(page(), SHOTS, 'dialog-progressive');

    // Four steps, the server allows three: its refusal, as the API words it, stays in the dialog.
    const [answer] = await Promise.all([
      page().waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(schedulesOf('launch'))),
      dialog().getByRole('button', { name: 'Schedule', exact: true }).click(),
    ]);
    const refusal = (await answer.json()) as { message: string };
    expect(answer.status()).toBe(400);
    await dialog().getByRole('alert').filter({ hasText: refusal.message }).waitFor();
    expect(await schedules('launch')).toEqual([]);

    await dialog().getByRole('button', { name: 'Remove step 3' }).click();
    await dialog().getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });

    const [s] = await schedules('launch');
    expect(s).toMatchObject({ type: 'ROLLOUT_THRESHOLD', rolloutId: built.rollouts.launch[0], description: 'spring launch', status: 'ACTIVE' });
    expect(s.steps.map((x) => [x.at, x.percentage, x.deadline, x.status])).toEqual([
      ['2031-03-01T08:00:00Z', 10, undefined, 'PENDING'],
      ['2031-03-02T08:00:00Z', 25, undefined, 'PENDING'],
      ['2031-03-31T07:00:00Z', 100, '2031-03-31T10:00:00Z', 'PENDING'],
    ]);

    // The timeline, in words and in the zone Times chose (named once, in the hint).
    const item = section().getByRole('listitem').filter({ has: page().getByRole('heading', { name: /spring launch/ }) });
    await item.waitFor();
    expect(await section().locator('.hint').first().innerText()).toContain('local, Europe/Berlin');
    const steps = () => item.locator('.step').allInnerTexts();
    expect((await steps()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(/^Step 1: 2031-03-01 09:00 .+ Rollout 1 “ramp”: 10 % Pending$/),
      expect.stringMatching(/^Step 2: 2031-03-02 09:00 .+ Rollout 1 “ramp”: 25 % Pending$/),
      expect.stringMatching(/^Step 3: 2031-03-31 09:00 .+ Rollout 1 “ramp”: 100 % Pending · skipped if not applied by 2031-03-31 12:00$/),
    ]);
    await page().getByRole('navigation', { name: 'Main' }).getByLabel('Times').selectOption('utc');
    await item.locator('.step time').first().filter({ hasText: '2031-03-01 08:00' }).waitFor();
    expect(await section().locator('.hint').first().innerText()).toContain('are UTC');
    await page().getByRole('navigation', { name: 'Main' }).getByLabel('Times').selectOption('local');
    await item.locator('.step time').first().filter({ hasText: '2031-03-01 09:00' }).waitFor();
    await shotsAtEveryWidth(page(), SHOTS, 'flag-progressive');
  });

  it('edits, pauses, resumes and cancels the schedule, each as the API then tells', async () => {
    await ui.open('/namespaces/shop/flags/launch');
    const item = section().getByRole('listitem').filter({ has: page().getByRole('heading', { name: /spring launch/ }) });
    await item.getByRole('button', { name: 'Edit' }).click();
    await dialog().getByRole('heading', { name: 'Edit schedule' }).waitFor();
    expect(await dialog().getByLabel('Change', { exact: true }).isDisabled()).toBe(true);
    expect(await step(2).getByLabel(/^At /).inputValue()).toBe('2031-03-02T09:00');
    expect(await step(3).getByLabel(/^Deadline /).inputValue()).toBe('2031-03-31T12:00');
    await step(2).getByLabel('Percentage').fill('30');
    await dialog().getByLabel('Description').fill('spring launch, gentler');
    await dialog().getByRole('button', { name: 'Save schedule' }).click();
    await dialog().waitFor({ state: 'detached' });
    await item.getByText('Rollout 1 “ramp”: 30 %').waitFor();
    const [edited] = await schedules('launch');
    expect({ description: edited.description, steps: edited.steps.map((x) => [x.at, x.percentage, x.deadline]) }).toEqual({
      description: 'spring launch, gentler',
      steps: [
        ['2031-03-01T08:00:00Z', 10, undefined],
        ['2031-03-02T08:00:00Z', 30, undefined],
        ['2031-03-31T07:00:00Z', 100, '2031-03-31T10:00:00Z'],
      ],
    });

    await item.getByRole('button', { name: 'Pause' }).click();
    await item.getByRole('button', { name: 'Resume' }).waitFor();
    await item.locator('.status-badge', { hasText: 'Paused' }).first().waitFor();
    expect((await schedules('launch'))[0].status).toBe('PAUSED');
    await shotsAtEveryWidth(page(), SHOTS, 'flag-paused');

    await item.getByRole('button', { name: 'Resume' }).click();
    await item.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await schedules('launch'))[0].status).toBe('ACTIVE');

    await item.getByRole('button', { name: 'Cancel schedule' }).click();
    await dialog().getByRole('button', { name: 'Keep it' }).click();
    expect((await schedules('launch'))[0].status).toBe('ACTIVE');
    await item.getByRole('button', { name: 'Cancel schedule' }).click();
    await dialog().getByRole('button', { name: 'Cancel schedule' }).click();
    await dialog().waitFor({ state: 'detached' });
    // Cancelled, it is a record: folded under Finished, with no control left.
    await section().locator('summary', { hasText: 'Finished (1)' }).click();
    const finished = section().locator('.schedules-finished .schedule');
    await finished.locator('.status-badge', { hasText: 'Cancelled' }).first().waitFor();
    expect(await finished.getByRole('button').count()).toBe(0);
    const [s] = await schedules('launch');
    expect({ status: s.status, steps: s.steps.map((x) => x.status) }).toEqual({ status: 'CANCELLED', steps: ['CANCELLED', 'CANCELLED', 'CANCELLED'] });
  });

  it('shows a schedule whose rollout was deleted as failed, with the server’s message', async () => {
    const at = Date.now() + 3600_000;
    const made = await ui.api.post(schedulesOf('doomed'), {
      description: 'ramp doomed',
      type: 'ROLLOUT_THRESHOLD',
      rolloutId: built.rollouts.doomed[0],
      steps: [
        { at: new Date(at).toISOString(), percentage: 50 },
        { at: new Date(at + 86_400_000).toISOString(), percentage: 100 },
      ],
    });
    expect(made.status).toBe(200);
    await ui.open('/namespaces/shop/flags/doomed');
    await section().getByRole('heading', { name: /ramp doomed/ }).waitFor();
    expect(await main().locator('.schedule-failed-notice').count()).toBe(0);

    expect((await ui.api.delete(`/api/v1/namespaces/shop/flags/doomed/rollouts/${built.rollouts.doomed[0]}`)).status).toBe(200);
    const clock = jest.spyOn(ui.fp.app.get(Clock), 'now').mockReturnValue(at + 1000);
    try {
      await ui.fp.app.get(ScheduleRunner).tick();
    } finally {
      clock.mockRestore();
    }
    const [s] = await schedules('doomed');
    expect({ status: s.status, steps: s.steps.map((x) => x.status) }).toEqual({ status: 'FAILED', steps: ['FAILED', 'CANCELLED'] });
    const message = s.steps[0].message!;
    expect(message).toBeTruthy();

    await page().reload();
    await main().locator('.schedule-failed-notice', { hasText: `A scheduled change of this flag failed: ${message}` }).waitFor();
    const item = section().locator('.schedule-failed');
    await item.getByRole('heading', { name: /ramp doomed/ }).waitFor();
    expect(await item.locator('.schedule-failure').innerText()).toContain(`Step 1 failed and changed nothing: ${message}.`);
    expect((await item.locator('.step').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(new RegExp(`A deleted rollout: 50 % Failed ${literal(message)}( · at .+)?$`)),
      expect.stringMatching(/A deleted rollout: 100 % Cancelled\b/),
    ]);
    expect(await item.getByRole('button').count()).toBe(0);
    await main().getByRole('button', { name: 'Show scheduled changes' }).click();
    await shotsAtEveryWidth(page(), SHOTS, 'flag-failed');
  });

  it('shows a step the server applied once its time has passed, without a reload', async () => {
    // A page of its own whose clock the test moves (Playwright's fake timers), as the server's is moved below.
    const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
    await context.clock.install();
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    const errors = collectPageErrors(p);
    try {
      await signInWithToken(p, ui.fp.url, BOOTSTRAP);
      const at = Date.now() + 60_000;
      const made = await ui.api.post(schedulesOf('launch'), {
        description: 'to forty',
        type: 'ROLLOUT_THRESHOLD',
        rolloutId: built.rollouts.launch[0],
        steps: [{ at: new Date(at).toISOString(), percentage: 40 }],
      });
      expect(made.status).toBe(200);
      await p.goto(`${ui.fp.url}/#/namespaces/shop/flags/launch`);
      const item = p.locator('main section.schedules .schedule').filter({ has: p.getByRole('heading', { name: /to forty/ }) });
      await item.locator('.step .status-badge', { hasText: 'Pending' }).waitFor();
      await p.locator('main .ranked-item', { hasText: '0% of entities' }).waitFor();
      await p.evaluate(() => ((globalThis as unknown as { loadedOnce: boolean }).loadedOnce = true));

      const clock = jest.spyOn(ui.fp.app.get(Clock), 'now').mockReturnValue(at + 1000);
      try {
        await ui.fp.app.get(ScheduleRunner).tick();
      } finally {
        clock.mockRestore();
      }
      expect((await ui.api.get(`${schedulesOf('launch')}/${made.body.id}`)).body).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'APPLIED' }] });

      // The page's minute passes: it reads the flag again by itself, the same page (no reload).
      await p.clock.fastForward(65_000);
      await p.locator('main .ranked-item', { hasText: '40% of entities' }).waitFor();
      await p.locator('main section.schedules summary', { hasText: 'Finished (2)' }).click();
      await item.locator('.step .status-badge', { hasText: 'Applied' }).waitFor();
      expect(await p.evaluate(() => (globalThis as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  describe('a viewer', () => {
    let viewer: { page: Page; context: BrowserContext; errors: string[] };
    beforeAll(async () => {
      const token = await tokenWithRole(ui.api, 'viewer');
      const context = await ui.browser.newContext({ viewport: { width: 1440, height: 900 }, ...BERLIN });
      viewer = { context, page: await context.newPage(), errors: [] };
      viewer.page.setDefaultTimeout(10_000);
      viewer.errors = collectPageErrors(viewer.page);
      await signInWithToken(viewer.page, ui.fp.url, token);
    });
    afterAll(() => viewer.context.close());
    afterEach(() => expect(viewer.errors.splice(0)).toEqual([]));

    it("sees a rule's split scheduled, in words, and nothing that would change a schedule", async () => {
      const made = await ui.api.post(schedulesOf('checkout'), {
        type: 'RULE_DISTRIBUTIONS',
        ruleId: built.rules.checkout[0],
        steps: [{ at: '2031-06-01T10:00:00+02:00', distributions: [{ variantKey: 'blue', rollout: 50 }, { variantKey: 'green', rollout: 50 }] }],
      });
      expect(made.status).toBe(200);

      // The admin may pause it: the viewer's page below lacks what is there to lack.
      await ui.open('/namespaces/shop/flags/checkout');
      await section().getByRole('button', { name: 'Pause' }).waitFor();

      const v = viewer.page;
      await v.goto(`${ui.fp.url}/#/namespaces/shop/flags/checkout`);
      const vSection = v.locator('main section.schedules');
      await vSection.getByText('Rule 1: blue 50 % / green 50 %').waitFor();
      expect(await vSection.locator('.step time').first().innerText()).toBe('2031-06-01 10:00');
      expect(await vSection.locator('.schedule').getByRole('button').count()).toBe(0);
      expect(await vSection.getByRole('button', { name: 'Schedule a change' }).isDisabled()).toBe(true);
      expect(await vSection.getByRole('button', { name: 'Schedule a change' }).getAttribute('title')).toBe(
        'Your role (viewer) may not change flags in shop.',
      );
      await shotsAtEveryWidth(v, SHOTS, 'viewer-rule-split');
    });
  });

  it("schedules a rule's split and the flag's switch in the dialog", async () => {
    await ui.open('/namespaces/shop/flags/checkout');
    await section().getByRole('button', { name: 'Schedule a change' }).click();
    await dialog().getByLabel('Change', { exact: true }).selectOption({ label: 'Rule 1 (beta): split (now blue 100 % / green 0 %)' });
    await step(1).getByLabel(/^At /).fill('2031-07-01T09:00');
    await step(1).getByLabel('green').fill('30');
    await dialog().getByRole('button', { name: 'Schedule', exact: true }).click();
    // 100 + 30: the dialog says so before asking the server.
    await dialog().getByRole('alert').filter({ hasText: 'The percentages must add up to 100% (now 130%).' }).waitFor();
    await step(1).getByLabel('blue').fill('70');
    await shotsAtEveryWidth(page(), SHOTS, 'dialog-split');
    await dialog().getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });
    await section().getByText('Rule 1: blue 70 % / green 30 %').waitFor();

    await section().getByRole('button', { name: 'Schedule a change' }).click();
    await dialog().getByLabel('Change', { exact: true }).selectOption({ label: 'The flag’s on/off switch (now on)' });
    await step(1).getByLabel(/^At /).fill('2031-08-01T18:00');
    expect(await step(1).getByLabel('Then').inputValue()).toBe('false');
    await dialog().getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });
    await section().getByText('Disable the flag').waitFor();

    const list = await schedules('checkout');
    expect(list.map((s) => [s.type, s.steps[0].at])).toEqual([
      ['FLAG_ENABLED', '2031-08-01T16:00:00Z'],
      ['RULE_DISTRIBUTIONS', '2031-07-01T07:00:00Z'],
      ['RULE_DISTRIBUTIONS', '2031-06-01T08:00:00Z'],
    ]);
  });
});

/** `message` as a literal part of a regular expression. */
function literal(message: string): string {
  return message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
