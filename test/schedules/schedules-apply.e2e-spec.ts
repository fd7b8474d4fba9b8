/**
 * Scheduled changes (issue 41), applying them: at their time and not before, seen by every way a client reads flags
 * (evaluation, OFREP bulk, the snapshot's ETag, an open event stream); a progressive rollout paused and resumed; a
 * target deleted meanwhile fails visibly; each applied step is one audit event naming the author and the schedule;
 * a restart while a step is pending applies it late, or skips it past its deadline, recorded either way.
 * Time is the injected Clock (common/clock.ts): nothing here waits for a schedule's time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, BOOTSTRAP, createToken, eventually, TOKEN_REQUIRED, type Api } from '../auth/support';
import {
  createDistribution, createFlag, createNamespace, createRollout, createRule, createSegment, createVariant, N, ok, TIMESTAMP,
} from '../management/support';
import { dropDatabase, freshDatabaseUrl, TEST_DIALECT } from '../support/databases';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { openSse } from '../support/sse';
import { Receiver } from '../audit/support/receiver';
import { ScheduleTargets } from '../../src/schedules/schedule-targets';
import {
  at, auditBarrier, auditEvents, createSchedule, DAY, FAST_TICKS, flagEnabled, getSchedule, HOUR, iso, metricValue, MINUTE,
  schedulePath, scheduleWhen, SECOND, setClock, statuses, T, thresholdOf, tick,
} from './support';

const AUTHOR = 'release-bot';
/**
 * Issue 41: every client sees an applied change within a second of its time. With a round every 100 ms here it takes
 * 140–910 ms on a busy 2-core machine; the test prints it, and bounds it only loosely, because no test here asserts
 * wall-clock time (it must pass on a loaded CI machine). What it asserts is that every reader sees the change from the
 * instance's own rounds, with no tick called.
 */
const WITHIN_MS = 10_000;

