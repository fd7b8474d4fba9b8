/**
 * Flagpole's evaluation core: pure functions over plain data, no framework and no I/O. The storage layer builds a
 * NamespaceSource, compileSnapshot turns it into a Snapshot, and evaluations and the snapshot endpoint read that;
 * a write's NamespaceDelta brings a loaded snapshot forward in place (applyDelta).
 * Flipt's enums (FlagType, ComparisonType, ...) and their names come from src/wire/, which the core imports.
 */
export type * from './source';

export { EvaluationError } from './errors';
export type { EvaluationErrorKind } from './errors';

export {
  ENTITY_ID_PROPERTY,
  isOperatorAllowed,
  LIST_OPERATORS,
  MAX_LIST_ITEMS,
  NO_VALUE_OPERATORS,
  OPERATORS_BY_TYPE,
  goTrimSpace,
  normalizeDateTimeValue,
  parseFliptDateTime,
  parseGoBool,
  parseGoFloat,
} from './operators';

export {
  compileConstraint,
  compileSegment,
  matchConstraint,
  matchSegment,
  parseNumberList,
  parseStringList,
} from './constraints';
export type { CompiledConstraint, CompiledSegment, ConstraintTest } from './constraints';

export {
  distributionBounds,
  selectDistribution,
  thresholdBucket,
  THRESHOLD_BUCKET_COUNT,
  variantBucket,
  VARIANT_BUCKET_COUNT,
} from './bucketing';

export { addFlagsPaced, compileSnapshot, compileSnapshotPaced, orderedFlags, startSnapshot } from './snapshot';
export { applyDelta } from './snapshot-delta';
export type { DeltaOutcome, NamespaceDelta } from './snapshot-delta';
export type {
  CompiledDistribution,
  CompiledFlag,
  CompiledRollout,
  CompiledRule,
  CompiledSegmentRollout,
  CompiledThreshold,
  CompiledVariant,
  CompilePacing,
  LiveSnapshot,
  Snapshot,
} from './snapshot';

export { evaluateBoolean, evaluateVariant, flagType } from './evaluate';
export type { BooleanOutcome, EvaluationInput, Reason, VariantOutcome } from './evaluate';

export { DEFAULT_ACCEPT_SERVER_VERSION, documentVariant, parseAcceptServerVersion, snapshotDocumentText, toSnapshotDocument } from './snapshot-document';
export type {
  SnapshotConstraintDocument,
  SnapshotDistributionDocument,
  SnapshotDocument,
  SnapshotFlagDocument,
  SnapshotRolloutDocument,
  SnapshotRuleDocument,
  SnapshotSegmentDocument,
  Version,
} from './snapshot-document';
