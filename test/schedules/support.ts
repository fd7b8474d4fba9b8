/**
 * Shared pieces of the scheduled-changes suites (issue 41, .tmp/schedules-contract.md): routes, the injected clock,
 * one tick of the runner, and bounded polls of what a user sees. Times are far in the future (2030), so no schedule
 * here can come due by the machine's own clock: only the injected one moves them.
 */
import { eventually, type Api } from '../auth/support';
import { N, ok } from '../management/support';
import type { RunningFlagpole } from '../support/flagpole';
import { Clock } from '../../src/common/clock';
import { ScheduleRunner } from '../../src/schedules/schedule-runner';

/** A tick every 100 ms, so a due step is picked up fast without a test calling tick() itself. */
export const FAST_TICKS: Record<string, string> = { FLAGPOLE_SCHEDULES_POLL_INTERVAL: '100ms' };

/** 2030-01-01T09:00:00Z and friends: `at(0)` is T, `at(3_600_000)` an hour later. */
export const T = Date.parse('2030-01-01T09:00:00Z');
export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
export const at = (offsetMs = 0) => iso(T + offsetMs);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const schedules = (ns: string, flag: string) => `${N(ns)}/flags/${flag}/schedules`;
export const schedulePath = (ns: string, flag: string, id: string) => `${schedules(ns, flag)}/${id}`;

export interface Step {
  at: string;
  deadline?: string;
  enabled?: boolean;
  percentage?: number;
  value?: boolean;
  distributions?: Array<{ variantKey: string; rollout: number }>;
  status: 'PENDING' | 'APPLIED' | 'SKIPPED' | 'FAILED' | 'CANCELLED';
  appliedAt?: string;
  message?: string;
}

export interface Schedule {
  id: string;
  namespaceKey: string;
  flagKey: string;
  description: string;
  type: string;
  rolloutId?: string;
  ruleId?: string;
  status: 'ACTIVE' | 'PAUSED' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  steps: Step[];
  nextAt?: string;
  createdBy: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** Sets an instance's schedule clock (ms since the epoch); it stays there until set again. */
export function setClock(fp: RunningFlagpole, ms: number): void {
  const clock = fp.app.get(Clock);
  jest.spyOn(clock, 'now').mockReturnValue(ms);
}

/** One round of the instance's runner, at once; resolves when it is done. */
export function tick(fp: RunningFlagpole): Promise<unknown> {
  return fp.app.get(ScheduleRunner).tick();
}

export async function createSchedule(api: Api, ns: string, flag: string, body: Record<string, unknown>): Promise<Schedule> {
  return ok<Schedule>(await api.post(schedules(ns, flag), body));
}

export async function getSchedule(api: Api, ns: string, flag: string, id: string): Promise<Schedule> {
  return ok<Schedule>(await api.get(schedulePath(ns, flag, id)));
}

/**
 * Polls the schedule until `done` holds (bounded: the last reading is in the failure). A tick comes every 100 ms
 * (FAST_TICKS); the bound is for a busy machine, not a measure of speed.
 */
export async function scheduleWhen(api: Api, ns: string, flag: string, id: string, done: (s: Schedule) => boolean, timeoutMs = 5_000): Promise<Schedule> {
  let last!: Schedule;
  await eventually(async () => {
    last = await getSchedule(api, ns, flag, id);
    expect({ done: done(last), schedule: last }).toMatchObject({ done: true });
  }, timeoutMs, 20);
  return last;
}

/** The step statuses, in order: what most assertions compare. */
export const statuses = (s: Schedule) => s.steps.map((step) => step.status);

/** A value of the flag as the REST API reads it. */
export async function flagEnabled(api: Api, ns: string, flag: string): Promise<boolean> {
  return ok(await api.get(`${N(ns)}/flags/${flag}`)).enabled;
}

export async function thresholdOf(api: Api, ns: string, flag: string, rolloutId: string): Promise<number> {
  return ok(await api.get(`${N(ns)}/flags/${flag}/rollouts/${rolloutId}`)).threshold.percentage;
}

export interface StoredEvent {
  id: string;
  type: string;
  action: string;
  status: string;
  metadata: { actor: Record<string, string>; cause?: { scheduledChange: string; step: number } };
  payload: Record<string, any>;
}

/** The stored audit trail matching `params` (the newest first). */
export async function auditEvents(api: Api, params: Record<string, string>): Promise<StoredEvent[]> {
  const q = new URLSearchParams({ limit: '100', ...params });
  return ok<{ events: StoredEvent[] }>(await api.get(`/api/v1/audit/events?${q}`)).events;
}

/**
 * Makes sure every audit event committed so far on these instances is in the stored trail: each one writes a marker
 * (a flag created in namespace `audit-barrier`, so no stream of another namespace hears of it) and this waits for
 * the markers' events. Each instance stores its events in commit
 * order, so an extra event (a duplicate apply) committed before the markers is there too: no fixed sleep needed.
 */
export async function auditBarrier(apis: Api[]): Promise<void> {
  const ns = 'audit-barrier';
  if ((await apis[0].get(N(ns))).status === 404) ok(await apis[0].post('/api/v1/namespaces', { key: ns, name: ns }));
  const keys = await Promise.all(
    apis.map(async (api, i) => {
      const key = `audit-barrier-${Date.now()}-${i}-${Math.floor(Math.random() * 1e6)}`;
      ok(await api.post(`${N(ns)}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE' }));
      return key;
    }),
  );
  await eventually(async () => {
    for (const key of keys) expect(await auditEvents(apis[0], { namespaceKey: ns, flagKey: key, type: 'flag', action: 'created' })).toHaveLength(1);
  }, 10_000, 50);
}

/** A counter's value from /metrics (0 when the series is not there yet). */
export async function metricValue(api: Api, series: string): Promise<number> {
  const text = (await api.get('/metrics')).text as string;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