describe(`scheduled changes: applying them (${TEST_DIALECT})`, () => {
  let fp: RunningFlagpole;
  let api: Api;
  let admin: Api;

  beforeAll(async () => {
    fp = await startFlagpole({ ...TOKEN_REQUIRED, ...FAST_TICKS });
    admin = client(fp.url, bearer(BOOTSTRAP));
    api = client(fp.url, bearer((await createToken(admin, { name: AUTHOR })).clientToken));
  }, 60_000);

  afterAll(() => fp?.close());
  afterEach(() => jest.restoreAllMocks());

  it('a change at T applies at T and not before, and every reader sees it from the next round (printed: how soon)', async () => {
    await createFlag(api, 'default', 'launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const evaluate = async () => ok(await api.post('/evaluate/v1/boolean', { flagKey: 'launch', entityId: 'u1', context: {} })).enabled as boolean;
    const bulk = async () => {
      const r = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } });
      // The ETag's first part is the namespace's tag; the rest follows the stream ticket, which renews with time.
      const tag = (r.headers.get('etag') ?? '').replace(/"/g, '').split('.')[0];
      return { tag, value: ok(r).flags.find((f: { key: string }) => f.key === 'launch')?.value };
    };
    const snapshot = async () => {
      const r = await api.get('/internal/v1/evaluation/snapshot/namespace/default');
      return { etag: r.headers.get('etag') ?? '', enabled: ok(r).flags.find((f: { key: string }) => f.key === 'launch')?.enabled };
    };
    const created = await createSchedule(api, 'default', 'launch', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
    const [bulk0, snapshot0] = [await bulk(), await snapshot()];
    expect({ evaluated: await evaluate(), bulk: bulk0.value, snapshot: snapshot0.enabled }).toEqual({ evaluated: false, bulk: false, snapshot: false });

    // A second before T: a round runs and nothing changes.
    setClock(fp, T - SECOND);
    await tick(fp);
    const pending = await getSchedule(api, 'default', 'launch', created.id);
    expect({ status: pending.status, steps: statuses(pending), nextAt: pending.nextAt }).toEqual({ status: 'ACTIVE', steps: ['PENDING'], nextAt: at(0) });
    expect(await flagEnabled(api, 'default', 'launch')).toBe(false);
    expect(await evaluate()).toBe(false);
    expect(await bulk()).toEqual(bulk0);
    expect(await snapshot()).toEqual(snapshot0);

    const stream = await openSse(`${fp.url}/ofrep/v1/_stream/default/events`, bearer(BOOTSTRAP));
    try {
      expect(stream.status).toBe(200);
      expect(stream.events).toEqual([]);
      // T: no tick called here, the instance's own ticks must find it.
      setClock(fp, T);
      const start = performance.now();
      const until = async <V>(what: string, read: () => Promise<V>, done: (v: V) => boolean): Promise<V> => {
        let last!: V;
        await eventually(async () => {
          last = await read();
          expect({ what, seen: done(last), last }).toMatchObject({ seen: true });
        }, WITHIN_MS - (performance.now() - start), 50); // the server shares this process: polls left light
        return last;
      };
      const [, newBulk, newSnapshot, event] = await Promise.all([
        until('evaluation', evaluate, (v) => v === true),
        until('OFREP bulk', bulk, (b) => b.value === true && b.tag !== bulk0.tag),
        until('snapshot', snapshot, (s) => s.enabled === true && s.etag !== snapshot0.etag),
        stream.next(WITHIN_MS),
      ]);
      console.log(`a change due at T was seen by evaluation, OFREP bulk, snapshot and stream ${(performance.now() - start).toFixed(0)} ms after the clock reached T`);
      const data = JSON.parse(event.data);
      expect(data.type).toBe('refetchEvaluation');
      // The event names the namespace's new version: the tag that starts the new bulk answers' ETags.
      expect(data.etag).toBe(newBulk.tag);
      expect(newSnapshot.etag).not.toBe('');
    } finally {
      stream.close();
    }
    const applied = await scheduleWhen(api, 'default', 'launch', created.id, (s) => s.status === 'COMPLETED');
    expect(applied.steps).toEqual([expect.objectContaining({ at: at(0), enabled: true, status: 'APPLIED', appliedAt: TIMESTAMP })]);
    expect(applied).not.toHaveProperty('nextAt');
    expect(await flagEnabled(api, 'default', 'launch')).toBe(true);
  }, 30_000);

  it('the gauge flagpole_scheduled_changes_pending follows what is pending', async () => {
    await createFlag(api, 'default', 'gauged', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const pending = () => metricValue(api, 'flagpole_scheduled_changes_pending');
    const before = await pending();
    // A year after T: no other test's clock reaches it, and it is cancelled whatever happens here.
    const s = await createSchedule(api, 'default', 'gauged', { type: 'FLAG_ENABLED', steps: [{ at: at(365 * DAY), enabled: true }] });
    let cancelled = false;
    try {
      expect(await pending()).toBe(before + 1);
      ok(await api.delete(schedulePath('default', 'gauged', s.id)));
      cancelled = true;
      expect(await pending()).toBe(before);
    } finally {
      if (!cancelled) await api.delete(schedulePath('default', 'gauged', s.id));
    }
  });

  it('a progressive rollout 10 → 50 → 100 %, paused and resumed; one audit event per step, by the author, naming the schedule', async () => {
    await createNamespace(api, 'ramp');
    await createFlag(api, 'ramp', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const rollout = (await createRollout(api, 'ramp', 'checkout', { rank: 1, threshold: { percentage: 0, value: true } })).id;
    const appliedBefore = await metricValue(api, 'flagpole_scheduled_changes_total{outcome="applied"}');
    const ramp = await createSchedule(api, 'ramp', 'checkout', {
      description: 'ramp up', type: 'ROLLOUT_THRESHOLD', rolloutId: rollout,
      steps: [{ at: at(0), percentage: 10 }, { at: at(DAY), percentage: 50 }, { at: at(2 * DAY), percentage: 100 }],
    });
    const get = () => getSchedule(api, 'ramp', 'checkout', ramp.id);

    setClock(fp, T);
    await tick(fp);
    let s = await scheduleWhen(api, 'ramp', 'checkout', ramp.id, (x) => x.steps[0].status === 'APPLIED');
    expect({ status: s.status, steps: statuses(s), nextAt: s.nextAt }).toEqual({ status: 'ACTIVE', steps: ['APPLIED', 'PENDING', 'PENDING'], nextAt: at(DAY) });
    expect(await thresholdOf(api, 'ramp', 'checkout', rollout)).toBe(10);

    expect(ok(await api.post(`${schedulePath('ramp', 'checkout', ramp.id)}/pause`)).status).toBe('PAUSED');
    setClock(fp, T + DAY);
    await tick(fp);
    s = await get();
    expect({ status: s.status, steps: statuses(s) }).toEqual({ status: 'PAUSED', steps: ['APPLIED', 'PENDING', 'PENDING'] });
    expect(await thresholdOf(api, 'ramp', 'checkout', rollout)).toBe(10);

    // Resumed after its second step's time: that step applies at the next round.
    expect(ok(await api.post(`${schedulePath('ramp', 'checkout', ramp.id)}/resume`)).status).toBe('ACTIVE');
    await tick(fp);
    s = await scheduleWhen(api, 'ramp', 'checkout', ramp.id, (x) => x.steps[1].status === 'APPLIED');
    expect({ status: s.status, steps: statuses(s), nextAt: s.nextAt }).toEqual({ status: 'ACTIVE', steps: ['APPLIED', 'APPLIED', 'PENDING'], nextAt: at(2 * DAY) });
    expect(await thresholdOf(api, 'ramp', 'checkout', rollout)).toBe(50);

    setClock(fp, T + 2 * DAY);
    await tick(fp);
    s = await scheduleWhen(api, 'ramp', 'checkout', ramp.id, (x) => x.status === 'COMPLETED');
    expect(statuses(s)).toEqual(['APPLIED', 'APPLIED', 'APPLIED']);
    expect(s).not.toHaveProperty('nextAt');
    expect(await thresholdOf(api, 'ramp', 'checkout', rollout)).toBe(100);
    for (const entityId of ['a', 'b', 'c', 'd']) {
      expect(ok(await api.post('/evaluate/v1/boolean', { namespaceKey: 'ramp', flagKey: 'checkout', entityId, context: {} })).enabled).toBe(true);
    }

    await auditBarrier([admin]);
    const updates = await auditEvents(admin, { namespaceKey: 'ramp', flagKey: 'checkout', type: 'rollout', action: 'updated' });
    expect(updates.map((e) => ({ percentage: e.payload.threshold?.percentage, cause: e.metadata.cause, actor: e.metadata.actor.name, method: e.metadata.actor.authentication, status: e.status })))
      .toEqual([100, 50, 10].map((percentage, i) => ({
        percentage, cause: { scheduledChange: ramp.id, step: 2 - i }, actor: AUTHOR, method: 'token', status: 'success',
      })));
    // Nothing else about the flag was written by the schedule.
    const flagUpdates = await auditEvents(admin, { namespaceKey: 'ramp', flagKey: 'checkout', type: 'flag', action: 'updated' });
    expect(flagUpdates).toEqual([]);
    expect(await metricValue(api, 'flagpole_scheduled_changes_total{outcome="applied"}')).toBe(appliedBefore + 3);
  }, 30_000);

  it('a step whose deadline passed while its schedule was paused is skipped at the resume, not applied', async () => {
    await createNamespace(api, 'held');
    await createFlag(api, 'held', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const s = await createSchedule(api, 'held', 'checkout', {
      type: 'FLAG_ENABLED', steps: [{ at: at(0), deadline: at(HOUR), enabled: true }, { at: at(DAY), enabled: false }],
    });
    ok(await api.post(`${schedulePath('held', 'checkout', s.id)}/pause`));
    setClock(fp, T + 2 * HOUR);
    await tick(fp);
    expect(statuses(await getSchedule(api, 'held', 'checkout', s.id))).toEqual(['PENDING', 'PENDING']);
    ok(await api.post(`${schedulePath('held', 'checkout', s.id)}/resume`));
    await tick(fp);
    const after = await scheduleWhen(api, 'held', 'checkout', s.id, (x) => x.steps[0].status !== 'PENDING');
    expect({ status: after.status, steps: statuses(after), nextAt: after.nextAt }).toEqual({ status: 'ACTIVE', steps: ['SKIPPED', 'PENDING'], nextAt: at(DAY) });
    expect(await flagEnabled(api, 'held', 'checkout')).toBe(false);
  }, 30_000);

  it('while an instance holds a schedule to apply its step, an edit, a pause or a cancel answers 409 (code 10); the step then applies', async () => {
    await createNamespace(api, 'busy');
    await createFlag(api, 'busy', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const s = await createSchedule(api, 'busy', 'checkout', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }, { at: at(DAY), enabled: false }] });
    // The write is held until released: the few milliseconds of a real apply, stretched so requests can land in them.
    const targets = fp.app.get(ScheduleTargets);
    const realWrite = targets.write.bind(targets);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held = jest.spyOn(targets, 'write').mockImplementation(async (...args: Parameters<ScheduleTargets['write']>) => {
      await released;
      return realWrite(...args);
    });
    setClock(fp, T);
    const round = tick(fp);
    try {
      await eventually(() => expect(held).toHaveBeenCalled(), 5_000, 10);
      const p = schedulePath('busy', 'checkout', s.id);
      const answers = [
        await api.put(p, { description: 'late edit', steps: [{ at: at(2 * DAY), enabled: false }] }),
        await api.post(`${p}/pause`),
        await api.delete(p),
      ];
      expect(answers.map((r) => ({ status: r.status, code: r.body?.code }))).toEqual([
        { status: 409, code: 10 }, { status: 409, code: 10 }, { status: 409, code: 10 },
      ]);
    } finally {
      release();
      await round;
    }
    const after = await scheduleWhen(api, 'busy', 'checkout', s.id, (x) => x.steps[0].status !== 'PENDING');
    expect({ status: after.status, steps: statuses(after), description: after.description }).toEqual({ status: 'ACTIVE', steps: ['APPLIED', 'PENDING'], description: '' });
    expect(await flagEnabled(api, 'busy', 'checkout')).toBe(true);
    // Released: the same edit now works.
    expect(ok(await api.put(schedulePath('busy', 'checkout', s.id), { description: 'late edit', steps: [{ at: at(2 * DAY), enabled: false }] })).description).toBe('late edit');
  }, 30_000);

  it('a deleted rollout fails its step and the schedule, cancels the later steps, writes nothing, answers no 500', async () => {
    await createNamespace(api, 'doomed');
    await createFlag(api, 'doomed', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const rollout = (await createRollout(api, 'doomed', 'checkout', { rank: 1, threshold: { percentage: 0, value: true } })).id;
    const failedBefore = await metricValue(api, 'flagpole_scheduled_changes_total{outcome="failed"}');
    const doomed = await createSchedule(api, 'doomed', 'checkout', {
      type: 'ROLLOUT_THRESHOLD', rolloutId: rollout,
      steps: [{ at: at(0), percentage: 10 }, { at: at(HOUR), percentage: 50 }, { at: at(2 * HOUR), percentage: 100 }],
    });
    ok(await api.delete(`${N('doomed')}/flags/checkout/rollouts/${rollout}`));

    setClock(fp, T);
    await tick(fp); // resolves: a target that is gone is not an error of the round
    const failed = await scheduleWhen(api, 'doomed', 'checkout', doomed.id, (x) => x.status !== 'ACTIVE');
    expect({ status: failed.status, steps: statuses(failed) }).toEqual({ status: 'FAILED', steps: ['FAILED', 'CANCELLED', 'CANCELLED'] });
    expect(failed.steps[0].message).toMatch(/rollout/i);
    expect(failed).not.toHaveProperty('nextAt');

    // Later times change nothing; nothing was written, every read answers.
    setClock(fp, T + 3 * HOUR);
    await tick(fp);
    expect(statuses(await getSchedule(api, 'doomed', 'checkout', doomed.id))).toEqual(['FAILED', 'CANCELLED', 'CANCELLED']);
    expect(ok(await api.get(`${N('doomed')}/flags/checkout/rollouts`)).rules).toEqual([]);
    expect(ok(await api.get(`${N('doomed')}/flags/checkout/schedules?status=FAILED`)).schedules.map((x: { id: string }) => x.id)).toEqual([doomed.id]);
    expect(ok(await api.post('/evaluate/v1/boolean', { namespaceKey: 'doomed', flagKey: 'checkout', entityId: 'e', context: {} })).enabled).toBe(true);

    await auditBarrier([admin]);
    // No write of the flag's things on the schedule's account: only the schedule's own record of the failure.
    const writes = (await auditEvents(admin, { namespaceKey: 'doomed' })).filter((e) => e.metadata.cause && e.type !== 'schedule');
    expect(writes).toEqual([]);
    const scheduleEvents = (await auditEvents(admin, { namespaceKey: 'doomed', type: 'schedule', action: 'updated' })).filter((e) => e.payload.id === doomed.id);
    expect(scheduleEvents).toHaveLength(1);
    expect(scheduleEvents[0].payload).toMatchObject({ status: 'FAILED', steps: [{ status: 'FAILED', message: failed.steps[0].message }, {}, {}] });
    expect(await metricValue(api, 'flagpole_scheduled_changes_total{outcome="failed"}')).toBe(failedBefore + 1);
  }, 30_000);

  it('a rule\'s distributions and a segment rollout\'s value apply as written through the API; a value already in effect writes nothing', async () => {
    await createNamespace(api, 'types');
    await createFlag(api, 'types', 'colour', { enabled: true });
    const variants: Record<string, string> = {};
    for (const key of ['blue', 'green']) variants[key] = (await createVariant(api, 'types', 'colour', key)).id;
    await createSegment(api, 'types', 'everyone', { matchType: 'ALL_MATCH_TYPE' });
    const rule = (await createRule(api, 'types', 'colour', { segmentKey: 'everyone', rank: 1 })).id;
    for (const key of ['blue', 'green']) await createDistribution(api, 'types', 'colour', rule, { variantId: variants[key], rollout: 50 });
    await createFlag(api, 'types', 'seg', { type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const segRollout = (await createRollout(api, 'types', 'seg', { rank: 1, segment: { segmentKey: 'everyone', value: false } })).id;
    await createFlag(api, 'types', 'same', { type: 'BOOLEAN_FLAG_TYPE', enabled: true });

    const dist = await createSchedule(api, 'types', 'colour', {
      type: 'RULE_DISTRIBUTIONS', ruleId: rule, steps: [{ at: at(0), distributions: [{ variantKey: 'blue', rollout: 80 }, { variantKey: 'green', rollout: 20 }] }],
    });
    const seg = await createSchedule(api, 'types', 'seg', { type: 'ROLLOUT_SEGMENT', rolloutId: segRollout, steps: [{ at: at(0), value: true }] });
    const same = await createSchedule(api, 'types', 'same', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
    setClock(fp, T);
    await tick(fp);
    for (const [flag, s] of [['colour', dist], ['seg', seg], ['same', same]] as const) {
      const done = await scheduleWhen(api, 'types', flag, s.id, (x) => x.status !== 'ACTIVE');
      expect({ flag, status: done.status, steps: statuses(done) }).toEqual({ flag, status: 'COMPLETED', steps: ['APPLIED'] });
    }
    const shares = ok(await api.get(`${N('types')}/flags/colour/rules/${rule}`)).distributions.map((d: { variantId: string; rollout: number }) => [d.variantId, d.rollout]);
    expect(new Map(shares)).toEqual(new Map([[variants.blue, 80], [variants.green, 20]]));
    expect(ok(await api.get(`${N('types')}/flags/seg/rollouts/${segRollout}`)).segment.value).toBe(true);
    expect(ok(await api.post('/evaluate/v1/boolean', { namespaceKey: 'types', flagKey: 'seg', entityId: 'e', context: {} })).enabled).toBe(true);
    expect((await getSchedule(api, 'types', 'same', same.id)).steps[0].message).toBe('already in effect');

    await auditBarrier([admin]);
    const caused = (await auditEvents(admin, { namespaceKey: 'types' })).filter((e) => e.metadata.cause);
    expect(caused.map((e) => `${e.type} ${e.action} ${e.metadata.cause!.scheduledChange}`).sort()).toEqual(
      [`rule updated ${dist.id}`, `rollout updated ${seg.id}`].sort(),
    );
  }, 30_000);

  it('a variant whose distribution was removed fails the step, and the rule keeps its distributions: no partial write', async () => {
    await createNamespace(api, 'shape');
    await createFlag(api, 'shape', 'colour', { enabled: true });
    const variants: Record<string, string> = {};
    for (const key of ['blue', 'green']) variants[key] = (await createVariant(api, 'shape', 'colour', key)).id;
    await createSegment(api, 'shape', 'everyone', { matchType: 'ALL_MATCH_TYPE' });
    const rule = (await createRule(api, 'shape', 'colour', { segmentKey: 'everyone', rank: 1 })).id;
    const made: Record<string, string> = {};
    for (const key of ['blue', 'green']) made[key] = (await createDistribution(api, 'shape', 'colour', rule, { variantId: variants[key], rollout: 50 })).id;
    const s = await createSchedule(api, 'shape', 'colour', {
      type: 'RULE_DISTRIBUTIONS', ruleId: rule, steps: [{ at: at(0), distributions: [{ variantKey: 'blue', rollout: 70 }, { variantKey: 'green', rollout: 30 }] }],
    });
    ok(await api.delete(`${N('shape')}/flags/colour/rules/${rule}/distributions/${made.green}?variantId=${variants.green}`));

    setClock(fp, T);
    await tick(fp);
    const failed = await scheduleWhen(api, 'shape', 'colour', s.id, (x) => x.status !== 'ACTIVE');
    expect({ status: failed.status, steps: statuses(failed) }).toEqual({ status: 'FAILED', steps: ['FAILED'] });
    expect(failed.steps[0].message).toContain('green');
    const shares = ok(await api.get(`${N('shape')}/flags/colour/rules/${rule}`)).distributions.map((d: { variantId: string; rollout: number }) => [d.variantId, d.rollout]);
    expect(shares).toEqual([[variants.blue, 50]]);
  }, 30_000);

  it('a schedule whose flag was deleted fails visibly at its step, listed in its namespace', async () => {
    await createNamespace(api, 'gone');
    await createFlag(api, 'gone', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const s = await createSchedule(api, 'gone', 'checkout', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }, { at: at(HOUR), enabled: false }] });
    ok(await api.delete(`${N('gone')}/flags/checkout`));
    setClock(fp, T + 2 * HOUR);
    await tick(fp);
    let listed: Array<{ id: string; status: string; steps: Array<{ status: string; message?: string }> }> = [];
    await eventually(async () => {
      listed = ok(await api.get(`${N('gone')}/schedules`)).schedules;
      expect(listed.map((x) => [x.id, x.status])).toEqual([[s.id, 'FAILED']]);
    }, 5_000, 20);
    expect(listed[0].steps.map((x) => x.status)).toEqual(['FAILED', 'CANCELLED']);
    expect(listed[0].steps[0].message).toMatch(/flag/);
    expect((await api.get(`${N('gone')}/flags/checkout`)).status).toBe(404);
  }, 30_000);

  describe('a restart while steps are pending', () => {
    let dir: string;
    let dbUrl: string;
    let second: RunningFlagpole;
    let api2: Api;
    let admin2: Api;
    let late: string;
    let skipped: string;
    let skippedBefore = 0;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'flagpole-schedules-restart-'));
      dbUrl = await freshDatabaseUrl(dir);
      const env = { ...TOKEN_REQUIRED, ...FAST_TICKS, FLAGPOLE_DB_URL: dbUrl };
      const first = await startFlagpole(env);
      try {
        const author = client(first.url, bearer((await createToken(client(first.url, bearer(BOOTSTRAP)), { name: AUTHOR })).clientToken));
        await createFlag(author, 'default', 'late', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
        await createFlag(author, 'default', 'skipped', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
        late = (await createSchedule(author, 'default', 'late', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] })).id;
        skipped = (await createSchedule(author, 'default', 'skipped', {
          type: 'FLAG_ENABLED', steps: [{ at: at(0), deadline: at(MINUTE), enabled: true }],
        })).id;
      } finally {
        // Every instance is down when T comes.
        await first.close();
      }
      second = await startFlagpole(env);
      api2 = client(second.url, bearer(BOOTSTRAP));
      admin2 = api2;
      skippedBefore = await metricValue(api2, 'flagpole_scheduled_changes_total{outcome="skipped"}');
    }, 60_000);

    // The instance came back an hour after T (set in each test: the file's afterEach puts the real clock back).
    beforeEach(() => setClock(second, T + HOUR));

    afterAll(async () => {
      await second?.close();
      if (dbUrl) await dropDatabase(dbUrl);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('applies a step without a deadline late, once, recorded as the author\'s', async () => {
      await tick(second);
      const s = await scheduleWhen(api2, 'default', 'late', late, (x) => x.status !== 'ACTIVE');
      expect({ status: s.status, steps: statuses(s) }).toEqual({ status: 'COMPLETED', steps: ['APPLIED'] });
      expect(s.steps[0].appliedAt).toEqual(TIMESTAMP);
      // An hour late: the step says so (docs/api.md: more than a minute late).
      expect(s.steps[0].message).toBeTruthy();
      expect(await flagEnabled(api2, 'default', 'late')).toBe(true);
      await auditBarrier([admin2]);
      const updates = await auditEvents(admin2, { namespaceKey: 'default', flagKey: 'late', type: 'flag', action: 'updated' });
      expect(updates.map((e) => ({ enabled: e.payload.enabled, cause: e.metadata.cause, actor: e.metadata.actor.name })))
        .toEqual([{ enabled: true, cause: { scheduledChange: late, step: 0 }, actor: AUTHOR }]);
    });

    it('skips a step past its deadline, saying when it was due and when it was seen, and records it', async () => {
      await tick(second);
      const s = await scheduleWhen(api2, 'default', 'skipped', skipped, (x) => x.status !== 'ACTIVE');
      expect({ status: s.status, steps: statuses(s) }).toEqual({ status: 'COMPLETED', steps: ['SKIPPED'] });
      expect(s.steps[0].message).toContain(iso(T));
      expect(s.steps[0].message).toContain(iso(T + HOUR));
      expect(await flagEnabled(api2, 'default', 'skipped')).toBe(false);
      await auditBarrier([admin2]);
      expect(await auditEvents(admin2, { namespaceKey: 'default', flagKey: 'skipped', type: 'flag', action: 'updated' })).toEqual([]);
      const recorded = (await auditEvents(admin2, { namespaceKey: 'default', type: 'schedule', action: 'updated' })).filter((e) => e.payload.id === skipped);
      expect(recorded).toHaveLength(1);
      expect(recorded[0].payload).toMatchObject({ steps: [{ status: 'SKIPPED', message: s.steps[0].message }] });
      expect(await metricValue(api2, 'flagpole_scheduled_changes_total{outcome="skipped"}')).toBe(skippedBefore + 1);
    });
  });
});

describe('scheduled changes reach the audit webhook', () => {
  let receiver: Receiver;
  let fp: RunningFlagpole;

  beforeAll(async () => {
    receiver = await Receiver.start();
    fp = await startFlagpole({
      ...TOKEN_REQUIRED, ...FAST_TICKS, FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: `${receiver.url}/hook`,
    });
  }, 60_000);

  afterAll(async () => {
    await fp?.close();
    await receiver?.stop();
  });
  afterEach(() => jest.restoreAllMocks());

  it('an applied step is sent as the flag\'s update, with the author and the cause', async () => {
    const admin = client(fp.url, bearer(BOOTSTRAP));
    const api = client(fp.url, bearer((await createToken(admin, { name: AUTHOR })).clientToken));
    await createFlag(api, 'default', 'hooked', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    const s = await createSchedule(api, 'default', 'hooked', { type: 'FLAG_ENABLED', steps: [{ at: at(0), enabled: true }] });
    setClock(fp, T);
    await tick(fp);
    await scheduleWhen(api, 'default', 'hooked', s.id, (x) => x.status === 'COMPLETED');
    const sent = () => receiver.accepted.filter((e) => e.type === 'flag' && e.action === 'updated' && e.payload?.key === 'hooked');
    await eventually(() => expect(sent()).toHaveLength(1), 10_000, 50);
    expect(sent()[0]).toMatchObject({
      status: 'success', payload: { enabled: true },
      metadata: { actor: { authentication: 'token', name: AUTHOR }, cause: { scheduledChange: s.id, step: 0 } },
    });
  }, 30_000);
});
