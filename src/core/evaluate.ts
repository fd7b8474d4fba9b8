/**
 * Flag evaluation against a compiled snapshot, reproducing Flipt v1's variant and boolean algorithms step for step
 * (facts §6.1–6.4), including their less obvious outcomes: a disabled boolean flag still runs its rollouts, and a
 * variant rule whose bucket falls outside every distribution ends the evaluation without a match.
 */
import { FLAG_TYPE_NAMES, FlagType, type Reason, SegmentOperator } from '../wire';
import { selectDistribution, thresholdBucket, variantBucket } from './bucketing';
import { matchSegment } from './constraints';
import { EvaluationError, flagNotFound, unknownConstraintType } from './errors';
import type { CompiledFlag, SegmentLink, Snapshot } from './snapshot';

export interface EvaluationInput {
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export type { Reason };

export interface VariantOutcome {
  match: boolean;
  reason: Reason;
  variantKey: string;
  variantAttachment: string;
  segmentKeys: string[];
  flagKey: string;
}

export interface BooleanOutcome {
  enabled: boolean;
  reason: 'MATCH' | 'DEFAULT';
  segmentKeys: string[];
  flagKey: string;
}

const EMPTY_CONTEXT: Readonly<Record<string, string>> = Object.freeze({});

function findFlag(s: Snapshot, flagKey: string): CompiledFlag {
  const flag = s.flags.get(flagKey);
  if (!flag) throw flagNotFound(s.key, flagKey);
  return flag;
}

/**
 * Keys of the matched segments, in the order the rule or rollout lists them (Flipt's order is random), when the
 * segment operator is satisfied; null otherwise. An operator other than OR / AND applies unconditionally, as in
 * Flipt, whose check has no default branch.
 */
function matchedSegmentKeys(
  segmentOperator: number,
  links: readonly SegmentLink[],
  context: Readonly<Record<string, string>>,
  entityId: string,
): string[] | null {
  // Flipt evaluates every segment of a rule it reaches, so a bad constraint anywhere in it is an error.
  for (let i = 0; i < links.length; i++) if (links[i].current?.hasUnknownType) throw unknownConstraintType();
  const keys: string[] = [];
  for (let i = 0; i < links.length; i++) {
    const segment = links[i].current;
    if (segment === null) continue;
    if (matchSegment(segment, context, entityId)) keys.push(segment.key);
    else if (segmentOperator === SegmentOperator.AND) return null;
  }
  if (segmentOperator === SegmentOperator.OR && keys.length === 0) return null;
  return keys;
}

/** Evaluates a variant flag (v2 `/evaluate/v1/variant`, legacy `/api/v1/evaluate`). */
export function evaluateVariant(s: Snapshot, input: EvaluationInput): VariantOutcome {
  const flag = findFlag(s, input.flagKey);
  if (flag.type !== FlagType.VARIANT) {
    throw new EvaluationError('INVALID', `flag type ${FLAG_TYPE_NAMES[FlagType.BOOLEAN]} invalid`);
  }
  const fallback = flag.defaultVariant;
  const unmatchedReason: Reason = fallback ? 'DEFAULT' : 'UNKNOWN';
  const fallbackKey = fallback ? fallback.key : '';
  const fallbackAttachment = fallback ? fallback.attachment : '';

  if (!flag.enabled) {
    return outcome(false, 'FLAG_DISABLED', fallbackKey, fallbackAttachment, [], flag.key);
  }

  const context = input.context ?? EMPTY_CONTEXT;
  for (const rule of flag.rules) {
    const segmentKeys = matchedSegmentKeys(rule.segmentOperator, rule.segments, context, input.entityId);
    if (segmentKeys === null) continue;

    // The first applying rule decides, even when its distributions leave this entity's bucket uncovered.
    if (rule.distributions.length === 0) {
      return outcome(true, 'MATCH', fallbackKey, fallbackAttachment, segmentKeys, flag.key);
    }
    const index = selectDistribution(rule.bounds, variantBucket(flag.key, input.entityId));
    if (index < 0) {
      return outcome(false, unmatchedReason, fallbackKey, fallbackAttachment, segmentKeys, flag.key);
    }
    const d = rule.distributions[index];
    return outcome(true, 'MATCH', d.variantKey, d.variantAttachment, segmentKeys, flag.key);
  }
  return outcome(false, unmatchedReason, fallbackKey, fallbackAttachment, [], flag.key);
}

function outcome(
  match: boolean,
  reason: Reason,
  variantKey: string,
  variantAttachment: string,
  segmentKeys: string[],
  flagKey: string,
): VariantOutcome {
  return { match, reason, variantKey, variantAttachment, segmentKeys, flagKey };
}

/**
 * Evaluates a boolean flag (v2 `/evaluate/v1/boolean`). `enabled` is only the fallback value: rollouts run even
 * when the flag is disabled.
 */
export function evaluateBoolean(s: Snapshot, input: EvaluationInput): BooleanOutcome {
  const flag = findFlag(s, input.flagKey);
  if (flag.type !== FlagType.BOOLEAN) {
    throw new EvaluationError('INVALID', `flag type ${FLAG_TYPE_NAMES[FlagType.VARIANT]} invalid`);
  }
  const context = input.context ?? EMPTY_CONTEXT;
  let bucket = -1;
  for (const rollout of flag.rollouts) {
    const threshold = rollout.threshold;
    if (threshold) {
      if (bucket < 0) bucket = thresholdBucket(input.entityId, flag.key);
      if (bucket < threshold.percentage32) {
        return { enabled: threshold.value, reason: 'MATCH', segmentKeys: [], flagKey: flag.key };
      }
      continue;
    }
    const segment = rollout.segment;
    if (!segment) continue;
    const segmentKeys = matchedSegmentKeys(segment.segmentOperator, segment.segments, context, input.entityId);
    if (segmentKeys !== null) {
      return { enabled: segment.value, reason: 'MATCH', segmentKeys, flagKey: flag.key };
    }
  }
  return { enabled: flag.enabled, reason: 'DEFAULT', segmentKeys: [], flagKey: flag.key };
}

/** The kind of a flag, so that batch evaluation can dispatch; undefined when the flag does not exist. */
export function flagType(s: Snapshot, flagKey: string): 'VARIANT' | 'BOOLEAN' | undefined {
  const flag = s.flags.get(flagKey);
  if (!flag) return undefined;
  return flag.type === FlagType.BOOLEAN ? 'BOOLEAN' : 'VARIANT';
}
