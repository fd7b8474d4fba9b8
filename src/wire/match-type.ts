/**
 * Flipt's segment MatchType. The management API (flipt.proto's MatchType) and the snapshot document (evaluation.proto's
 * EvaluationSegmentMatchType) spell the same numbers differently.
 */
import { type EnumNames, respelled, valuesByName } from './enum-names';

export enum MatchType {
  ALL = 0,
  ANY = 1,
}

export const MATCH_TYPE_NAMES: EnumNames = Object.freeze({
  [MatchType.ALL]: 'ALL_MATCH_TYPE',
  [MatchType.ANY]: 'ANY_MATCH_TYPE',
} satisfies Record<MatchType, string>);

export const MATCH_TYPES_BY_NAME = valuesByName(MATCH_TYPE_NAMES);

/** As the snapshot document writes them: `ALL_SEGMENT_MATCH_TYPE`. */
export const SEGMENT_MATCH_TYPE_NAMES = respelled(MATCH_TYPE_NAMES, '_MATCH_TYPE', '_SEGMENT_MATCH_TYPE');
