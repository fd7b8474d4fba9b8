/** Flipt's RolloutType (flipt.proto; evaluation.proto's EvaluationRolloutType has the same numbers and names). */
import type { EnumNames } from './enum-names';

export enum RolloutType {
  UNKNOWN = 0,
  SEGMENT = 1,
  THRESHOLD = 2,
}

export const ROLLOUT_TYPE_NAMES: EnumNames = Object.freeze({
  [RolloutType.UNKNOWN]: 'UNKNOWN_ROLLOUT_TYPE',
  [RolloutType.SEGMENT]: 'SEGMENT_ROLLOUT_TYPE',
  [RolloutType.THRESHOLD]: 'THRESHOLD_ROLLOUT_TYPE',
} satisfies Record<RolloutType, string>);
