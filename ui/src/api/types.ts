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
/** A scheduled change (issue 41) and its steps; a step's value is one of enabled, percentage, value, distributions. */
export type Schedule = Schemas['ScheduleResponse'];
export type ScheduleType = Schedule['type'];
export type ScheduleStatus = Schedule['status'];
export type Step = Schemas['ScheduleStepResponse'];
export type StepStatus = Step['status'];
export type ScheduleInput = Schemas['CreateScheduleRequest'];
export type StepInput = Schemas['ScheduleStepInput'];
/** What an import did (flags as code). */
export type ImportResult = Schemas['ImportResponse'];
export type VariantEvaluation = Schemas['VariantEvaluationResponse'];
export type BooleanEvaluation = Schemas['BooleanEvaluationResponse'];
export type OfrepEvaluation = Schemas['OfrepEvaluationSuccess'];
export type Authentication = Schemas['AuthenticationResponse'];
export type AuthMethod = Schemas['MethodInfoResponse'];
/** A flag's evaluations per step (analytics), with `series` when grouped and the start of its latest counted minute. */
export type FlagCounts = Schemas['FlagEvaluationsWithLastResponse'];
/** A flag's lifecycle (issue 40): kind, state and why it may be stale; a namespace's flag-health report. */
export type FlagLifecycle = Schemas['FlagLifecycleResponse'];
export type StaleReason = Schemas['StaleReasonResponse'];
export type StaleFlag = Schemas['StaleFlagResponse'];
export type FlagHealth = Schemas['FlagHealthResponse'];

export interface MetaInfo {
  version: string;
  authentication: { required: boolean };
  /** `readOnly` only when true: flag state from files (`type: local`) or `storage.read_only` configured. */
  storage?: { type: string; readOnly?: boolean };
  /** `enabled` only when true: evaluations are counted and the analytics routes are mounted. */
  analytics?: { enabled?: boolean };
  /** `enabled` only when true: flags' lifecycle is checked and its routes are mounted. */
  lifecycle?: { enabled?: boolean };
}

export interface UiSettings {
  defaultTheme?: 'system' | 'dark' | 'light';
  topbar?: { color?: string; label?: string };
}

/** The segment keys of a rule or segment rollout, whichever field the API used. */
export function segmentKeysOf(x: { segmentKey: string; segmentKeys: string[] }): string[] {
  return x.segmentKeys.length > 0 ? x.segmentKeys : x.segmentKey ? [x.segmentKey] : [];
}
