import { formatTimestamp } from '../common/timestamps';
import { COMPARISON_TYPE_NAMES, ComparisonType, MATCH_TYPE_NAMES, MatchType } from '../wire';
import type { Constraint } from './constraint.entity';
import type { ConstraintResponse, SegmentResponse } from './segment.dto';
import type { Segment } from './segment.entity';

export function toConstraintResponse(c: Constraint, namespaceKey: string, segmentKey: string): ConstraintResponse {
  return {
    id: c.id,
    segmentKey,
    type: COMPARISON_TYPE_NAMES[c.type] ?? COMPARISON_TYPE_NAMES[ComparisonType.UNKNOWN],
    property: c.property,
    operator: c.operator,
    value: c.value,
    createdAt: formatTimestamp(c.createdAt),
    updatedAt: formatTimestamp(c.updatedAt),
    namespaceKey,
    description: c.description,
  };
}

export function toSegmentResponse(s: Segment): SegmentResponse {
  const ns = s.namespace.key;
  const constraints = s.constraints.isInitialized() ? s.constraints.getItems() : [];
  return {
    key: s.key,
    name: s.name,
    description: s.description,
    createdAt: formatTimestamp(s.createdAt),
    updatedAt: formatTimestamp(s.updatedAt),
    constraints: constraints.map((c) => toConstraintResponse(c, ns, s.key)),
    matchType: MATCH_TYPE_NAMES[s.matchType] ?? MATCH_TYPE_NAMES[MatchType.ALL],
    namespaceKey: ns,
  };
}
