/**
 * Scheduled changes (issue 41, a Flagpole addition): one thing of one flag set at given times, applied by the server
 * as an ordinary write. A schedule of several steps is a progressive rollout (10 % now, 50 % tomorrow, 100 % Monday).
 * Cancelling is a DELETE that keeps the schedule listed as a record, its pending steps cancelled.
 */
import { api, enc } from './client';
import type { Schedule, ScheduleInput, ScheduleStatus, StepInput } from './types';

export type { Schedule, ScheduleInput, ScheduleStatus, ScheduleType, Step, StepInput, StepStatus } from './types';

const schedulesOf = (ns: string, flagKey: string) => `api/v1/namespaces/${enc(ns)}/flags/${enc(flagKey)}/schedules`;
const scheduleOf = (ns: string, flagKey: string, id: string) => `${schedulesOf(ns, flagKey)}/${enc(id)}`;

/** A flag's schedules, newest first, finished ones included (they are its record). */
export async function listSchedules(ns: string, flagKey: string, signal?: AbortSignal): Promise<Schedule[]> {
  return (await api.get<{ schedules: Schedule[] }>(schedulesOf(ns, flagKey), { signal })).schedules;
}

/** Every flag's schedules in the namespace, newest first; `status` keeps only those in it. */
export async function listNamespaceSchedules(ns: string, status?: ScheduleStatus, signal?: AbortSignal): Promise<Schedule[]> {
  return (await api.get<{ schedules: Schedule[] }>(`api/v1/namespaces/${enc(ns)}/schedules`, { query: { status }, signal })).schedules;
}

export const getSchedule = (ns: string, flagKey: string, id: string, signal?: AbortSignal) =>
  api.get<Schedule>(scheduleOf(ns, flagKey, id), { signal });

export const createSchedule = (ns: string, flagKey: string, input: ScheduleInput) => api.post<Schedule>(schedulesOf(ns, flagKey), input);

/** Replaces the description and the steps not applied yet; only while the schedule is active or paused. */
export const updateSchedule = (ns: string, flagKey: string, id: string, input: { description?: string; steps: StepInput[] }) =>
  api.put<Schedule>(scheduleOf(ns, flagKey, id), input);

export const pauseSchedule = (ns: string, flagKey: string, id: string) => api.post<Schedule>(`${scheduleOf(ns, flagKey, id)}/pause`, {});

export const resumeSchedule = (ns: string, flagKey: string, id: string) => api.post<Schedule>(`${scheduleOf(ns, flagKey, id)}/resume`, {});

/** Cancels: the schedule stays listed, CANCELLED, with its pending steps cancelled. */
export const cancelSchedule = (ns: string, flagKey: string, id: string) => api.delete(scheduleOf(ns, flagKey, id));
