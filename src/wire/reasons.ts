/**
 * The names evaluation answers carry (evaluation.proto): the reason of an outcome, keyed by the core's outcome
 * reasons; the reason of an error item in a batch; the type of a batch item; and the legacy `/api/v1/evaluate`
 * reasons (flipt.proto's EvaluationReason). Responses and metrics labels read the same tables.
 */

export const REASON_NAMES = Object.freeze({
  UNKNOWN: 'UNKNOWN_EVALUATION_REASON',
  FLAG_DISABLED: 'FLAG_DISABLED_EVALUATION_REASON',
  MATCH: 'MATCH_EVALUATION_REASON',
  DEFAULT: 'DEFAULT_EVALUATION_REASON',
} as const);

/** Why an evaluation ended as it did (core/evaluate.ts decides it). */
export type Reason = keyof typeof REASON_NAMES;

export const ERROR_REASON_NAMES = Object.freeze({
  UNKNOWN: 'UNKNOWN_ERROR_EVALUATION_REASON',
  NOT_FOUND: 'NOT_FOUND_ERROR_EVALUATION_REASON',
} as const);

/** A batch item's type, keyed by the flag kind the core reports (`flagType`), or ERROR. */
export const RESPONSE_TYPE_NAMES = Object.freeze({
  VARIANT: 'VARIANT_EVALUATION_RESPONSE_TYPE',
  BOOLEAN: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
  ERROR: 'ERROR_EVALUATION_RESPONSE_TYPE',
} as const);

/** Legacy answers may carry every reason above and two of their own. */
export const LEGACY_REASON_NAMES: readonly string[] = Object.freeze([
  ...Object.values(REASON_NAMES),
  'FLAG_NOT_FOUND_EVALUATION_REASON',
  'ERROR_EVALUATION_REASON',
]);
