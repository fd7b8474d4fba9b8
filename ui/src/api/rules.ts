import { api, enc } from './client';
import type { Distribution, Rule, SegmentOperator } from './types';

const rulesOf = (ns: string, flagKey: string) => `api/v1/namespaces/${enc(ns)}/flags/${enc(flagKey)}/rules`;

/** A flag's rules in rank order (limit 0 = all). */
export async function listRules(ns: string, flagKey: string, signal?: AbortSignal): Promise<Rule[]> {
  return (await api.get<{ rules: Rule[] }>(rulesOf(ns, flagKey), { signal })).rules;
}

export interface RuleInput {
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
}

export const createRule = (ns: string, flagKey: string, input: RuleInput, rank: number) =>
  api.post<Rule>(rulesOf(ns, flagKey), { ...input, rank });

export const updateRule = (ns: string, flagKey: string, id: string, input: RuleInput) =>
  api.put<Rule>(`${rulesOf(ns, flagKey)}/${enc(id)}`, input);

export const deleteRule = (ns: string, flagKey: string, id: string) => api.delete(`${rulesOf(ns, flagKey)}/${enc(id)}`);

export const orderRules = (ns: string, flagKey: string, ruleIds: string[]) => api.put(`${rulesOf(ns, flagKey)}/order`, { ruleIds });

const distributionsOf = (ns: string, flagKey: string, ruleId: string) => `${rulesOf(ns, flagKey)}/${enc(ruleId)}/distributions`;

export const createDistribution = (ns: string, flagKey: string, ruleId: string, variantId: string, rollout: number) =>
  api.post<Distribution>(distributionsOf(ns, flagKey, ruleId), { variantId, rollout });

export const updateDistribution = (ns: string, flagKey: string, ruleId: string, id: string, variantId: string, rollout: number) =>
  api.put<Distribution>(`${distributionsOf(ns, flagKey, ruleId)}/${enc(id)}`, { variantId, rollout });

/** The API wants the variant id again, as a query parameter. */
export const deleteDistribution = (ns: string, flagKey: string, ruleId: string, id: string, variantId: string) =>
  api.delete(`${distributionsOf(ns, flagKey, ruleId)}/${enc(id)}`, { query: { variantId } });
