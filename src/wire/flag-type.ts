/** Flipt's FlagType (flipt.proto; evaluation.proto's EvaluationFlagType has the same numbers and names). */
import { type EnumNames, valuesByName } from './enum-names';

export enum FlagType {
  VARIANT = 0,
  BOOLEAN = 1,
}

export const FLAG_TYPE_NAMES: EnumNames = Object.freeze({
  [FlagType.VARIANT]: 'VARIANT_FLAG_TYPE',
  [FlagType.BOOLEAN]: 'BOOLEAN_FLAG_TYPE',
} satisfies Record<FlagType, string>);

export const FLAG_TYPES_BY_NAME = valuesByName(FLAG_TYPE_NAMES);
