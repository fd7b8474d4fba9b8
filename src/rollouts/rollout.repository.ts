/** Storage access for rollouts: ranked children of a flag (see storage/ranks.ts) with their segment references. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import type { Page } from '../common/pagination';
import type { Flag } from '../flags/flag.entity';
import type { Segment } from '../segments/segment.entity';
import { found } from '../storage/lookup';
import { pagedList, PagedList } from '../storage/paged-list';
import { RANK_ORDER, RankedChildren } from '../storage/ranks';
import { setSegmentReferences } from '../storage/segment-references';
import { RolloutSegment } from './rollout-segment.entity';
import { Rollout } from './rollout.entity';

/** What a rollout response needs loaded. */
const POPULATE = ['segments.segment', 'flag'] as const;

@Injectable()
export class RolloutRepository extends RankedChildren<Rollout> {
  constructor() {
    super(Rollout);
  }

  /** The rollout, loaded for a response, or Flipt's `rollout "<ns>/<id>" not found`. */
  async get(em: EntityManager, namespaceKey: string, id: string): Promise<Rollout> {
    const rollout = await em.findOne(Rollout, { id, flag: { namespace: namespaceKey } }, { populate: POPULATE, populateOrderBy: { segments: { position: 'asc' } } });
    return found(rollout, 'rollout', namespaceKey, id);
  }

  list(em: EntityManager, namespaceKey: string, flagKey: string, page: Page): Promise<PagedList<Rollout>> {
    return pagedList<Rollout>(em, Rollout, this.ofFlag(namespaceKey, flagKey), page, RANK_ORDER, POPULATE);
  }

  /** Unlike rules, two rollouts of a flag never share a rank. */
  async rankTaken(em: EntityManager, flag: Flag, rank: number): Promise<boolean> {
    return (await em.count(Rollout, { flag, rank })) > 0;
  }

  setSegments(em: EntityManager, rollout: Rollout, segments: Segment[]): Promise<void> {
    return setSegmentReferences(em, rollout.segments, segments, (segment, position) => em.create(RolloutSegment, { rollout, segment, position }));
  }
}
