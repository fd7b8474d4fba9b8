/**
 * Shared pieces of the flag lifecycle suites (issue 40, docs/api.md "Flag lifecycle"): the injected clock, one check,
 * the routes, and flags made as if created in the past (the lifecycle compares analytics' real minutes with a flag's
 * age, so the suites that need evaluations move the flags' creation back instead of the clock forward).
 */
import { Clock } from '../../src/common/clock';
import { LifecycleCheck } from '../../src/lifecycle/lifecycle-check';
import * as columns from '../../src/storage/columns';
import { N, ok, type Api } from '../management/support';
import type { RunningFlagpole } from '../support/flagpole';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The five kinds, one flag each, plus one without a kind (the default, release) and one archived. */
export const KIND_FLAGS: Record<string, Record<string, unknown> | undefined> = {
  'a-release': { flagpole: { kind: 'release' } },
  'an-experiment': { flagpole: { kind: 'experiment' }, team: 'growth' },
  'an-operational': { flagpole: { kind: 'operational' } },
  'a-kill-switch': { flagpole: { kind: 'kill_switch' } },
  'a-permission': { flagpole: { kind: 'permission' } },
  'no-kind': undefined,
  'an-archived': { flagpole: { kind: 'release', archived: true } },
};

/** One lifecycle check at `at` on the instance's clock (ms since the epoch); resolves when it is done. */
export async function checkAt(fp: RunningFlagpole, at: number): Promise<number> {
  const clock = jest.spyOn(fp.app.get(Clock), 'now').mockReturnValue(at);
  try {
    return await fp.app.get(LifecycleCheck).check();
  } finally {
    clock.mockRestore();
  }
}

/** Runs `make` with every row it stores stamped `at` (created and updated then), as if it had been made then. */
export async function madeAt<T>(at: number, make: () => Promise<T>): Promise<T> {
  let t = at;
  const now = jest.spyOn(columns, 'now').mockImplementation(() => new Date(t++));
  try {
    return await make();
  } finally {
    now.mockRestore();
  }
}

export interface Lifecycle {
  namespaceKey: string;
  flagKey: string;
  kind: string;
  state: string;
  reasons: Array<{ reason: string; since: string; detail: string }>;
  createdAt: string;
  lastEvaluatedAt: string | null;
  checkedAt: string | null;
}

export async function lifecycleOf(api: Api, ns: string, key: string): Promise<Lifecycle> {
  return ok<Lifecycle>(await api.get(`${N(ns)}/flags/${key}/lifecycle`));
}

/** Each flag's state and reason names, by key: what most assertions compare. */
export async function statesOf(api: Api, ns: string, keys: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const l = await lifecycleOf(api, ns, key);
    out[key] = [l.state, ...l.reasons.map((r) => r.reason)].join(' ');
  }
  return out;
}

/** The keys `GET …/flags?stale=…` lists, sorted. */
export async function listed(api: Api, ns: string, stale: boolean): Promise<string[]> {
  const body = ok<{ flags: Array<{ key: string }> }>(await api.get(`${N(ns)}/flags?limit=100&stale=${stale}`));
  return body.flags.map((f) => f.key).sort();
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
