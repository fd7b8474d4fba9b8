/**
 * Storage access for the segment aggregate: segments and their constraints. Rules and rollouts resolve the segments
 * they name here, never through the segments service.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import { KeyedInNamespace } from '../storage/keyed-in-namespace';
import { namespacedRef } from '../storage/lookup';
import { segmentInUse } from '../storage/segment-references';
import { Constraint } from './constraint.entity';
import { Segment } from './segment.entity';

/** How Flipt's messages name a segment: `segment "<namespace>/<key>"`. */
export function segmentRef(namespaceKey: string, key: string): string {
  return namespacedRef('segment', namespaceKey, key);
}

@Injectable()
export class SegmentRepository extends KeyedInNamespace<Segment> {
  constructor() {
    super(Segment, 'segment', 'constraints');
  }

  /** The segments named, in the order named; null when any is missing. */
  async inOrder(em: EntityManager, namespaceKey: string, keys: string[]): Promise<Segment[] | null> {
    const found = await em.find(Segment, { namespace: namespaceKey, key: { $in: keys } });
    const byKey = new Map(found.map((s) => [s.key, s]));
    const ordered = keys.map((k) => byKey.get(k));
    return ordered.every((s): s is Segment => s !== undefined) ? ordered : null;
  }

  /** Whether a rule or a rollout names the segment (their references keep it from being deleted). */
  async inUse(em: EntityManager, segment: Segment): Promise<boolean> {
    return segmentInUse(em, segment.id);
  }

  async delete(em: EntityManager, segment: Segment): Promise<void> {
    await em.nativeDelete(Segment, { id: segment.id });
  }

  /** A constraint of the segment `<namespaceKey>/<segmentKey>`, or null. */
  findConstraint(em: EntityManager, namespaceKey: string, segmentKey: string, id: string): Promise<Constraint | null> {
    return em.findOne(Constraint, { id, segment: { key: segmentKey, namespace: namespaceKey } });
  }

  async deleteConstraint(em: EntityManager, constraint: Constraint): Promise<void> {
    await em.nativeDelete(Constraint, { id: constraint.id });
  }
}
