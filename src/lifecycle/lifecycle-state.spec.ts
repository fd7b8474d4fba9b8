import type { LifecycleConfig } from '../config/config.types';
import { policyFor, type LifecyclePolicy } from './lifecycle-policy';
import { judge, type FlagFacts, type Reason } from './lifecycle-state';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.parse('2030-01-01T00:00:00Z');

const CONFIG: LifecycleConfig = {
  enabled: true,
  checkInterval: H,
  defaultKind: 'release',
  lifetimes: { release: 40 * D, experiment: 40 * D, operational: 7 * D },
  unusedAfter: 30 * D,
  rolledOutAfter: 14 * D,
  namespaces: { slow: { defaultKind: 'permission', lifetimes: { release: 90 * D, experiment: 0, operational: 0 } } },
};

const counted = policyFor(CONFIG, 'default', true);
const uncounted = policyFor(CONFIG, 'default', false);
const facts = (extra: Partial<FlagFacts> = {}): FlagFacts => ({
  kind: 'release', archived: false, createdAt: new Date(T0), changedAt: new Date(T0), lastEvaluatedAt: null, ...extra,
});
const summary = (f: FlagFacts, policy: LifecyclePolicy, at: number, previous: Reason[] = []) => {
  const j = judge(f, policy, at, previous);
  return [j.state, ...j.reasons.map((r) => `${r.reason}@${r.since}`)].join(' ');
};

describe('policyFor', () => {
  it.each([
    ['default', true, { defaultKind: 'release', lifetimes: { release: 40 * D, experiment: 40 * D, operational: 7 * D }, counted: true, unusedAfter: 30 * D, rolledOutAfter: 14 * D }],
    ['SLOW', true, { defaultKind: 'permission', lifetimes: { release: 90 * D, experiment: 40 * D, operational: 7 * D }, counted: true, unusedAfter: 30 * D, rolledOutAfter: 14 * D }],
    ['default', false, { defaultKind: 'release', lifetimes: { release: 40 * D, experiment: 40 * D, operational: 7 * D }, counted: false, unusedAfter: 0, rolledOutAfter: 0 }],
  ])('%s (usage counted: %s)', (ns, usage, expected) => {
    expect(policyFor(CONFIG, ns, usage)).toEqual(expected);
  });
});

describe('judge', () => {
  const evaluated = new Date(T0 + 35 * D);
  it.each<[string, FlagFacts, LifecyclePolicy, number, string]>([
    ['archived wins over everything', facts({ archived: true }), counted, T0 + 400 * D, 'archived'],
    ['without analytics, young: live', facts(), uncounted, T0 + D, 'live'],
    ['without analytics, old: lifetime only', facts(), uncounted, T0 + 41 * D, 'potentially_stale lifetime@2030-02-10T00:00:00Z'],
    ['exactly at its lifetime: not yet', facts(), uncounted, T0 + 40 * D, 'live'],
    ['operational at 8 days', facts({ kind: 'operational' }), uncounted, T0 + 8 * D, 'potentially_stale lifetime@2030-01-08T00:00:00Z'],
    ['kill switch: never', facts({ kind: 'kill_switch' }), counted, T0 + 400 * D, 'new'],
    ['permission evaluated: live', facts({ kind: 'permission', lastEvaluatedAt: evaluated }), counted, T0 + 400 * D, 'live'],
    ['never evaluated, young: new', facts(), counted, T0 + D, 'new'],
    ['never evaluated for 31 days: unused from creation', facts(), counted, T0 + 31 * D, 'potentially_stale unused@2030-01-31T00:00:00Z'],
    ['evaluated lately: live', facts({ lastEvaluatedAt: evaluated }), counted, T0 + 36 * D, 'live'],
    ['evaluated long ago: unused from then', facts({ lastEvaluatedAt: new Date(T0 + D) }), counted, T0 + 32 * D, 'potentially_stale unused@2030-02-01T00:00:00Z'],
    ['both reasons', facts(), counted, T0 + 41 * D, 'potentially_stale lifetime@2030-02-10T00:00:00Z unused@2030-01-31T00:00:00Z'],
    ['one value, unchanged for 14 days: rolled out', facts({ lastEvaluatedAt: evaluated, recentValues: new Map([['on', 5]]) }), counted, T0 + 36 * D, 'potentially_stale rolled_out@2030-02-06T00:00:00Z'],
    ['two values: not rolled out', facts({ lastEvaluatedAt: evaluated, recentValues: new Map([['a', 5], ['b', 1]]) }), counted, T0 + 36 * D, 'live'],
    ['no evaluations in the window: not rolled out', facts({ lastEvaluatedAt: evaluated, recentValues: new Map() }), counted, T0 + 36 * D, 'live'],
    ['changed within the window: not rolled out', facts({ lastEvaluatedAt: evaluated, changedAt: new Date(T0 + 30 * D), recentValues: new Map([['on', 5]]) }), counted, T0 + 36 * D, 'live'],
  ])('%s', (_name, f, policy, at, expected) => {
    expect(summary(f, policy, at)).toBe(expected);
  });

  it('keeps the rolled_out since of the previous check, and words each reason', () => {
    const previous: Reason[] = [{ reason: 'rolled_out', since: '2030-02-01T00:00:00Z', detail: '' }];
    const f = facts({ lastEvaluatedAt: evaluated, recentValues: new Map([['', 3]]) });
    expect(judge(f, counted, T0 + 36 * D, previous).reasons).toEqual([
      { reason: 'rolled_out', since: '2030-02-01T00:00:00Z', detail: 'all 3 evaluation(s) in the last 14 days returned no variant, and the flag has not changed since 2030-01-01T00:00:00Z' },
    ]);
    expect(judge(facts({ kind: 'experiment' }), counted, T0 + 41 * D).reasons.map((r) => r.detail)).toEqual([
      'An experiment flag is expected to live 40 days; this one was created 41 days ago',
      'not evaluated in the 41 days since it was created',
    ]);
    expect(judge(facts({ kind: 'operational', lastEvaluatedAt: new Date(T0) }), counted, T0 + 31 * D).reasons.map((r) => r.detail)).toEqual([
      'An operational flag is expected to live 7 days; this one was created 31 days ago',
      'not evaluated for 31 days (last at 2030-01-01T00:00:00Z)',
    ]);
  });
});
