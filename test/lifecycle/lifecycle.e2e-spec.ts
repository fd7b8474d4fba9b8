/**
 * Flag lifecycle without analytics (issue 40; docs/api.md "Flag lifecycle"): flags of every kind made now, the
 * injected clock moved on, one check, and what the routes, the `?stale` filter, the gauge and a webhook then show.
 * Evaluations are not counted here, so the only reason is `lifetime`, and flags not stale are `live`.
 */
import { eventually } from '../auth/support';
import { metricFamily } from '../support/metric-family';
import { Receiver } from '../audit/support/receiver';
import { createFlag, createNamespace, expectError, expectInvalidNaming, N, ok, type Api } from '../management/support';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { checkAt, DAY, HOUR, iso, KIND_FLAGS, lifecycleOf, listed, statesOf } from './support';

const ENV = {
  FLAGPOLE_METRICS_ENABLED: 'true',
  FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
  FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s',
  // The namespace `slow`: its flags are permissions unless they say otherwise, and its releases live 2000 h (83 days).
  FLAGPOLE_LIFECYCLE_NAMESPACES_SLOW_DEFAULT_KIND: 'permission',
  FLAGPOLE_LIFECYCLE_NAMESPACES_SLOW_LIFETIMES_RELEASE: '2000h',
};
const keys = Object.keys(KIND_FLAGS);
const ctx = {} as { fp: RunningFlagpole; api: Api };
let rx: Receiver;
let t0 = 0;

beforeAll(async () => {
  rx = await Receiver.start();
  ctx.fp = await startFlagpole({ ...ENV, FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: rx.url });
  ctx.api = client(ctx.fp.url);
  for (const [key, metadata] of Object.entries(KIND_FLAGS)) await createFlag(ctx.api, 'default', key, metadata ? { metadata } : {});
  await createNamespace(ctx.api, 'slow');
  await createFlag(ctx.api, 'slow', 'slow-default');
  await createFlag(ctx.api, 'slow', 'slow-release', { metadata: { flagpole: { kind: 'release' } } });
  await createFlag(ctx.api, 'slow', 'slow-experiment', { metadata: { flagpole: { kind: 'experiment' } } });
  // Just after every flag was made: "n days on" is n days after each of them.
  t0 = Date.now();
});

/** The stale and unstale events the webhook has taken, as `action key`. */
const lifecycleEvents = () => rx.accepted.filter((e) => e.action === 'stale' || e.action === 'unstale').map((e) => `${e.action} ${e.payload.namespace_key}/${e.payload.key}`);

describe('flag lifecycle by age', () => {
  it('judges nothing stale at first: without analytics every flag not archived is live', async () => {
    await checkAt(ctx.fp, t0);
    expect(await statesOf(ctx.api, 'default', keys)).toEqual({
      'a-release': 'live', 'an-experiment': 'live', 'an-operational': 'live', 'a-kill-switch': 'live', 'a-permission': 'live',
      'no-kind': 'live', 'an-archived': 'archived',
    });
    expect(await listed(ctx.api, 'default', true)).toEqual([]);
  });

  it('finds the operational flag stale after 8 days, and only it', async () => {
    await checkAt(ctx.fp, t0 + 8 * DAY);
    const l = await lifecycleOf(ctx.api, 'default', 'an-operational');
    expect(l).toMatchObject({ namespaceKey: 'default', flagKey: 'an-operational', kind: 'operational', state: 'potentially_stale', lastEvaluatedAt: null, checkedAt: iso(t0 + 8 * DAY) });
    expect(l.reasons).toEqual([{ reason: 'lifetime', since: expect.any(String), detail: 'An operational flag is expected to live 7 days; this one was created 8 days ago' }]);
    // Its lifetime ran out 7 days after it was made.
    expect(Date.parse(l.reasons[0].since) - Date.parse(l.createdAt)).toBe(7 * DAY);
    expect(await listed(ctx.api, 'default', true)).toEqual(['an-operational']);
  });

  it('after 41 days finds exactly the temporary kinds stale, never the permanent ones nor the archived one', async () => {
    await checkAt(ctx.fp, t0 + 41 * DAY);
    expect(await statesOf(ctx.api, 'default', keys)).toEqual({
      'a-release': 'potentially_stale lifetime',
      'an-experiment': 'potentially_stale lifetime',
      'an-operational': 'potentially_stale lifetime',
      'a-kill-switch': 'live',
      'a-permission': 'live',
      'no-kind': 'potentially_stale lifetime',
      'an-archived': 'archived',
    });
    expect((await lifecycleOf(ctx.api, 'default', 'no-kind')).kind).toBe('release');
    expect((await lifecycleOf(ctx.api, 'default', 'an-experiment')).reasons[0].detail).toBe('An experiment flag is expected to live 40 days; this one was created 41 days ago');
    expect(await listed(ctx.api, 'default', true)).toEqual(['a-release', 'an-experiment', 'an-operational', 'no-kind']);
    expect(await listed(ctx.api, 'default', false)).toEqual(['a-kill-switch', 'a-permission', 'an-archived']);
    // The filter narrows the count too, and goes with the others.
    const page = ok(await ctx.api.get(`${N('default')}/flags?limit=2&stale=true&search=an-`));
    expect({ keys: page.flags.map((f: { key: string }) => f.key), totalCount: page.totalCount }).toEqual({ keys: ['an-experiment', 'an-operational'], totalCount: 2 });
  });

  it('applies a namespace\'s own default kind and lifetimes', async () => {
    expect(await statesOf(ctx.api, 'slow', ['slow-default', 'slow-release', 'slow-experiment'])).toEqual({
      'slow-default': 'live', 'slow-release': 'live', 'slow-experiment': 'potentially_stale lifetime',
    });
    expect((await lifecycleOf(ctx.api, 'slow', 'slow-default')).kind).toBe('permission');
    await checkAt(ctx.fp, t0 + 84 * DAY);
    expect(await statesOf(ctx.api, 'slow', ['slow-default', 'slow-release'])).toEqual({ 'slow-default': 'live', 'slow-release': 'potentially_stale lifetime' });
  });
});

