/** Flipt's SegmentOperator for rules and segment rollouts (flipt.proto and evaluation.proto agree). */
import { type EnumNames, valuesByName } from './enum-names';

export enum SegmentOperator {
  OR = 0,
  AND = 1,
}

export const SEGMENT_OPERATOR_NAMES: EnumNames = Object.freeze({
  [SegmentOperator.OR]: 'OR_SEGMENT_OPERATOR',
  [SegmentOperator.AND]: 'AND_SEGMENT_OPERATOR',
} satisfies Record<SegmentOperator, string>);

export const SEGMENT_OPERATORS_BY_NAME = valuesByName(SEGMENT_OPERATOR_NAMES);
