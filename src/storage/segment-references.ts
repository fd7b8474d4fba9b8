/**
 * Rules and segment rollouts name their segments through join rows that keep the order given (`position`):
 * `rule_segments` and `rollout_segments`. Setting them, and asking whether any names a segment, is written once here
 * for both.
 */
import type { Collection, EntityManager } from '@mikro-orm/core';
import { knexOf } from './rows';

/**
 * Replaces the references in `refs` by one per segment, in order. The old rows are removed through the unit of work
 * and flushed before the new ones are added: a kept segment has the same composite key, and a native delete would
 * leave the old entity in the identity map to swallow the new insert.
 */
export async function setSegmentReferences<S, R extends object>(
  em: EntityManager,
  refs: Collection<R>,
  segments: S[],
  reference: (segment: S, position: number) => R,
): Promise<void> {
  const old = refs.getItems();
  if (old.length > 0) {
    old.forEach((row) => em.remove(row));
    await em.flush();
  }
  segments.forEach((segment, position) => refs.add(reference(segment, position)));
}

/**
 * Whether a rule or a rollout names the segment (their references keep it from being deleted): one query over both
 * join tables, stopping at the first row.
 */
export async function segmentInUse(em: EntityManager, segmentId: string): Promise<boolean> {
  const knex = knexOf(em);
  const rows = await knex
    .select(knex.raw('1'))
    .from('rule_segments')
    .where('segment_id', segmentId)
    .unionAll((union) => union.select(knex.raw('1')).from('rollout_segments').where('segment_id', segmentId))
    .limit(1);
  return (rows as unknown[]).length > 0;
}
