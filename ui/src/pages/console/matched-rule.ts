/**
 * Which rule (variant flag) or rollout (boolean flag) gave an answer, found from the answer's `segmentKeys` alone,
 * never by evaluating constraints here. The evaluator walks them by rank and stops at the first that matches; an OR
 * rule reports the segments that matched (one or more of its own), an AND rule all of its own. So the first one by
 * rank whose segments could have given those keys is the one that answered: any earlier one that could have would
 * have matched first.
 */
import { segmentKeysOf, type Rollout, type Rule, type SegmentOperator } from '../../api/types';

export interface Found<T> {
  item: T;
  /** 1-based, by rank: the number the flag's page shows. */
  position: number;
}

/** Could segments `own`, combined by `operator`, have matched reporting `answered`? */
function couldAnswer(own: string[], operator: SegmentOperator, answered: string[]): boolean {
  const ownSet = new Set(own);
  const answeredSet = new Set(answered);
  if (answeredSet.size === 0 || ![...answeredSet].every((k) => ownSet.has(k))) return false;
  return operator === 'AND_SEGMENT_OPERATOR' ? answeredSet.size === ownSet.size : true;
}

const byRank = <T extends { rank: number }>(items: T[]) => [...items].sort((a, b) => a.rank - b.rank);

/** The rule that answered a variant match with these segment keys; undefined when none could have (rules changed). */
export function ruleThatAnswered(rules: Rule[], segmentKeys: string[]): Found<Rule> | undefined {
  const ranked = byRank(rules);
  const i = ranked.findIndex((r) => couldAnswer(segmentKeysOf(r), r.segmentOperator, segmentKeys));
  return i < 0 ? undefined : { item: ranked[i], position: i + 1 };
}

export type RolloutFinding =
  | { found: Found<Rollout> }
  /** Several percentage rollouts serve this value, and the answer does not say which one's bucket it fell in. */
  | { candidates: number }
  | { none: true };

/**
 * The rollout that answered a boolean MATCH. With segment keys it is a segment rollout, found as rules are. Without
 * them a percentage (threshold) rollout answered: that is unambiguous only when one alone serves the answered value.
 */
export function rolloutThatAnswered(rollouts: Rollout[], answer: { enabled: boolean; segmentKeys: string[] }): RolloutFinding {
  const ranked = byRank(rollouts);
  if (answer.segmentKeys.length > 0) {
    const i = ranked.findIndex((r) => r.segment && couldAnswer(segmentKeysOf(r.segment), r.segment.segmentOperator, answer.segmentKeys));
    return i >= 0 && ranked[i].segment!.value === answer.enabled ? { found: { item: ranked[i], position: i + 1 } } : { none: true };
  }
  const serving = ranked.flatMap((r, i) => (r.threshold?.value === answer.enabled ? [{ item: r, position: i + 1 }] : []));
  if (serving.length === 1) return { found: serving[0] };
  return serving.length === 0 ? { none: true } : { candidates: serving.length };
}
