/**
 * Scheduled changes (issue 41), the API: create, list, get, edit, pause, resume and cancel over real HTTP; what is
 * refused and how (400 naming the field, 404, the per-flag limit, read-only storage); snake_case bodies. Applying is
 * schedules-apply.e2e-spec.ts; here the clock only moves where an edit needs a step already applied.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { bearer, BOOTSTRAP, createToken, eventually, TOKEN_REQUIRED, type Api } from '../auth/support';
import {
  createDistribution, createFlag, createNamespace, createRollout, createRule, createSegment, createVariant,
  expectError, expectInvalidNaming, N, ok, TIMESTAMP, UUID,
} from '../management/support';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { ScheduleRetentionTask } from '../../src/schedules/schedule-retention.task';
import {
  at, createSchedule, DAY, FAST_TICKS, getSchedule, HOUR, schedulePath, schedules, scheduleWhen, setClock, statuses, T, tick,
  type Schedule,
} from './support';

const AUTHOR = 'release-bot';

describe('scheduled changes: the API', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let threshold: string;
  let segmentRollout: string;
  let rule: string;
  let otherFlagsRollout: string;
  let flagCount = 0;

  /** A boolean flag of its own for one test, so counts and limits never meet another test's schedules. */
  const freshFlag = async (prefix: string) => {
    const key = `${prefix}-${++flagCount}`;
    await createFlag(api, 'default', key, { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    return key;
  };

  beforeAll(async () => {
    fp = await startFlagpole({ ...TOKEN_REQUIRED, ...FAST_TICKS, FLAGPOLE_SCHEDULES_MAX_ACTIVE_PER_FLAG: '2' });
    const admin = client(fp.url, bearer(BOOTSTRAP));
    api = client(fp.url, bearer((await createToken(admin, { name: AUTHOR })).clientToken));
    await createFlag(api, 'default', 'bool', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    await createSegment(api, 'default', 'everyone', { matchType: 'ALL_MATCH_TYPE' });
    threshold = (await createRollout(api, 'default', 'bool', { rank: 1, threshold: { percentage: 0, value: true } })).id;
    segmentRollout = (await createRollout(api, 'default', 'bool', { rank: 2, segment: { segmentKey: 'everyone', value: false } })).id;
    await createFlag(api, 'default', 'colour', { enabled: true });
    for (const key of ['blue', 'green', 'red']) await createVariant(api, 'default', 'colour', key);
    const variants = ok(await api.get(`${N('default')}/flags/colour`)).variants as Array<{ id: string; key: string }>;
    rule = (await createRule(api, 'default', 'colour', { segmentKey: 'everyone', rank: 1 })).id;
    for (const key of ['blue', 'green']) {
      await createDistribution(api, 'default', 'colour', rule, { variantId: variants.find((v) => v.key === key)!.id, rollout: 50 });
    }
    await createFlag(api, 'default', 'other', { type: 'BOOLEAN_FLAG_TYPE' });
    otherFlagsRollout = (await createRollout(api, 'default', 'other', { rank: 1, threshold: { percentage: 5, value: true } })).id;
  }, 60_000);

  afterAll(() => fp?.close());
  // Back to the machine's clock (2026): no step of these 2030 schedules is due unless a test moves it.
  afterEach(() => jest.restoreAllMocks());

  describe('create, get, list', () => {
    it('creates a schedule and answers it in UTC, with its author, its next time and every step pending', async () => {
      const flag = await freshFlag('create');
      const r = await api.post(schedules('default', flag), {
        description: 'launch campaign',
        type: 'FLAG_ENABLED',
        steps: [
          { at: '2030-01-01T10:00:00+01:00', enabled: true },
          { at: '2030-01-02T09:00:00Z', deadline: '2030-01-02T12:00:00+03:00', enabled: false },
        ],
      });
      expect({ status: r.status, body: r.body }).toMatchObject({
        status: 200,
        body: {
          id: UUID, namespaceKey: 'default', flagKey: flag, description: 'launch campaign', type: 'FLAG_ENABLED', status: 'ACTIVE',
          steps: [
            { at: '2030-01-01T09:00:00Z', enabled: true, status: 'PENDING' },
            { at: '2030-01-02T09:00:00Z', deadline: '2030-01-02T09:00:00Z', enabled: false, status: 'PENDING' },
          ],
          nextAt: '2030-01-01T09:00:00Z',
          createdBy: { authentication: 'token', name: AUTHOR },
          createdAt: TIMESTAMP, updatedAt: TIMESTAMP,
        },
      });
      // FLAG_ENABLED names neither a rollout nor a rule; a pending step has not been applied.
      expect(r.body).not.toHaveProperty('rolloutId');
      expect(r.body).not.toHaveProperty('ruleId');
      for (const step of r.body.steps) expect(step).not.toHaveProperty('appliedAt');
      expect(await getSchedule(api, 'default', flag, r.body.id)).toEqual(r.body);
      // Creating it changed nothing about the flag.
      expect(ok(await api.get(`${N('default')}/flags/${flag}`)).enabled).toBe(false);
    });

    it('creates each type with the value its steps carry', async () => {
      const flag = 'bool';
      const made: Schedule[] = [];
      made.push(await createSchedule(api, 'default', flag, { type: 'ROLLOUT_THRESHOLD', rolloutId: threshold, steps: [{ at: at(DAY), percentage: 12.5 }] }));
      made.push(await createSchedule(api, 'default', flag, { type: 'ROLLOUT_SEGMENT', rolloutId: segmentRollout, steps: [{ at: at(DAY), value: true }] }));
      expect(made[0]).toMatchObject({ type: 'ROLLOUT_THRESHOLD', rolloutId: threshold, steps: [{ at: at(DAY), percentage: 12.5, status: 'PENDING' }] });
      expect(made[1]).toMatchObject({ type: 'ROLLOUT_SEGMENT', rolloutId: segmentRollout, steps: [{ at: at(DAY), value: true, status: 'PENDING' }] });
      const dist = await createSchedule(api, 'default', 'colour', {
        type: 'RULE_DISTRIBUTIONS', ruleId: rule,
        steps: [{ at: at(DAY), distributions: [{ variantKey: 'blue', rollout: 90 }, { variantKey: 'green', rollout: 10 }] }],
      });
      expect(dist).toMatchObject({
        type: 'RULE_DISTRIBUTIONS', ruleId: rule,
        steps: [{ distributions: [{ variantKey: 'blue', rollout: 90 }, { variantKey: 'green', rollout: 10 }], status: 'PENDING' }],
      });
      for (const s of [...made, dist]) ok(await api.delete(schedulePath('default', s.flagKey, s.id)));
    });

    it('lists a flag\'s schedules newest first, filters by status, and lists a whole namespace', async () => {
      await createNamespace(api, 'listing');
      for (const key of ['a', 'b']) await createFlag(api, 'listing', key, { type: 'BOOLEAN_FLAG_TYPE' });
      const first = await createSchedule(api, 'listing', 'a', { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
      const second = await createSchedule(api, 'listing', 'a', { type: 'FLAG_ENABLED', steps: [{ at: at(2 * HOUR), enabled: false }] });
      const onB = await createSchedule(api, 'listing', 'b', { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
      const ids = (r: { body: { schedules: Schedule[] } }) => r.body.schedules.map((s) => s.id);

      const listed = await api.get(schedules('listing', 'a'));
      expect({ status: listed.status, ids: ids(listed) }).toEqual({ status: 200, ids: [second.id, first.id] });
      expect(listed.body.schedules[0]).toEqual(second);
      expect(ids(await api.get(`${N('listing')}/schedules`))).toEqual([onB.id, second.id, first.id]);

      ok(await api.delete(schedulePath('listing', 'a', first.id)));
      expect(ids(await api.get(`${schedules('listing', 'a')}?status=ACTIVE`))).toEqual([second.id]);
      expect(ids(await api.get(`${schedules('listing', 'a')}?status=CANCELLED`))).toEqual([first.id]);
      expect(ids(await api.get(`${schedules('listing', 'a')}?status=COMPLETED`))).toEqual([]);
      expect(ids(await api.get(`${N('listing')}/schedules?status=ACTIVE`))).toEqual([onB.id, second.id]);
      expect(ids(await api.get(`${N('listing')}/schedules?status=CANCELLED`))).toEqual([first.id]);
    });
  });

  describe('edit, pause, resume, cancel', () => {
    it('an edit replaces the description and the steps not yet applied, and keeps those applied', async () => {
      const created = await createSchedule(api, 'default', 'bool', {
        description: 'ramp', type: 'ROLLOUT_THRESHOLD', rolloutId: threshold,
        steps: [{ at: at(0), percentage: 10 }, { at: at(DAY), percentage: 50 }],
      });
      setClock(fp, T);
      await tick(fp);
      await scheduleWhen(api, 'default', 'bool', created.id, (s) => s.steps[0].status === 'APPLIED');

      const edited = await api.put(schedulePath('default', 'bool', created.id), {
        description: 'ramp, slower',
        steps: [{ at: at(2 * DAY), percentage: 30 }, { at: at(3 * DAY), percentage: 60, deadline: at(3 * DAY + HOUR) }],
      });
      expect({ status: edited.status, body: edited.body }).toMatchObject({
        status: 200,
        body: {
          id: created.id, description: 'ramp, slower', status: 'ACTIVE', nextAt: at(2 * DAY),
          steps: [
            { at: at(0), percentage: 10, status: 'APPLIED', appliedAt: TIMESTAMP },
            { at: at(2 * DAY), percentage: 30, status: 'PENDING' },
            { at: at(3 * DAY), percentage: 60, deadline: at(3 * DAY + HOUR), status: 'PENDING' },
          ],
        },
      });
      expect(edited.body.steps).toHaveLength(3);
      expect(await getSchedule(api, 'default', 'bool', created.id)).toEqual(edited.body);

      // An edit is validated as a creation is.
      expectInvalidNaming(await api.put(schedulePath('default', 'bool', created.id), { steps: [{ at: at(4 * DAY), percentage: 101 }] }), 'steps[0].percentage');
      ok(await api.delete(schedulePath('default', 'bool', created.id)));
      // Only while ACTIVE or PAUSED.
      const late = await api.put(schedulePath('default', 'bool', created.id), { description: 'too late', steps: [{ at: at(4 * DAY), percentage: 70 }] });
      expect({ status: late.status, code: late.body?.code }).toEqual({ status: 400, code: 9 });
      expect((await getSchedule(api, 'default', 'bool', created.id)).description).toBe('ramp, slower');
    });

    it('pauses and resumes', async () => {
      const flag = await freshFlag('pause');
      const created = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
      const paused = await api.post(`${schedulePath('default', flag, created.id)}/pause`);
      expect({ status: paused.status, body: paused.body }).toMatchObject({ status: 200, body: { id: created.id, status: 'PAUSED', steps: [{ status: 'PENDING' }] } });
      expect((await getSchedule(api, 'default', flag, created.id)).status).toBe('PAUSED');
      const resumed = await api.post(`${schedulePath('default', flag, created.id)}/resume`);
      expect({ status: resumed.status, body: resumed.body }).toMatchObject({
        status: 200, body: { id: created.id, status: 'ACTIVE', nextAt: at(HOUR), steps: [{ status: 'PENDING' }] },
      });
      expect((await getSchedule(api, 'default', flag, created.id)).status).toBe('ACTIVE');
    });

    it('a cancel keeps the schedule as a record, cancels what was pending, and it never applies', async () => {
      const flag = await freshFlag('cancel');
      const created = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }, { at: at(HOUR), enabled: false }] });
      const r = await api.delete(schedulePath('default', flag, created.id));
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
      const cancelled = await getSchedule(api, 'default', flag, created.id);
      expect(cancelled).toMatchObject({ status: 'CANCELLED' });
      expect(statuses(cancelled)).toEqual(['CANCELLED', 'CANCELLED']);
      expect(cancelled).not.toHaveProperty('nextAt');
      expect(ok(await api.get(schedules('default', flag))).schedules.map((s: Schedule) => s.id)).toEqual([created.id]);
      // Cancelling again is not an error.
      expect((await api.delete(schedulePath('default', flag, created.id))).body).toEqual({});
      // Its time comes: nothing happens.
      setClock(fp, T + 2 * HOUR);
      await tick(fp);
      expect(ok(await api.get(`${N('default')}/flags/${flag}`)).enabled).toBe(false);
      expect(statuses(await getSchedule(api, 'default', flag, created.id))).toEqual(['CANCELLED', 'CANCELLED']);
    });
  });

  describe('closed schedules', () => {
    it('a completed schedule cannot be edited, paused or resumed (400 code 9); cancelling it answers {} and keeps its record', async () => {
      const flag = await freshFlag('closed');
      const s = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
      setClock(fp, T);
      await tick(fp);
      await scheduleWhen(api, 'default', flag, s.id, (x) => x.status === 'COMPLETED');
      const p = schedulePath('default', flag, s.id);
      for (const r of [
        await api.put(p, { steps: [{ at: at(HOUR), enabled: false }] }),
        await api.post(`${p}/pause`),
        await api.post(`${p}/resume`),
      ]) {
        expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 400, code: 9, details: [] });
      }
      expect((await api.delete(p)).body).toEqual({});
      const after = await getSchedule(api, 'default', flag, s.id);
      expect({ status: after.status, steps: statuses(after) }).toEqual({ status: 'COMPLETED', steps: ['APPLIED'] });
    });

    it('schedules.retention (30 days) deletes closed schedules last changed before it, and never open ones', async () => {
      const flag = await freshFlag('retention');
      const open = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
      const closed = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
      await api.delete(schedulePath('default', flag, closed.id));
      const retention = fp.app.get(ScheduleRetentionTask);
      // 29 days after its cancel: kept. (Both clocks stay before 2030, so no step of these comes due.)
      setClock(fp, Date.now() + 29 * DAY);
      await retention.prune();
      expect((await api.get(schedulePath('default', flag, closed.id))).status).toBe(200);
      setClock(fp, Date.now() + 31 * DAY);
      expect(await retention.prune()).toBeGreaterThanOrEqual(1);
      expect((await api.get(schedulePath('default', flag, closed.id))).status).toBe(404);
      expect((await getSchedule(api, 'default', flag, open.id)).status).toBe('ACTIVE');
    });

    it('an edit of a paused schedule keeps it paused', async () => {
      const flag = await freshFlag('paused-edit');
      const s = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
      ok(await api.post(`${schedulePath('default', flag, s.id)}/pause`));
      const edited = ok(await api.put(schedulePath('default', flag, s.id), { steps: [{ at: at(2 * HOUR), enabled: true }] }));
      expect({ status: edited.status, steps: statuses(edited) }).toEqual({ status: 'PAUSED', steps: ['PENDING'] });
      setClock(fp, T + 3 * HOUR);
      await tick(fp);
      expect(statuses(await getSchedule(api, 'default', flag, s.id))).toEqual(['PENDING']);
      expect(ok(await api.get(`${N('default')}/flags/${flag}`)).enabled).toBe(false);
    });
  });

  it('times keep their milliseconds, in UTC', async () => {
    const flag = await freshFlag('millis');
    const s = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: '2030-01-01T10:00:00.250+01:00', enabled: true }] });
    expect({ at: s.steps[0].at, nextAt: s.nextAt }).toEqual({ at: '2030-01-01T09:00:00.250Z', nextAt: '2030-01-01T09:00:00.250Z' });
  });

  it('an unknown ?status is refused naming it', async () => {
    expectInvalidNaming(await api.get(`${schedules('default', 'bool')}?status=DONE`), 'status');
    expectInvalidNaming(await api.get(`${N('default')}/schedules?status=DONE`), 'status');
  });

  it('export leaves schedules out; a namespace whose flags were deleted can be deleted with its schedules', async () => {
    await createNamespace(api, 'exported');
    await createFlag(api, 'exported', 'f', { type: 'BOOLEAN_FLAG_TYPE' });
    const s = await createSchedule(api, 'exported', 'f', { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
    const doc = await api.get(`${N('exported')}/export?format=json`);
    expect(doc.status).toBe(200);
    expect(doc.text).not.toMatch(/schedule/i);
    expect(doc.text).not.toContain(s.id);
    ok(await api.delete(`${N('exported')}/flags/f`));
    const deleted = await api.delete(N('exported'));
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 200, body: {} });
    expect((await api.get(`${N('exported')}/schedules`)).status).toBe(404);
  });

  describe('what is refused', () => {
    const enabledAt = (...ats: string[]) => ({ type: 'FLAG_ENABLED', steps: ats.map((a) => ({ at: a, enabled: true })) });
    const thresholdSteps = (...percentages: number[]) => ({
      type: 'ROLLOUT_THRESHOLD', rolloutId: threshold, steps: percentages.map((percentage, i) => ({ at: at(i * HOUR), percentage })),
    });
    const distributions = (d: Array<{ variantKey: string; rollout: number }>) => ({ type: 'RULE_DISTRIBUTIONS', ruleId: rule, steps: [{ at: at(0), distributions: d }] });

    const cases: Array<[string, string, () => Record<string, unknown>, string]> = [
      ['a time that is not RFC 3339', 'bool', () => enabledAt('tomorrow at 9'), 'steps[0].at'],
      ['a time without its zone', 'bool', () => enabledAt('2030-01-01T09:00:00'), 'steps[0].at'],
      ['a date that does not exist', 'bool', () => enabledAt('2030-02-30T09:00:00Z'), 'steps[0].at'],
      ['a step without a time', 'bool', () => ({ type: 'FLAG_ENABLED', steps: [{ enabled: true }] }), 'steps[0].at'],
      ['steps going back in time', 'bool', () => enabledAt(at(HOUR), at(0)), 'steps[1].at'],
      ['two steps at the same time', 'bool', () => enabledAt(at(0), at(HOUR), at(HOUR)), 'steps[2].at'],
      ['a deadline before its time', 'bool', () => ({ type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), deadline: at(0), enabled: true }] }), 'steps[0].deadline'],
      ['a deadline without a zone', 'bool', () => ({ type: 'FLAG_ENABLED', steps: [{ at: at(0), deadline: '2030-01-01T10:00:00', enabled: true }] }), 'steps[0].deadline'],
      ['no steps', 'bool', () => ({ type: 'FLAG_ENABLED', steps: [] }), 'steps'],
      ['steps that are not a list', 'bool', () => ({ type: 'FLAG_ENABLED', steps: 'at nine' }), 'steps must be a list of objects'],
      ['a step that is not an object', 'bool', () => ({ type: 'FLAG_ENABLED', steps: ['at nine'] }), 'steps must be a list of objects'],
      ['an unknown type', 'bool', () => ({ type: 'FLAG_COLOUR', steps: [{ at: at(0), enabled: true }] }), 'type'],
      ['FLAG_ENABLED without its value', 'bool', () => ({ type: 'FLAG_ENABLED', steps: [{ at: at(0) }] }), 'steps[0].enabled'],
      ['a percentage of 101', 'bool', () => thresholdSteps(10, 101), 'steps[1].percentage'],
      ['a negative percentage', 'bool', () => thresholdSteps(-1), 'steps[0].percentage'],
      ['a percentage that is not a number', 'bool', () => ({ ...thresholdSteps(), steps: [{ at: at(0), percentage: 'half' }] }), 'steps[0].percentage'],
      ['a threshold schedule without a rollout', 'bool', () => ({ type: 'ROLLOUT_THRESHOLD', steps: [{ at: at(0), percentage: 10 }] }), 'rolloutId'],
      ['an unknown rolloutId', 'bool', () => ({ ...thresholdSteps(10), rolloutId: randomUUID() }), 'rolloutId'],
      ['a rollout of another flag', 'bool', () => ({ ...thresholdSteps(10), rolloutId: otherFlagsRollout }), 'rolloutId'],
      ['a segment rollout for a threshold schedule', 'bool', () => ({ ...thresholdSteps(10), rolloutId: segmentRollout }), 'rolloutId'],
      ['a threshold rollout for a segment schedule', 'bool', () => ({ type: 'ROLLOUT_SEGMENT', rolloutId: threshold, steps: [{ at: at(0), value: true }] }), 'rolloutId'],
      ['an unknown ruleId', 'colour', () => ({ ...distributions([{ variantKey: 'blue', rollout: 10 }]), ruleId: randomUUID() }), 'ruleId'],
      ['a variant key without a distribution in the rule', 'colour', () => distributions([{ variantKey: 'red', rollout: 10 }]), 'steps[0].distributions'],
      ['a variant key the flag does not have', 'colour', () => distributions([{ variantKey: 'purple', rollout: 10 }]), 'steps[0].distributions'],
      ['distributions summing past 100', 'colour', () => distributions([{ variantKey: 'blue', rollout: 60 }, { variantKey: 'green', rollout: 50 }]), 'steps[0].distributions'],
      ['a distribution of 101', 'colour', () => distributions([{ variantKey: 'blue', rollout: 101 }]), 'steps[0].distributions'],
      ['51 steps (schedules.max_steps is 50)', 'bool', () => thresholdSteps(...Array.from({ length: 51 }, (_, i) => i)), 'steps'],
    ];

    it.each(cases)('%s → 400 naming the field, nothing created', async (_name, flag, body, field) => {
      const before = ok(await api.get(schedules('default', flag))).schedules.length;
      expectInvalidNaming(await api.post(schedules('default', flag), body()), field);
      expect(ok(await api.get(schedules('default', flag))).schedules).toHaveLength(before);
    });

    it('accepts 50 steps, the most schedules.max_steps allows', async () => {
      const flag = await freshFlag('fifty');
      const fifty = await createSchedule(api, 'default', flag, enabledAt(...Array.from({ length: 50 }, (_, i) => at(i * HOUR))));
      expect(fifty.steps).toHaveLength(50);
      ok(await api.delete(schedulePath('default', flag, fifty.id)));
    });

    it('a third active or paused schedule on one flag is refused (schedules.max_active_per_flag 2); a cancelled one frees a place', async () => {
      const flag = await freshFlag('limit');
      const one = await createSchedule(api, 'default', flag, enabledAt(at(HOUR)));
      const two = await createSchedule(api, 'default', flag, enabledAt(at(2 * HOUR)));
      ok(await api.post(`${schedulePath('default', flag, two.id)}/pause`));
      const refused = await api.post(schedules('default', flag), enabledAt(at(3 * HOUR)));
      expect({ status: refused.status, code: refused.body?.code, details: refused.body?.details }).toEqual({ status: 400, code: 9, details: [] });
      expect(refused.body.message).toContain(flag);
      expect(refused.body.message).toContain('2');
      expect(ok(await api.get(schedules('default', flag))).schedules).toHaveLength(2);
      // Another flag is not affected by this one's count.
      const elsewhere = await freshFlag('limit-other');
      await createSchedule(api, 'default', elsewhere, enabledAt(at(HOUR)));
      ok(await api.delete(schedulePath('default', flag, one.id)));
      const three = await createSchedule(api, 'default', flag, enabledAt(at(3 * HOUR)));
      expect(three.status).toBe('ACTIVE');
    });

    it('unknown namespace, flag or schedule → 404 in Flipt\'s body', async () => {
      const flag = await freshFlag('notfound');
      const mine = await createSchedule(api, 'default', flag, enabledAt(at(HOUR)));
      const body = enabledAt(at(HOUR));
      const expect404 = (r: { status: number; body: any }) => {
        expect({ status: r.status, code: r.body?.code, details: r.body?.details }).toEqual({ status: 404, code: 5, details: [] });
        expect(typeof r.body.message).toBe('string');
      };
      expect404(await api.get(schedules('nowhere', flag)));
      expect404(await api.post(schedules('nowhere', flag), body));
      expect404(await api.get(`${N('nowhere')}/schedules`));
      expect404(await api.get(schedules('default', 'no-such-flag')));
      expect404(await api.post(schedules('default', 'no-such-flag'), body));
      const unknown = randomUUID();
      expect404(await api.get(schedulePath('default', flag, unknown)));
      expect404(await api.put(schedulePath('default', flag, unknown), { steps: [{ at: at(HOUR), enabled: true }] }));
      expect404(await api.post(`${schedulePath('default', flag, unknown)}/pause`));
      expect404(await api.post(`${schedulePath('default', flag, unknown)}/resume`));
      expect404(await api.delete(schedulePath('default', flag, unknown)));
      // A schedule is found only under its own flag.
      expect404(await api.get(schedulePath('default', 'bool', mine.id)));
      expect404(await api.delete(schedulePath('default', 'bool', mine.id)));
      expect((await getSchedule(api, 'default', flag, mine.id)).status).toBe('ACTIVE');
    });
  });

  it('the schedule routes are audited as type schedule: created, updated (edit, pause, resume), deleted (cancel)', async () => {
    const flag = await freshFlag('audited');
    const s = await createSchedule(api, 'default', flag, { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
    const p = schedulePath('default', flag, s.id);
    ok(await api.put(p, { description: 'edited', steps: [{ at: at(2 * HOUR), enabled: true }] }));
    ok(await api.post(`${p}/pause`));
    ok(await api.post(`${p}/resume`));
    ok(await api.delete(p));
    const admin = client(fp.url, bearer(BOOTSTRAP));
    const mine = async () =>
      ok(await admin.get('/api/v1/audit/events?namespaceKey=default&type=schedule&limit=100')).events
        .filter((e: { payload: { id?: string } }) => e.payload.id === s.id);
    let events: Array<{ action: string; status: string; metadata: { actor: Record<string, string> } }> = [];
    await eventually(async () => {
      events = await mine();
      expect(events.length).toBeGreaterThanOrEqual(5);
    }, 5_000, 50);
    expect(events.map((e) => e.action).reverse()).toEqual(['created', 'updated', 'updated', 'updated', 'deleted']);
    for (const e of events) expect({ status: e.status, actor: e.metadata.actor.name }).toEqual({ status: 'success', actor: AUTHOR });
  });

  it('accepts snake_case bodies and answers camelCase', async () => {
    const threshold_ = await api.post(schedules('default', 'bool'), {
      type: 'ROLLOUT_THRESHOLD', rollout_id: threshold, steps: [{ at: at(5 * DAY), percentage: 20 }],
    });
    expect({ status: threshold_.status, body: threshold_.body }).toMatchObject({ status: 200, body: { rolloutId: threshold, steps: [{ percentage: 20 }] } });
    const dist = await api.post(schedules('default', 'colour'), {
      type: 'RULE_DISTRIBUTIONS', rule_id: rule,
      steps: [{ at: at(5 * DAY), deadline: at(6 * DAY), distributions: [{ variant_key: 'blue', rollout: 30 }, { variant_key: 'green', rollout: 70 }] }],
    });
    expect({ status: dist.status, body: dist.body }).toMatchObject({
      status: 200,
      body: { ruleId: rule, steps: [{ deadline: at(6 * DAY), distributions: [{ variantKey: 'blue', rollout: 30 }, { variantKey: 'green', rollout: 70 }] }] },
    });
    for (const s of [threshold_.body, dist.body]) ok(await api.delete(schedulePath('default', s.flagKey, s.id)));
  });
});

