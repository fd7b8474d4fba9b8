/**
 * Storage access for the rule aggregate: rules (ranked children of a flag, see storage/ranks.ts), their segment
 * references and their distributions.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import type { Page } from '../common/pagination';
import type { Segment } from '../segments/segment.entity';
import { found } from '../storage/lookup';
import { pagedList, PagedList } from '../storage/paged-list';
import { RANK_ORDER, RankedChildren } from '../storage/ranks';
import { setSegmentReferences } from '../storage/segment-references';
import { Distribution } from './distribution.entity';
import { RuleSegment } from './rule-segment.entity';
import { Rule } from './rule.entity';

/** What a rule response needs loaded. */
const POPULATE = ['segments.segment', 'distributions.variant'] as const;

@Injectable()
export class RuleRepository extends RankedChildren<Rule> {
  constructor() {
    super(Rule);
  }

  /**
   * A rule of the namespace by id only (like Flipt, the flag key of the path is not checked), loaded for a response
   * when asked, or null.
   */
  findIn(em: EntityManager, namespaceKey: string, id: string, forResponse = false): Promise<Rule | null> {
    // `flag` too: the response names the rule's own flag, not the one in the path.
    return em.findOne(Rule, { id, flag: { namespace: namespaceKey } }, forResponse
      ? { populate: [...POPULATE, 'flag'], populateOrderBy: { segments: { position: 'asc' } } }
      : {});
  }

  /** The rule, loaded for a response, or Flipt's `rule "<ns>/<id>" not found`. */
  async get(em: EntityManager, namespaceKey: string, id: string): Promise<Rule> {
    return found(await this.findIn(em, namespaceKey, id, true), 'rule', namespaceKey, id);
  }

  list(em: EntityManager, namespaceKey: string, flagKey: string, page: Page): Promise<PagedList<Rule>> {
    return pagedList<Rule>(em, Rule, this.ofFlag(namespaceKey, flagKey), page, RANK_ORDER, POPULATE);
  }

  setSegments(em: EntityManager, rule: Rule, segments: Segment[]): Promise<void> {
    return setSegmentReferences(em, rule.segments, segments, (segment, position) => em.create(RuleSegment, { rule, segment, position }));
  }

  findDistribution(em: EntityManager, ruleId: string, id: string): Promise<Distribution | null> {
    return em.findOne(Distribution, { id, rule: ruleId });
  }

  async deleteDistribution(em: EntityManager, ruleId: string, id: string, variantId: string): Promise<void> {
    await em.nativeDelete(Distribution, { id, rule: ruleId, variant: variantId });
  }
}
