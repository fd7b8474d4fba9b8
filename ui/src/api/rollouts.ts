import { api, enc } from './client';
import type { Rollout, SegmentOperator } from './types';

const rolloutsOf = (ns: string, flagKey: string) => `api/v1/namespaces/${enc(ns)}/flags/${enc(flagKey)}/rollouts`;

/** A boolean flag's rollouts in rank order. The list's field is `rules` (sic, as in Flipt). */
export async function listRollouts(ns: string, flagKey: string, signal?: AbortSignal): Promise<Rollout[]> {
  return (await api.get<{ rules: Rollout[] }>(rolloutsOf(ns, flagKey), { signal })).rules;
}

export type RolloutInput =
  | { description: string; threshold: { percentage: number; value: boolean } }
  | { description: string; segment: { segmentKeys: string[]; segmentOperator: SegmentOperator; value: boolean } };

export const createRollout = (ns: string, flagKey: string, input: RolloutInput, rank: number) =>
  api.post<Rollout>(rolloutsOf(ns, flagKey), { ...input, rank });

export const updateRollout = (ns: string, flagKey: string, id: string, input: RolloutInput) =>
  api.put<Rollout>(`${rolloutsOf(ns, flagKey)}/${enc(id)}`, input);

export const deleteRollout = (ns: string, flagKey: string, id: string) => api.delete(`${rolloutsOf(ns, flagKey)}/${enc(id)}`);

export const orderRollouts = (ns: string, flagKey: string, rolloutIds: string[]) =>
  api.put(`${rolloutsOf(ns, flagKey)}/order`, { rolloutIds });
