/**
 * The JSON the API sends and takes, by the names the UI uses. Each is the schema Flagpole's OpenAPI document gives
 * (openapi.d.ts, generated from `/docs-json` and checked against the server by test/ui/api-types.e2e-spec.ts), so a
 * change to the API that the UI does not follow fails `tsc -p ui/tsconfig.json`. Only `/meta`'s answers, which the
 * document does not describe (Flipt's metadata service), are written here.
 */
import type { components } from './openapi';

type Schemas = components['schemas'];

export interface Page {
  nextPageToken: string;
  totalCount: number;
}

export type Namespace = Schemas['NamespaceResponse'];
export type Flag = Schemas['FlagResponse'];
export type FlagType = Flag['type'];
export type Variant = Schemas['VariantResponse'];
/** The comparison types a constraint can have: the API refuses UNKNOWN_COMPARISON_TYPE, so none is stored with it. */
export type ComparisonType = Exclude<Schemas['ConstraintResponse']['type'], 'UNKNOWN_COMPARISON_TYPE'>;
export type Constraint = Omit<Schemas['ConstraintResponse'], 'type'> & { type: ComparisonType };
export type Segment = Omit<Schemas['SegmentResponse'], 'constraints'> & { constraints: Constraint[] };
export type MatchType = Segment['matchType'];
export type Rule = Schemas['RuleResponse'];
export type SegmentOperator = Rule['segmentOperator'];
export type Distribution = Schemas['DistributionResponse'];
export type Rollout = Schemas['RolloutResponse'];
/** What an import did (flags as code). */
export type ImportResult = Schemas['ImportResponse'];
export type VariantEvaluation = Schemas['VariantEvaluationResponse'];
export type BooleanEvaluation = Schemas['BooleanEvaluationResponse'];
export type OfrepEvaluation = Schemas['OfrepEvaluationSuccess'];
export type Authentication = Schemas['AuthenticationResponse'];
export type AuthMethod = Schemas['MethodInfoResponse'];

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
