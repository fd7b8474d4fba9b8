import { formatTimestamp } from '../common/timestamps';
import { SEGMENT_OPERATOR_LABEL, segmentKeyFields } from '../rules/rule.mapper';
import type { RolloutResponse } from './rollout.dto';
import { Rollout, RolloutType } from './rollout.entity';

export const ROLLOUT_TYPE_LABEL: Record<number, string> = {
  [RolloutType.UNKNOWN]: 'UNKNOWN_ROLLOUT_TYPE',
  [RolloutType.SEGMENT]: 'SEGMENT_ROLLOUT_TYPE',
  [RolloutType.THRESHOLD]: 'THRESHOLD_ROLLOUT_TYPE',
};

/** The rollout must have its segments (with their segment) loaded. */
export function toRolloutResponse(r: Rollout, namespaceKey: string, flagKey: string): RolloutResponse {
  const out: RolloutResponse = {
    id: r.id,
    namespaceKey,
    flagKey,
    type: ROLLOUT_TYPE_LABEL[r.type] ?? 'UNKNOWN_ROLLOUT_TYPE',
    rank: r.rank,
    description: r.description,
    createdAt: formatTimestamp(r.createdAt),
    updatedAt: formatTimestamp(r.updatedAt),
  };
  if (r.type === RolloutType.THRESHOLD) {
    out.threshold = { percentage: r.percentage ?? 0, value: r.value };
  } else if (r.type === RolloutType.SEGMENT) {
    const keys = r.segments.getItems().map((rs) => rs.segment.key);
    const { segmentKey, segmentKeys } = segmentKeyFields(keys);
    out.segment = { segmentKey, value: r.value, segmentKeys, segmentOperator: SEGMENT_OPERATOR_LABEL[r.segmentOperator] ?? 'OR_SEGMENT_OPERATOR' };
  }
  return out;
}
