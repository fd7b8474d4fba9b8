import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/core';
import { NotFoundError, ValidationError } from '../common/errors';
import { cutPage, PageRequest, resolvePage } from '../common/pagination';
import { requireField } from '../common/validation';
import { Flag } from '../flags/flag.entity';
import { flagRef } from '../flags/flags.service';
import { Segment } from '../segments/segment.entity';
import { now } from '../storage/columns';
import { RANK_ORDER, renumber } from '../storage/ranks';
import { Database } from '../storage/database.service';
import type { RuleListResponse, RuleRequest, RuleResponse } from './rule.dto';
import { RuleSegment } from './rule-segment.entity';
import { Rule } from './rule.entity';
import { toRuleResponse } from './rule.mapper';
import { resolveSegmentRefs } from './segment-refs';

const RULE_POPULATE = ['segments.segment', 'distributions.variant'] as const;

function ruleRef(namespaceKey: string, id: string): string {
  return `rule ${JSON.stringify(`${namespaceKey}/${id}`)}`;
}

/** Looks a rule up by namespace and id only: like Flipt, the flag key of the path is not checked. */
export async function findRule(em: EntityManager, namespaceKey: string, id: string): Promise<Rule> {
  // `flag` too: the response names the rule's own flag, not the one in the path.
  const rule = await em.findOne(Rule, { id, flag: { namespace: namespaceKey } }, {
    populate: [...RULE_POPULATE, 'flag'], populateOrderBy: { segments: { position: 'asc' } },
  });
  if (!rule) throw new NotFoundError(ruleRef(namespaceKey, id));
  return rule;
}

@Injectable()
export class RulesService {
  constructor(private readonly db: Database) {}

  get(namespaceKey: string, flagKey: string, id: string): Promise<RuleResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    return this.db.read(async (em) => {
      const rule = await findRule(em, namespaceKey, id);
      return toRuleResponse(rule, namespaceKey, rule.flag.key);
    });
  }

  list(namespaceKey: string, flagKey: string, req: PageRequest): Promise<RuleListResponse> {
    const page = resolvePage(req, { requireLimit: true });
    requireField('flagKey', flagKey);
    return this.db.read(async (em) => {
      const where = { flag: { namespace: namespaceKey, key: flagKey } };
      const [rows, totalCount] = await Promise.all([
        em.find(Rule, where, {
          populate: RULE_POPULATE,
          orderBy: RANK_ORDER,
          offset: page.offset,
          ...(page.limit ? { limit: page.limit + 1 } : {}),
        }),
        em.count(Rule, where),
      ]);
      const { items, nextPageToken } = cutPage(rows, page, (r) => r.id);
      return { rules: items.map((r) => toRuleResponse(r, namespaceKey, flagKey)), nextPageToken, totalCount };
    });
  }

  create(namespaceKey: string, flagKey: string, req: RuleRequest): Promise<RuleResponse> {
    requireField('flagKey', flagKey);
    const refs = resolveSegmentRefs(req.segmentKey, req.segmentKeys, req.segmentOperator);
    const rank = req.rank ?? 0;
    if (rank <= 0) throw new ValidationError('rank', 'must be greater than 0');
    return this.db.write(namespaceKey, async (em) => {
      const flag = await em.findOne(Flag, { namespace: namespaceKey, key: flagKey });
      const segments = await loadSegments(em, namespaceKey, refs.keys);
      if (!flag || !segments) {
        throw new NotFoundError(`${flagRef(namespaceKey, flagKey)} or segment ${JSON.stringify(`${namespaceKey}/${req.segmentKey ?? ''}`)}`);
      }
      const t = now();
      const rule = em.create(Rule, { id: randomUUID(), flag, rank, segmentOperator: refs.operator, createdAt: t, updatedAt: t });
      segments.forEach((segment, position) => rule.segments.add(em.create(RuleSegment, { rule, segment, position })));
      await em.flush();
      return toRuleResponse(rule, namespaceKey, flagKey);
    });
  }

  update(namespaceKey: string, flagKey: string, id: string, req: RuleRequest): Promise<RuleResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    const refs = resolveSegmentRefs(req.segmentKey, req.segmentKeys, req.segmentOperator);
    return this.db.write(namespaceKey, async (em) => {
      const rule = await findRule(em, namespaceKey, id);
      const segments = await loadSegments(em, namespaceKey, refs.keys);
      if (!segments) {
        throw new NotFoundError(`${flagRef(namespaceKey, flagKey)} or segment ${JSON.stringify(`${namespaceKey}/${req.segmentKey ?? ''}`)}`);
      }
      // Removed through the unit of work and flushed before re-adding: a kept segment has the same composite key,
      // and a native delete would leave the old entity in the identity map to swallow the new insert.
      rule.segments.getItems().forEach((rs) => em.remove(rs));
      await em.flush();
      segments.forEach((segment, position) => rule.segments.add(em.create(RuleSegment, { rule, segment, position })));
      rule.segmentOperator = refs.operator;
      rule.updatedAt = now();
      await em.flush();
      return toRuleResponse(rule, namespaceKey, rule.flag.key);
    });
  }

  async order(namespaceKey: string, flagKey: string, ruleIds: string[] | undefined): Promise<void> {
    requireField('flagKey', flagKey);
    if (!ruleIds || ruleIds.length < 2) throw new ValidationError('ruleIds', 'must contain atleast 2 elements');
    await this.db.write(namespaceKey, async (em) => {
      // Flipt updates one row per listed id; reading the flag's rules once bounds the work by what is stored, not by
      // the length of the list. Ids the flag does not have are ignored and a repeated id takes its last place, as there.
      const stored = new Map((await em.find(Rule, { flag: { namespace: namespaceKey, key: flagKey } })).map((r) => [r.id, r]));
      const t = now();
      ruleIds.forEach((id, i) => {
        const rule = stored.get(id);
        if (rule) Object.assign(rule, { rank: i + 1, updatedAt: t });
      });
      await em.flush();
    });
  }

  async delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    await this.db.write(namespaceKey, async (em) => {
      const flag = await em.findOne(Flag, { namespace: namespaceKey, key: flagKey });
      if (!flag) return;
      await em.nativeDelete(Rule, { id, flag });
      renumber(await em.find(Rule, { flag }, { orderBy: RANK_ORDER }));
    });
  }
}

/** The segments named, in the order named; null when any is missing. */
export async function loadSegments(em: EntityManager, namespaceKey: string, keys: string[]): Promise<Segment[] | null> {
  const found = await em.find(Segment, { namespace: namespaceKey, key: { $in: keys } });
  const byKey = new Map(found.map((s) => [s.key, s]));
  const ordered = keys.map((k) => byKey.get(k));
  return ordered.every((s): s is Segment => s !== undefined) ? ordered : null;
}