describe('flag health', () => {
  it('counts the namespace\'s flags by state and kind and pages its stale flags', async () => {
    const at = t0 + 41 * DAY;
    await checkAt(ctx.fp, at);
    const first = ok(await ctx.api.get(`${N('default')}/flag-health?limit=3`));
    expect(first).toEqual({
      namespaceKey: 'default',
      checkedAt: iso(at),
      counts: { new: 0, live: 2, potentiallyStale: 4, archived: 1 },
      kinds: { release: 3, experiment: 1, operational: 1, kill_switch: 1, permission: 1 },
      staleFlags: ['a-release', 'an-experiment', 'an-operational'].map((flagKey) => ({ flagKey, kind: expect.any(String), reasons: [expect.objectContaining({ reason: 'lifetime' })], since: expect.any(String) })),
      nextOffset: 3,
    });
    const second = ok(await ctx.api.get(`${N('default')}/flag-health?limit=3&offset=3`));
    expect({ keys: second.staleFlags.map((f: { flagKey: string }) => f.flagKey), next: second.nextOffset }).toEqual({ keys: ['no-kind'], next: null });
  });

  it('refuses a bad page and answers 404 for what does not exist', async () => {
    expectInvalidNaming(await ctx.api.get(`${N('default')}/flag-health?limit=1001`), 'limit');
    expectInvalidNaming(await ctx.api.get(`${N('default')}/flag-health?limit=0`), 'limit');
    expectInvalidNaming(await ctx.api.get(`${N('default')}/flag-health?offset=-1`), 'offset');
    expectInvalidNaming(await ctx.api.get(`${N('default')}/flag-health?limit=abc`), 'limit');
    expectError(await ctx.api.get(`${N('nope')}/flag-health`), 404, 5, 'namespace "nope" not found');
    expectError(await ctx.api.get(`${N('default')}/flags/nope/lifecycle`), 404, 5, 'flag "default/nope" not found');
  });
});

