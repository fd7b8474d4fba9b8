import { formatTimestamp } from '../common/timestamps';
import type { Distribution } from './distribution.entity';
import { SEGMENT_OPERATOR_NAMES, SegmentOperator } from '../wire';
import type { DistributionResponse, RuleResponse } from './rule.dto';
import type { Rule } from './rule.entity';

/** Flipt's output rule: one segment goes in `segmentKey`, two or more in `segmentKeys`. */
export function segmentKeyFields(keys: string[]): { segmentKey: string; segmentKeys: string[] } {
  return keys.length === 1 ? { segmentKey: keys[0], segmentKeys: [] } : { segmentKey: '', segmentKeys: keys };
}

export function toDistributionResponse(d: Distribution): DistributionResponse {
  return {
    id: d.id,
    ruleId: d.rule.id,
    variantId: d.variant.id,
    rollout: d.rollout,
    createdAt: formatTimestamp(d.createdAt),
    updatedAt: formatTimestamp(d.updatedAt),
  };
}

/** The rule must have its segments (with their segment) and distributions loaded. */
export function toRuleResponse(r: Rule, namespaceKey: string, flagKey: string): RuleResponse {
  const keys = r.segments.getItems().map((rs) => rs.segment.key);
  const { segmentKey, segmentKeys } = segmentKeyFields(keys);
  return {
    id: r.id,
    flagKey,
    segmentKey,
    distributions: r.distributions.getItems().map(toDistributionResponse),
    rank: r.rank,
    createdAt: formatTimestamp(r.createdAt),
    updatedAt: formatTimestamp(r.updatedAt),
    namespaceKey,
    segmentKeys,
    segmentOperator: SEGMENT_OPERATOR_NAMES[r.segmentOperator] ?? SEGMENT_OPERATOR_NAMES[SegmentOperator.OR],
  };
}
