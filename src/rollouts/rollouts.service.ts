import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/core';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { PageRequest, resolvePage } from '../common/pagination';
import { maxText, requireField } from '../common/validation';
import { FlagRepository } from '../flags/flag.repository';
import { resolveSegmentRefs, SegmentRefs } from '../rules/segment-refs';
import { SegmentRepository } from '../segments/segment.repository';
import { now } from '../storage/columns';
import { Database, inFlag, ofRollout } from '../storage/database.service';
import type { RolloutListResponse, RolloutRequest, RolloutResponse } from './rollout.dto';
import { ROLLOUT_TYPE_NAMES, RolloutType } from '../wire';
import { Rollout } from './rollout.entity';
import { toRolloutResponse } from './rollout.mapper';
import { RolloutRepository } from './rollout.repository';

/** What a request's `segment` / `threshold` oneof says, validated. */
type RolloutRule =
  | { type: RolloutType.THRESHOLD; percentage: number; value: boolean }
  | { type: RolloutType.SEGMENT; refs: SegmentRefs; value: boolean; segmentKey?: string };

@Injectable()
export class RolloutsService {
  constructor(
    private readonly db: Database,
    private readonly rollouts: RolloutRepository,
    private readonly flags: FlagRepository,
    private readonly segments: SegmentRepository,
  ) {}

  get(namespaceKey: string, id: string): Promise<RolloutResponse> {
    return this.db.read(async (em) => {
      const r = await this.rollouts.get(em, namespaceKey, id);
      return toRolloutResponse(r, namespaceKey, r.flag.key);
    });
  }

  list(namespaceKey: string, flagKey: string, req: PageRequest): Promise<RolloutListResponse> {
    const page = resolvePage(req, { useOffset: false });
    return this.db.read(async (em) => {
      const { items, nextPageToken, totalCount } = await this.rollouts.list(em, namespaceKey, flagKey, page);
      return { rules: items.map((r) => toRolloutResponse(r, namespaceKey, flagKey)), nextPageToken, totalCount };
    });
  }

  create(namespaceKey: string, flagKey: string, req: RolloutRequest): Promise<RolloutResponse> {
    requireField('flagKey', flagKey);
    const rule = validateRule(req, 'create');
    const description = maxText('description', req.description);
    const rank = req.rank ?? 0;
    return this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
      const flag = await this.flags.get(em, namespaceKey, flagKey);
      if (await this.rollouts.rankTaken(em, flag, rank)) throw new InvalidError(`rank number: ${rank} already exists`);
      const t = now();
      const rollout = em.create(Rollout, { id: randomUUID(), flag, type: rule.type, rank, description, createdAt: t, updatedAt: t });
      await this.applyRule(em, rollout, rule, namespaceKey, flagKey);
      await em.flush();
      return toRolloutResponse(rollout, namespaceKey, flagKey);
    });
  }

  update(namespaceKey: string, flagKey: string, id: string, req: RolloutRequest): Promise<RolloutResponse> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    const rule = validateRule(req, 'update');
    const description = maxText('description', req.description);
    // The rollout is found by id in the namespace: its flag is the one changed, whatever the path says.
    return this.db.write(ofRollout(namespaceKey, id), async (em) => {
      const rollout = await this.rollouts.get(em, namespaceKey, id);
      if (rollout.type !== rule.type) {
        throw new InvalidError(
          `cannot change type of rollout: have ${JSON.stringify(ROLLOUT_TYPE_NAMES[rollout.type])} attempted ${JSON.stringify(ROLLOUT_TYPE_NAMES[rule.type])}`,
        );
      }
      Object.assign(rollout, { description, updatedAt: now() });
      await this.applyRule(em, rollout, rule, namespaceKey, rollout.flag.key);
      await em.flush();
      return toRolloutResponse(rollout, namespaceKey, rollout.flag.key);
    });
  }

  /**
   * Sets a threshold rollout's percentage or a segment rollout's value and nothing else (a scheduled change). The
   * rollout must still be of `flagKey` and of the type the change was made for: else NotFound or Invalid, and nothing
   * is written.
   */
  setRule(namespaceKey: string, flagKey: string, id: string, change: { percentage: number } | { value: boolean }): Promise<RolloutResponse> {
    const type = 'percentage' in change ? RolloutType.THRESHOLD : RolloutType.SEGMENT;
    return this.db.write(ofRollout(namespaceKey, id), async (em) => {
      const rollout = await this.rollouts.get(em, namespaceKey, id);
      if (rollout.flag.key !== flagKey) throw new NotFoundError(`rollout "${namespaceKey}/${id}" of flag ${JSON.stringify(flagKey)}`);
      if (rollout.type !== type) {
        throw new InvalidError(`rollout "${namespaceKey}/${id}" is a ${ROLLOUT_TYPE_NAMES[rollout.type]} rollout, not ${ROLLOUT_TYPE_NAMES[type]}`);
      }
      if ('percentage' in change) rollout.percentage = change.percentage;
      else rollout.value = change.value;
      rollout.updatedAt = now();
      await em.flush();
      return toRolloutResponse(rollout, namespaceKey, flagKey);
    });
  }

  async order(namespaceKey: string, flagKey: string, rolloutIds: string[] | undefined): Promise<void> {
    requireField('flagKey', flagKey);
    if (!rolloutIds || rolloutIds.length < 2) throw new ValidationError('rolloutIds', 'must contain atleast 2 elements');
    await this.db.write(inFlag(namespaceKey, flagKey), (em) => this.rollouts.order(em, namespaceKey, flagKey, rolloutIds));
  }

  async delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    await this.db.write(inFlag(namespaceKey, flagKey), async (em) => {
      const flag = await this.flags.find(em, namespaceKey, flagKey);
      if (flag) await this.rollouts.deleteAndRenumber(em, flag.id, id);
    });
  }

  private async applyRule(em: EntityManager, rollout: Rollout, rule: RolloutRule, namespaceKey: string, flagKey: string): Promise<void> {
    rollout.value = rule.value;
    if (rule.type === RolloutType.THRESHOLD) {
      rollout.percentage = rule.percentage;
      return;
    }
    const segments = await this.segments.inOrder(em, namespaceKey, rule.refs.keys);
    if (!segments) {
      const missing = rule.refs.keys.join(', ');
      // Flipt's text, odd quoting included.
      throw new NotFoundError(`flag "${namespaceKey}/${flagKey} or segment ${missing}"`);
    }
    rollout.segmentOperator = rule.refs.operator;
    await this.rollouts.setSegments(em, rollout, segments);
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