describe('stale events and the gauge', () => {
  it('sends one stale event per flag that becomes stale, none on the next check, and unstale when it stops', async () => {
    await rx.until(() => expect(lifecycleEvents()).toEqual(expect.arrayContaining([
      'stale default/an-operational', 'stale default/a-release', 'stale default/an-experiment', 'stale default/no-kind', 'stale slow/slow-experiment', 'stale slow/slow-release',
    ])));
    const before = lifecycleEvents();
    expect(before.filter((e) => e === 'stale default/an-operational')).toHaveLength(1);
    expect(before.filter((e) => e === 'stale default/a-release')).toHaveLength(1);
    const event = rx.accepted.find((e) => e.action === 'stale' && e.payload.key === 'a-release');
    expect(event).toMatchObject({
      version: '0.2', type: 'flag', action: 'stale', status: 'success',
      metadata: { actor: { authentication: 'none', name: 'lifecycle check' } },
      payload: { key: 'a-release', namespace_key: 'default', kind: 'release', reasons: [{ reason: 'lifetime', since: expect.any(String), detail: expect.any(String) }] },
    });

    // Checked again: still stale, nothing new.
    await checkAt(ctx.fp, t0 + 42 * DAY);
    // Archived: out of potentially stale, one unstale event.
    const current = ok(await ctx.api.get(`${N('default')}/flags/a-release`));
    ok(await ctx.api.put(`${N('default')}/flags/a-release`, { name: current.name, metadata: { flagpole: { kind: 'release', archived: true } } }));
    // The flag's own route says so at once; the stored state (the filter) after the next check.
    expect((await lifecycleOf(ctx.api, 'default', 'a-release')).state).toBe('archived');
    await checkAt(ctx.fp, t0 + 42 * DAY);
    await rx.until(() => expect(lifecycleEvents()).toContain('unstale default/a-release'));
    // A marker write: every event of the checks above was sent before it.
    await createFlag(ctx.api, 'default', 'marker');
    await rx.until(() => expect(rx.accepted.some((e) => e.action === 'created' && e.payload.key === 'marker')).toBe(true));
    expect(lifecycleEvents().slice(before.length).filter((e) => e.includes(' default/'))).toEqual(['unstale default/a-release']);
    expect(await listed(ctx.api, 'default', true)).toEqual(['an-experiment', 'an-operational', 'no-kind']);
    // The stored trail has them under the flag.
    await eventually(async () => {
      const trail = ok(await ctx.api.get('/api/v1/audit/events?flagKey=a-release&namespaceKey=default&action=stale'));
      expect(trail.events).toHaveLength(1);
    });
  });

  it('reports the potentially stale flags per namespace on /metrics', async () => {
    const text = (await ctx.api.get('/metrics')).text;
    const family = metricFamily(text, 'flagpole_flags_potentially_stale')!;
    expect(family).toContain('flagpole_flags_potentially_stale{namespace="default"} 3');
    // slow-release, stale at 84 days, was judged again at 41 days since.
    expect(family).toContain('flagpole_flags_potentially_stale{namespace="slow"} 1');
  });

  it('drops a deleted flag at once from what is read, and judges one made again under its key afresh', async () => {
    ok(await ctx.api.delete(`${N('default')}/flags/no-kind`));
    expect(ok(await ctx.api.get(`${N('default')}/flag-health`)).counts.potentiallyStale).toBe(2);
    expect(await listed(ctx.api, 'default', true)).toEqual(['an-experiment', 'an-operational']);
    await createFlag(ctx.api, 'default', 'no-kind');
    await checkAt(ctx.fp, Date.now());
    expect(await statesOf(ctx.api, 'default', ['no-kind'])).toEqual({ 'no-kind': 'live' });
  });
});

describe('metadata.flagpole', () => {
  const refused: Array<[string, unknown, string]> = [
    ['an unknown kind', { kind: 'forever' }, 'metadata.flagpole.kind'],
    ['a kind that is not text', { kind: 3 }, 'metadata.flagpole.kind'],
    ['archived not a boolean', { archived: 'yes' }, 'metadata.flagpole.archived'],
    ['an unknown key', { kind: 'release', owner: 'me' }, 'metadata.flagpole.owner'],
    ['not an object', 'release', 'metadata.flagpole'],
    ['a list', ['release'], 'metadata.flagpole'],
    ['null', null, 'metadata.flagpole'],
  ];

  it.each(refused)('refuses %s on create and update, naming the field', async (_what, value, field) => {
    expectInvalidNaming(await ctx.api.post(`${N('default')}/flags`, { key: 'bad-meta', name: 'x', metadata: { flagpole: value } }), field);
    expectInvalidNaming(await ctx.api.put(`${N('default')}/flags/a-permission`, { name: 'x', metadata: { flagpole: value } }), field);
    expect((await ctx.api.get(`${N('default')}/flags/bad-meta`)).status).toBe(404);
  });

  it('keeps other metadata as it is, and takes an empty marker', async () => {
    const made = ok(await ctx.api.post(`${N('default')}/flags`, { key: 'good-meta', name: 'x', metadata: { flagpole: {}, owner: { team: 'a' } } }));
    expect(made.metadata).toEqual({ flagpole: {}, owner: { team: 'a' } });
    expect((await lifecycleOf(ctx.api, 'default', 'good-meta')).kind).toBe('release');
  });

  it('refuses a bad ?stale value', async () => {
    expectInvalidNaming(await ctx.api.get(`${N('default')}/flags?stale=maybe`), 'stale');
  });
});

afterAll(async () => {
  await ctx.fp?.close();
  await rx?.stop();
});

describe('lifecycle.enabled: false', () => {
  let off: RunningFlagpole;
  beforeAll(async () => {
    off = await startFlagpole({ FLAGPOLE_LIFECYCLE_ENABLED: 'false', FLAGPOLE_METRICS_ENABLED: 'true' });
  });
  afterAll(() => off?.close());

  it('serves no lifecycle routes and no gauge, and still checks the metadata', async () => {
    const api = client(off.url);
    await createFlag(api, 'default', 'f');
    expect((await api.get(`${N('default')}/flags/f/lifecycle`)).status).toBe(404);
    expect((await api.get(`${N('default')}/flag-health`)).status).toBe(404);
    expect(ok(await api.get(`${N('default')}/flags?stale=true`)).flags).toEqual([]);
    expect(metricFamily((await api.get('/metrics')).text, 'flagpole_flags_potentially_stale')).toBeUndefined();
    expectInvalidNaming(await api.put(`${N('default')}/flags/f`, { name: 'f', metadata: { flagpole: { kind: 'forever' } } }), 'metadata.flagpole.kind');
  });
});
