/** The JSON the API sends and takes (Flipt v1's shapes, docs/api.md). Only the fields the UI uses. */

export interface Page {
  nextPageToken: string;
  totalCount: number;
}

export interface Namespace {
  key: string;
  name: string;
  description: string;
  protected: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export type FlagType = 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';

export interface Variant {
  id: string;
  flagKey: string;
  key: string;
  name: string;
  description: string;
  /** JSON text, or "" for none. */
  attachment: string;
}

export interface Flag {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: FlagType;
  namespaceKey: string;
  variants: Variant[];
  defaultVariant?: Variant;
  /** Free-form JSON kept with the flag; evaluation ignores it. Absent when the flag has none. */
  metadata?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}

export type MatchType = 'ALL_MATCH_TYPE' | 'ANY_MATCH_TYPE';

export type ComparisonType =
  | 'STRING_COMPARISON_TYPE'
  | 'NUMBER_COMPARISON_TYPE'
  | 'BOOLEAN_COMPARISON_TYPE'
  | 'DATETIME_COMPARISON_TYPE'
  | 'ENTITY_ID_COMPARISON_TYPE';

export interface Constraint {
  id: string;
  segmentKey: string;
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}

export interface Segment {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
  constraints: Constraint[];
  namespaceKey: string;
  createdAt?: string;
  updatedAt?: string;
}

export type SegmentOperator = 'OR_SEGMENT_OPERATOR' | 'AND_SEGMENT_OPERATOR';

export interface Distribution {
  id: string;
  ruleId: string;
  variantId: string;
  rollout: number;
}

export interface Rule {
  id: string;
  flagKey: string;
  /** Set when the rule has exactly one segment; `segmentKeys` lists two or more. */
  segmentKey: string;
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  distributions: Distribution[];
  rank: number;
}

export interface Rollout {
  id: string;
  flagKey: string;
  type: 'SEGMENT_ROLLOUT_TYPE' | 'THRESHOLD_ROLLOUT_TYPE';
  rank: number;
  description: string;
  segment?: { segmentKey: string; segmentKeys: string[]; segmentOperator: SegmentOperator; value: boolean };
  threshold?: { percentage: number; value: boolean };
}

export interface VariantEvaluation {
  match: boolean;
  segmentKeys: string[];
  reason: string;
  variantKey: string;
  variantAttachment: string;
  requestId: string;
  requestDurationMillis: number;
  timestamp: string;
  flagKey: string;
}

export interface BooleanEvaluation {
  enabled: boolean;
  reason: string;
  requestId: string;
  requestDurationMillis: number;
  timestamp: string;
  flagKey: string;
  segmentKeys: string[];
}

/** OFREP's answer for one flag (docs/api.md, "OFREP"). */
export interface OfrepEvaluation {
  key: string;
  /** The boolean of a boolean flag; the variant key of a variant flag ("" when none applies). */
  value: boolean | string;
  variant: string;
  reason: 'TARGETING_MATCH' | 'DEFAULT' | 'DISABLED' | 'UNKNOWN';
  /** `segments` (comma-joined keys) and `attachment` (JSON text) for variant flags, each only when not empty. */
  metadata: Record<string, string>;
}

export interface Authentication {
  id: string;
  method: string;
  expiresAt?: string;
  createdAt?: string;
  updatedAt?: string;
  metadata: Record<string, string>;
}

export interface AuthMethod {
  method: 'METHOD_TOKEN' | 'METHOD_GITHUB' | 'METHOD_OIDC' | 'METHOD_KUBERNETES' | 'METHOD_JWT';
  enabled: boolean;
  sessionCompatible: boolean;
  metadata?: { providers?: Record<string, unknown> };
}

export interface MetaInfo {
  version: string;
  authentication: { required: boolean };
  /** `readOnly` only when true: flag state from files (`type: local`) or `storage.read_only` configured. */
  storage?: { type: string; readOnly?: boolean };
}

export interface UiSettings {
  defaultTheme?: 'system' | 'dark' | 'light';
  topbar?: { color?: string; label?: string };
}

/** The segment keys of a rule or segment rollout, whichever field the API used. */
export function segmentKeysOf(x: { segmentKey: string; segmentKeys: string[] }): string[] {
  return x.segmentKeys.length > 0 ? x.segmentKeys : x.segmentKey ? [x.segmentKey] : [];
}
