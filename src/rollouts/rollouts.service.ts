import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/core';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { cutPage, PageRequest, resolvePage } from '../common/pagination';
import { maxText, requireField } from '../common/validation';
import { Flag } from '../flags/flag.entity';
import { findFlag } from '../flags/flags.service';
import { loadSegments } from '../rules/rules.service';
import { resolveSegmentRefs, SegmentRefs } from '../rules/segment-refs';
import { Segment } from '../segments/segment.entity';
import { now } from '../storage/columns';
import { Database } from '../storage/database.service';
import { RANK_ORDER, renumber } from '../storage/ranks';
import type { RolloutListResponse, RolloutRequest, RolloutResponse } from './rollout.dto';
import { RolloutSegment } from './rollout-segment.entity';
import { Rollout, RolloutType } from './rollout.entity';
import { ROLLOUT_TYPE_LABEL, toRolloutResponse } from './rollout.mapper';

const POPULATE = ['segments.segment', 'flag'] as const;

/** What a request's `segment` / `threshold` oneof says, validated. */
type RolloutRule =
  | { type: RolloutType.THRESHOLD; percentage: number; value: boolean }
  | { type: RolloutType.SEGMENT; refs: SegmentRefs; value: boolean; segmentKey?: string };

function rolloutRef(namespaceKey: string, id: string): string {
  return `rollout ${JSON.stringify(`${namespaceKey}/${id}`)}`;
}

async function findRollout(em: EntityManager, namespaceKey: string, id: string): Promise<Rollout> {
  const rollout = await em.findOne(Rollout, { id, flag: { namespace: namespaceKey } }, { populate: POPULATE, populateOrderBy: { segments: { position: 'asc' } } });
  if (!rollout) throw new NotFoundError(rolloutRef(namespaceKey, id));
  return rollout;
}

@Injectable()
export class RolloutsService {
  constructor(private readonly db: Database) {}

  get(namespaceKey: string, id: string): Promise<RolloutResponse> {
    return this.db.read(async (em) => {
      const r = await findRollout(em, namespaceKey, id);
      return toRolloutResponse(r, namespaceKey, r.flag.key);
    });
  }

  list(namespaceKey: string, flagKey: string, req: PageRequest): Promise<RolloutListResponse> {
    const page = resolvePage(req, { useOffset: false });
    return this.db.read(async (em) => {
      const where = { flag: { namespace: namespaceKey, key: flagKey } };
      const [rows, totalCount] = await Promise.all([
        em.find(Rollout, where, {
          populate: POPULATE,
          orderBy: RANK_ORDER,
          offset: page.offset,
          ...(page.limit ? { limit: page.limit + 1 } : {}),
        }),
        em.count(Rollout, where),
      ]);
      const { items, nextPageToken } = cutPage(rows, page, (r) => r.id);
      return { rules: items.map((r) => toRolloutResponse(r, namespaceKey, flagKey)), nextPageToken, totalCount };
    });
  }

  create(namespaceKey: string, flagKey: string, req: RolloutRequest): Promise<RolloutResponse> {
    requireField('flagKey', flagKey);
    const rule = validateRule(req, 'create');
    const description = maxText('description', req.description);
    const rank = req.rank ?? 0;
    return this.db.write(namespaceKey, async (em) => {
      const flag = await findFlag(em, namespaceKey, flagKey);
      if (await em.count(Rollout, { flag, rank })) throw new InvalidError(`rank number: ${rank} already exists`);
      const t = now();
      const rollout = em.create(Rollout, { id: randomUUID(), flag, type: rule.type, rank, description, createdAt: t, updatedAt: t });
      await applyRule(em, rollout, rule, namespaceKey, flagKey);
      await em.flush();
      return toRolloutResponse(rollout, namespaceKey, flagKey);
    });
  }

  update(namespaceKey: string, flagKey: string, id: string, req: RolloutRequest): Promise<RolloutResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    const rule = validateRule(req, 'update');
    const description = maxText('description', req.description);
    return this.db.write(namespaceKey, async (em) => {
      const rollout = await findRollout(em, namespaceKey, id);
      if (rollout.type !== rule.type) {
        throw new InvalidError(
          `cannot change type of rollout: have ${JSON.stringify(ROLLOUT_TYPE_LABEL[rollout.type])} attempted ${JSON.stringify(ROLLOUT_TYPE_LABEL[rule.type])}`,
        );
      }
      // See RulesService.update: remove and flush first, or a kept segment's re-insert is lost.
      rollout.segments.getItems().forEach((rs) => em.remove(rs));
      await em.flush();
      Object.assign(rollout, { description, updatedAt: now() });
      await applyRule(em, rollout, rule, namespaceKey, rollout.flag.key);
      await em.flush();
      return toRolloutResponse(rollout, namespaceKey, rollout.flag.key);
    });
  }

  async order(namespaceKey: string, flagKey: string, rolloutIds: string[] | undefined): Promise<void> {
    requireField('flagKey', flagKey);
    if (!rolloutIds || rolloutIds.length < 2) throw new ValidationError('rolloutIds', 'must contain atleast 2 elements');
    await this.db.write(namespaceKey, async (em) => {
      // Flipt updates one row per listed id; reading the flag's rollouts once bounds the work by what is stored, not by
      // the length of the list. Ids the flag does not have are ignored and a repeated id takes its last place, as there.
      const stored = new Map((await em.find(Rollout, { flag: { namespace: namespaceKey, key: flagKey } })).map((r) => [r.id, r]));
      const t = now();
      rolloutIds.forEach((id, i) => {
        const rollout = stored.get(id);
        if (rollout) Object.assign(rollout, { rank: i + 1, updatedAt: t });
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
      await em.nativeDelete(Rollout, { id, flag });
      renumber(await em.find(Rollout, { flag }, { orderBy: RANK_ORDER }));
    });
  }
}

function validateRule(req: RolloutRequest, op: 'create' | 'update'): RolloutRule {
  if (req.segment && req.threshold) throw new ValidationError('rule', 'only one of segment or threshold can be present');
  if (req.threshold) {
    const percentage = req.threshold.percentage ?? 0;
    if (percentage < 0 || percentage > 100) throw new ValidationError('threshold.percentage', 'must be within range [0, 100]');
    return { type: RolloutType.THRESHOLD, percentage, value: req.threshold.value ?? false };
  }
  if (req.segment) {
    const s = req.segment;
    return { type: RolloutType.SEGMENT, refs: resolveSegmentRefs(s.segmentKey, s.segmentKeys, s.segmentOperator), value: s.value ?? false, segmentKey: s.segmentKey };
  }
  if (op === 'create') throw new InvalidError('rollout rule is missing');
  throw new ValidationError('rule', 'invalid rollout rule type');
}

async function applyRule(em: EntityManager, rollout: Rollout, rule: RolloutRule, namespaceKey: string, flagKey: string): Promise<void> {
  rollout.value = rule.value;
  if (rule.type === RolloutType.THRESHOLD) {
    rollout.percentage = rule.percentage;
    return;
  }
  const segments = await loadSegments(em, namespaceKey, rule.refs.keys);
  if (!segments) {
    const missing = rule.refs.keys.join(', ');
    // Flipt's text, odd quoting included.
    throw new NotFoundError(`flag "${namespaceKey}/${flagKey} or segment ${missing}"`);
  }
  rollout.segmentOperator = rule.refs.operator;
  segments.forEach((segment: Segment, position) => rollout.segments.add(em.create(RolloutSegment, { rollout, segment, position })));
}
