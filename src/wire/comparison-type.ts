/**
 * Flipt's constraint ComparisonType: its names in the management API (flipt.proto's ComparisonType), in the snapshot
 * document (evaluation.proto's EvaluationConstraintComparisonType), and the word Flipt's validation messages use
 * (`constraint operator "xyz" is not valid for type <word>`).
 */
import { type EnumNames, respelled, valuesByName } from './enum-names';

export enum ComparisonType {
  UNKNOWN = 0,
  STRING = 1,
  NUMBER = 2,
  BOOLEAN = 3,
  DATETIME = 4,
  ENTITY_ID = 5,
}

export const COMPARISON_TYPE_NAMES: EnumNames = Object.freeze({
  [ComparisonType.UNKNOWN]: 'UNKNOWN_COMPARISON_TYPE',
  [ComparisonType.STRING]: 'STRING_COMPARISON_TYPE',
  [ComparisonType.NUMBER]: 'NUMBER_COMPARISON_TYPE',
  [ComparisonType.BOOLEAN]: 'BOOLEAN_COMPARISON_TYPE',
  [ComparisonType.DATETIME]: 'DATETIME_COMPARISON_TYPE',
  [ComparisonType.ENTITY_ID]: 'ENTITY_ID_COMPARISON_TYPE',
} satisfies Record<ComparisonType, string>);

export const COMPARISON_TYPES_BY_NAME = valuesByName(COMPARISON_TYPE_NAMES);

/** As the snapshot document writes them: `STRING_CONSTRAINT_COMPARISON_TYPE`. */
export const CONSTRAINT_COMPARISON_TYPE_NAMES = respelled(COMPARISON_TYPE_NAMES, '_COMPARISON_TYPE', '_CONSTRAINT_COMPARISON_TYPE');

/** UNKNOWN has no word: Flipt refuses it before any message would name it. */
export const COMPARISON_TYPE_WORDS: EnumNames = Object.freeze({
  [ComparisonType.STRING]: 'string',
  [ComparisonType.NUMBER]: 'number',
  [ComparisonType.BOOLEAN]: 'boolean',
  [ComparisonType.DATETIME]: 'datetime',
  [ComparisonType.ENTITY_ID]: 'entityId',
} satisfies Record<Exclude<ComparisonType, ComparisonType.UNKNOWN>, string>);
