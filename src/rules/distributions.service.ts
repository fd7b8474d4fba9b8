import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/core';
import { NotFoundError, ValidationError } from '../common/errors';
import { requireField } from '../common/validation';
import { FlagRepository } from '../flags/flag.repository';
import { now } from '../storage/columns';
import { Database, ofRule } from '../storage/database.service';
import { Distribution } from './distribution.entity';
import type { DistributionRequest, DistributionResponse, RuleResponse } from './rule.dto';
import { toDistributionResponse, toRuleResponse } from './rule.mapper';
import { RuleRepository } from './rule.repository';

interface DistributionInput {
  variantId: string;
  rollout: number;
}

@Injectable()
export class DistributionsService {
  constructor(
    private readonly db: Database,
    private readonly rules: RuleRepository,
    private readonly flags: FlagRepository,
  ) {}

  create(namespaceKey: string, flagKey: string, ruleId: string, req: DistributionRequest): Promise<DistributionResponse> {
    const input = validate(flagKey, ruleId, req);
    return this.db.write(ofRule(namespaceKey, ruleId), async (em) => {
      const { rule, variant } = await this.resolveRefs(em, namespaceKey, flagKey, ruleId, input.variantId);
      const t = now();
      const d = em.create(Distribution, { id: randomUUID(), rule, variant, rollout: input.rollout, createdAt: t, updatedAt: t });
      await em.flush();
      return toDistributionResponse(d);
    });
  }

  update(namespaceKey: string, flagKey: string, ruleId: string, id: string, req: DistributionRequest): Promise<DistributionResponse> {
    requireField('id', id);
    const input = validate(flagKey, ruleId, req);
    return this.db.write(ofRule(namespaceKey, ruleId), async (em) => {
      const { variant } = await this.resolveRefs(em, namespaceKey, flagKey, ruleId, input.variantId);
      const d = await this.rules.findDistribution(em, ruleId, id);
      if (!d) throw new NotFoundError(`distribution ${JSON.stringify(id)}`);
      Object.assign(d, { variant, rollout: input.rollout, updatedAt: now() });
      await em.flush();
      return toDistributionResponse(d);
    });
  }

  /**
   * Sets the rollouts of a rule's distributions, named by their variants' keys, in one write (a scheduled change):
   * the rule must still be of `flagKey` and have a distribution for every key, else NotFound and nothing is written.
   * Distributions not named keep their rollout. Answers the rule.
   */
  setRollouts(namespaceKey: string, flagKey: string, ruleId: string, shares: ReadonlyArray<{ variantKey: string; rollout: number }>): Promise<RuleResponse> {
    return this.db.write(ofRule(namespaceKey, ruleId), async (em) => {
      const rule = await this.rules.get(em, namespaceKey, ruleId);
      if (rule.flag.key !== flagKey) throw new NotFoundError(`rule "${namespaceKey}/${ruleId}" of flag ${JSON.stringify(flagKey)}`);
      const byVariant = new Map(rule.distributions.getItems().map((d) => [d.variant.key, d]));
      const t = now();
      for (const share of shares) {
        const d = byVariant.get(share.variantKey);
        if (!d) throw new NotFoundError(`distribution of variant ${JSON.stringify(share.variantKey)} in rule "${namespaceKey}/${ruleId}"`);
        if (d.rollout !== share.rollout) Object.assign(d, { rollout: share.rollout, updatedAt: t });
      }
      await em.flush();
      return toRuleResponse(rule, namespaceKey, flagKey);
    });
  }

  async delete(namespaceKey: string, flagKey: string, ruleId: string, id: string, variantId: string | undefined): Promise<void> {
    requireField('id', id);
    requireField('flagKey', flagKey);
    requireField('ruleId', ruleId);
    requireField('variantId', variantId);
    await this.db.write(ofRule(namespaceKey, ruleId), async (em) => {
      // Only a rule of this namespace: ids sent through another namespace's path delete nothing (as a delete of an
      // id that does not exist, Flipt's answer).
      const rule = await this.rules.findIn(em, namespaceKey, ruleId);
      if (rule) await this.rules.deleteDistribution(em, rule.id, id, variantId!);
    });
  }

  /**
   * Like Flipt, only checks that the rule, the variant and the flag all exist in the namespace — not that they
   * belong to each other.
   */
  private async resolveRefs(em: EntityManager, namespaceKey: string, flagKey: string, ruleId: string, variantId: string) {
    // One after the other: a write's transaction has one connection (pg refuses queries queued on it from version 9).
    const rule = await this.rules.findIn(em, namespaceKey, ruleId);
    const variant = await this.flags.findVariantIn(em, namespaceKey, variantId);
    const flag = await this.flags.find(em, namespaceKey, flagKey);
    if (!rule || !variant || !flag) {
      throw new NotFoundError(
        `variant ${JSON.stringify(variantId)}, rule ${JSON.stringify(ruleId)}, flag ${JSON.stringify(flagKey)} in namespace ${JSON.stringify(namespaceKey)}`,
      );
    }
    return { rule, variant, flag };
  }
}

function validate(flagKey: string, ruleId: string, req: DistributionRequest): DistributionInput {
  requireField('flagKey', flagKey);
  requireField('ruleId', ruleId);
  const variantId = requireField('variantId', req.variantId);
  const rollout = req.rollout ?? 0;
  if (rollout < 0) throw new ValidationError('rollout', "must be greater than or equal to '0'");
  if (rollout > 100) throw new ValidationError('rollout', "must be less than or equal to '100'");
  return { variantId, rollout };
}