describe('scheduled changes with read-only flag state (storage.type local)', () => {
  let fp: RunningFlagpole;
  let dir: string;
  const MESSAGE = 'scheduled changes are not available: flag state is read-only (storage.type local)';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-schedules-local-'));
    // A flag that exists, so a refusal cannot be a 404 in disguise.
    writeFileSync(join(dir, 'features.yml'), 'version: "1.4"\nnamespace: default\nflags:\n- key: frozen\n  name: Frozen\n  type: BOOLEAN_FLAG_TYPE\n  enabled: false\n');
    fp = await startFlagpole({ ...FAST_TICKS, FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: dir });
  }, 60_000);

  afterAll(async () => {
    await fp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses every write route with FailedPrecondition and says why; reads answer an empty list', async () => {
    const api = client(fp.url);
    expect(ok(await api.get(`${N('default')}/flags/frozen`)).key).toBe('frozen');
    const id = randomUUID();
    const body = { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] };
    expectError(await api.post(schedules('default', 'frozen'), body), 400, 9, MESSAGE);
    expectError(await api.put(schedulePath('default', 'frozen', id), { steps: body.steps }), 400, 9, MESSAGE);
    expectError(await api.post(`${schedulePath('default', 'frozen', id)}/pause`), 400, 9, MESSAGE);
    expectError(await api.post(`${schedulePath('default', 'frozen', id)}/resume`), 400, 9, MESSAGE);
    expectError(await api.delete(schedulePath('default', 'frozen', id)), 400, 9, MESSAGE);
    expect(ok(await api.get(schedules('default', 'frozen')))).toEqual({ schedules: [] });
    expect(ok(await api.get(`${N('default')}/schedules`))).toEqual({ schedules: [] });
  });
});
