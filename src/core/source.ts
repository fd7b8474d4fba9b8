/**
 * Plain rows the storage loader hands to the core, one namespace at a time. Enum fields keep Flipt's numeric enum
 * values (src/wire/) so that the loader can copy columns without translating them; the core owns their meaning.
 */

export interface SourceConstraint {
  id: string;
  /** ComparisonType (src/wire/comparison-type.ts) */
  type: number;
  property: string;
  operator: string;
  value: string;
}

export interface SourceSegment {
  key: string;
  name: string;
  description: string;
  /** MatchType (src/wire/match-type.ts) */
  matchType: number;
  /** In created_at order. */
  constraints: SourceConstraint[];
}

export interface SourceVariant {
  id: string;
  key: string;
  /** Compact JSON text, or '' when the variant has no attachment. */
  attachment: string;
}

/** Listed in created_at order: that order decides which variant owns which buckets. */
export interface SourceDistribution {
  id: string;
  variantId: string;
  rollout: number;
}

export interface SourceRule {
  id: string;
  rank: number;
  segmentKeys: string[];
  /** SegmentOperator (src/wire/segment-operator.ts) */
  segmentOperator: number;
  distributions: SourceDistribution[];
}

export interface SourceRollout {
  id: string;
  rank: number;
  /** RolloutType (src/wire/rollout-type.ts) */
  type: number;
  description: string;
  threshold?: { percentage: number; value: boolean };
  segment?: { segmentKeys: string[]; segmentOperator: number; value: boolean };
}

export interface SourceFlag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  /** FlagType (src/wire/flag-type.ts) */
  type: number;
  /** Already formatted as RFC 3339. */
  createdAt: string;
  updatedAt: string;
  defaultVariantId: string | null;
  variants: SourceVariant[];
  rules: SourceRule[];
  rollouts: SourceRollout[];
}

export interface NamespaceSource {
  key: string;
  /** Opaque; changes on every write to the namespace. */
  version: string;
  /** In created_at order. */
  flags: SourceFlag[];
  segments: SourceSegment[];
}
