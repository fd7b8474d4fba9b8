import { formatTimestamp } from '../common/timestamps';
import type { Constraint } from './constraint.entity';
import { COMPARISON_TYPE_VALUES, MATCH_TYPE_NAMES, type ConstraintResponse, type SegmentResponse } from './segment.dto';
import type { Segment } from './segment.entity';

const COMPARISON_LABEL = Object.fromEntries(Object.entries(COMPARISON_TYPE_VALUES).map(([k, v]) => [v, k]));
const MATCH_LABEL = Object.fromEntries(Object.entries(MATCH_TYPE_NAMES).map(([k, v]) => [v, k]));

export function toConstraintResponse(c: Constraint, namespaceKey: string, segmentKey: string): ConstraintResponse {
  return {
    id: c.id,
    segmentKey,
    type: COMPARISON_LABEL[c.type] ?? 'UNKNOWN_COMPARISON_TYPE',
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
    matchType: MATCH_LABEL[s.matchType] ?? 'ALL_MATCH_TYPE',
    namespaceKey: ns,
  };
}
