/**
 * Flipt's wire format, written once: its enums (numbers and the names protobuf JSON gives them), the names evaluation
 * answers carry, and how protobuf JSON spells a field. Plain TypeScript that imports nothing outside this folder, so
 * the pure core (src/core/) can use it as freely as entities, DTOs, mappers, validation and services.
 */
export { type EnumNames, valuesByName } from './enum-names';
export { FLAG_TYPE_NAMES, FLAG_TYPES_BY_NAME, FlagType } from './flag-type';
export { MATCH_TYPE_NAMES, MATCH_TYPES_BY_NAME, MatchType, SEGMENT_MATCH_TYPE_NAMES } from './match-type';
export { SEGMENT_OPERATOR_NAMES, SEGMENT_OPERATORS_BY_NAME, SegmentOperator } from './segment-operator';
export { ROLLOUT_TYPE_NAMES, RolloutType } from './rollout-type';
export {
  COMPARISON_TYPE_NAMES,
  COMPARISON_TYPE_WORDS,
  COMPARISON_TYPES_BY_NAME,
  ComparisonType,
  CONSTRAINT_COMPARISON_TYPE_NAMES,
} from './comparison-type';
export { Method } from './auth-method';
export { FLAG_KINDS, type FlagKind } from './flag-kinds';
export { ERROR_REASON_NAMES, LEGACY_REASON_NAMES, REASON_NAMES, RESPONSE_TYPE_NAMES, type Reason } from './reasons';
export { camelToSnake, jsonField, jsonFieldName, snakeToCamel } from './json-fields';
