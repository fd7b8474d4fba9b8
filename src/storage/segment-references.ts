/**
 * Rules and segment rollouts name their segments through join rows that keep the order given (`position`). Setting
 * them is written once here for both.
 */
import type { Collection, EntityManager } from '@mikro-orm/core';
import type { Segment } from '../segments/segment.entity';

/**
 * Replaces the references in `refs` by one per segment, in order. The old rows are removed through the unit of work
 * and flushed before the new ones are added: a kept segment has the same composite key, and a native delete would
 * leave the old entity in the identity map to swallow the new insert.
 */
export async function setSegmentReferences<R extends object>(
  em: EntityManager,
  refs: Collection<R>,
  segments: Segment[],
  reference: (segment: Segment, position: number) => R,
): Promise<void> {
  const old = refs.getItems();
  if (old.length > 0) {
    old.forEach((row) => em.remove(row));
    await em.flush();
  }
  segments.forEach((segment, position) => refs.add(reference(segment, position)));
}
