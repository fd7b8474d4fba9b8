import { formatTimestamp } from '../common/timestamps';
import { segmentKeyFields } from '../rules/rule.mapper';
import { ROLLOUT_TYPE_NAMES, RolloutType, SEGMENT_OPERATOR_NAMES, SegmentOperator } from '../wire';
import type { RolloutResponse } from './rollout.dto';
import type { Rollout } from './rollout.entity';

/** The rollout must have its segments (with their segment) loaded. */
export function toRolloutResponse(r: Rollout, namespaceKey: string, flagKey: string): RolloutResponse {
  const out: RolloutResponse = {
    id: r.id,
    namespaceKey,
    flagKey,
    type: ROLLOUT_TYPE_NAMES[r.type] ?? ROLLOUT_TYPE_NAMES[RolloutType.UNKNOWN],
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
    out.segment = { segmentKey, value: r.value, segmentKeys, segmentOperator: SEGMENT_OPERATOR_NAMES[r.segmentOperator] ?? SEGMENT_OPERATOR_NAMES[SegmentOperator.OR] };
  }
  return out;
}
