import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import { PageRequest, resolvePage } from '../common/pagination';
import { requireField } from '../common/validation';
import { flagRef, FlagRepository } from '../flags/flag.repository';
import { SegmentRepository } from '../segments/segment.repository';
import { now } from '../storage/columns';
import { Database, inFlag, ofRule } from '../storage/database.service';
import type { RuleListResponse, RuleRequest, RuleResponse } from './rule.dto';
import { Rule } from './rule.entity';
import { toRuleResponse } from './rule.mapper';
import { RuleRepository } from './rule.repository';
import { resolveSegmentRefs } from './segment-refs';

@Injectable()
export class RulesService {
  constructor(
    private readonly db: Database,
    private readonly rules: RuleRepository,
    private readonly flags: FlagRepository,
    private readonly segments: SegmentRepository,
  ) {}

  get(namespaceKey: string, flagKey: string, id: string): Promise<RuleResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    return this.db.read(async (em) => {
      const rule = await this.rules.get(em, namespaceKey, id);
      return toRuleResponse(rule, namespaceKey, rule.flag.key);
    });
  }

  list(namespaceKey: string, flagKey: string, req: PageRequest): Promise<RuleListResponse> {
    const page = resolvePage(req, { requireLimit: true });
    requireField('flagKey', flagKey);
    return this.db.read(async (em) => {
      const { items, nextPageToken, totalCount } = await this.rules.list(em, namespaceKey, flagKey, page);
      return { rules: items.map((r) => toRuleResponse(r, namespaceKey, flagKey)), nextPageToken, totalCount };
    });
  }

  create(namespaceKey: string, flagKey: string, req: RuleRequest): Promise<RuleResponse> {
    requireField('flagKey', flagKey);
    const refs = resolveSegmentRefs(req.segmentKey, req.segmentKeys, req.segmentOperator);
    const rank = req.rank ?? 0;
    if (rank <= 0) throw new ValidationError('rank', 'must be greater than 0');
    return this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
      const flag = await this.flags.find(em, namespaceKey, flagKey);
      const segments = await this.segments.inOrder(em, namespaceKey, refs.keys);
      if (!flag || !segments) throw flagOrSegmentNotFound(namespaceKey, flagKey, req.segmentKey);
      const t = now();
      const rule = em.create(Rule, { id: randomUUID(), flag, rank, segmentOperator: refs.operator, createdAt: t, updatedAt: t });
      await this.rules.setSegments(em, rule, segments);
      await em.flush();
      return toRuleResponse(rule, namespaceKey, flagKey);
    });
  }

  update(namespaceKey: string, flagKey: string, id: string, req: RuleRequest): Promise<RuleResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    const refs = resolveSegmentRefs(req.segmentKey, req.segmentKeys, req.segmentOperator);
    // Like Flipt, the rule is found by id in the namespace: its flag is the one changed, whatever the path says.
    return this.db.write(ofRule(namespaceKey, id), async (em) => {
      const rule = await this.rules.get(em, namespaceKey, id);
      const segments = await this.segments.inOrder(em, namespaceKey, refs.keys);
      if (!segments) throw flagOrSegmentNotFound(namespaceKey, flagKey, req.segmentKey);
      await this.rules.setSegments(em, rule, segments);
      rule.segmentOperator = refs.operator;
      rule.updatedAt = now();
      await em.flush();
      return toRuleResponse(rule, namespaceKey, rule.flag.key);
    });
  }

  async order(namespaceKey: string, flagKey: string, ruleIds: string[] | undefined): Promise<void> {
    requireField('flagKey', flagKey);
    if (!ruleIds || ruleIds.length < 2) throw new ValidationError('ruleIds', 'must contain atleast 2 elements');
    await this.db.write(inFlag(namespaceKey, flagKey), (em) => this.rules.order(em, namespaceKey, flagKey, ruleIds));
  }

  async delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    await this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
      const flag = await this.flags.find(em, namespaceKey, flagKey);
      if (flag) await this.rules.deleteAndRenumber(em, flag.id, id);
    });
  }
}

function flagOrSegmentNotFound(namespaceKey: string, flagKey: string, segmentKey: string | undefined): NotFoundError {
  return new NotFoundError(`${flagRef(namespaceKey, flagKey)} or segment ${JSON.stringify(`${namespaceKey}/${segmentKey ?? ''}`)}`);
}
