/**
 * What a schedule changes, through the features that own it: checked when the schedule is made, read when a step is
 * due (to see whether its value is already in effect, and whether the target still exists in the shape the schedule
 * was made for), and written through the same services as the REST API (one transaction each, the same delta, change
 * broadcast and snapshot versions). A target that is gone or of another shape is a NotFound or Invalid error.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import type { AuditType } from '../audit/audit-event';
import { FlagRepository } from '../flags/flag.repository';
import { FlagsService } from '../flags/flags.service';
import { RolloutRepository } from '../rollouts/rollout.repository';
import { RolloutsService } from '../rollouts/rollouts.service';
import { DistributionsService } from '../rules/distributions.service';
import { RuleRepository } from '../rules/rule.repository';
import { Database } from '../storage/database.service';
import { RolloutType, ROLLOUT_TYPE_NAMES } from '../wire';
import type { ScheduleType, StepValue, StoredStep } from './schedule-steps';

export interface Target {
  namespaceKey: string;
  flagKey: string;
  type: ScheduleType;
  /** The rollout's or rule's id ('' for FLAG_ENABLED). */
  targetId: string;
}

/** The thing a step changed, as the audit trail names it, and the service's answer (the audit payload's source). */
export interface Written {
  auditType: Exclude<AuditType, 'token'>;
  answer: unknown;
}

/** A rule without a distribution for a variant a step names: the target changed shape, at that field. */
class MissingShare extends InvalidError {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

const ROLLOUT_TYPE: Partial<Record<ScheduleType, RolloutType>> = {
  ROLLOUT_THRESHOLD: RolloutType.THRESHOLD,
  ROLLOUT_SEGMENT: RolloutType.SEGMENT,
};

@Injectable()
export class ScheduleTargets {
  constructor(
    private readonly db: Database,
    private readonly flagRepository: FlagRepository,
    private readonly rolloutRepository: RolloutRepository,
    private readonly ruleRepository: RuleRepository,
    private readonly flags: FlagsService,
    private readonly rollouts: RolloutsService,
    private readonly distributions: DistributionsService,
  ) {}

  /**
   * The target's values now (the field a step sets), or NotFound / Invalid when the flag, rollout or rule is gone,
   * belongs to another flag, or has another shape (a rollout of the other type; a rule without a distribution for a
   * variant the steps name).
   */
  current(target: Target, steps: readonly StoredStep[]): Promise<StepValue> {
    const { namespaceKey: ns, flagKey, type } = target;
    return this.db.read(async (em) => {
      const flag = await this.flagRepository.get(em, ns, flagKey);
      if (type === 'FLAG_ENABLED') return { enabled: flag.enabled };
      return this.partOf(em, target, steps);
    });
  }

  /**
   * Checks a request's target: the flag must exist (else 404, as for the path), and a rollout's or rule's problem is
   * a 400 naming the request's field (`rolloutId`, `ruleId`, `steps[i].distributions[j].variantKey`).
   */
  async check(target: Target, steps: readonly StoredStep[]): Promise<void> {
    await this.db.read(async (em) => {
      await this.flagRepository.get(em, target.namespaceKey, target.flagKey);
      if (target.type === 'FLAG_ENABLED') return;
      try {
        await this.partOf(em, target, steps);
      } catch (e) {
        if (!(e instanceof NotFoundError || e instanceof InvalidError)) throw e;
        if (e instanceof MissingShare) throw new ValidationError(e.field, e.message);
        throw new ValidationError(target.type === 'RULE_DISTRIBUTIONS' ? 'ruleId' : 'rolloutId', e.message);
      }
    });
  }

  private async partOf(em: EntityManager, target: Target, steps: readonly StoredStep[]): Promise<StepValue> {
    const { namespaceKey: ns, flagKey, type, targetId } = target;
    if (type === 'RULE_DISTRIBUTIONS') {
      const rule = await this.ruleRepository.get(em, ns, targetId);
      if (rule.flag.key !== flagKey) throw new NotFoundError(`rule "${ns}/${targetId}" of flag ${JSON.stringify(flagKey)}`);
      const distributions = rule.distributions.getItems().map((d) => ({ variantKey: d.variant.key, rollout: d.rollout }));
      const keys = new Set(distributions.map((d) => d.variantKey));
      steps.forEach((step, i) => (step.distributions ?? []).forEach((share, j) => {
        if (!keys.has(share.variantKey)) {
          throw new MissingShare(`steps[${i}].distributions[${j}].variantKey`, `rule "${ns}/${targetId}" has no distribution for variant ${JSON.stringify(share.variantKey)}`);
        }
      }));
      return { distributions };
    }
    const rollout = await this.rolloutRepository.get(em, ns, targetId);
    if (rollout.flag.key !== flagKey) throw new NotFoundError(`rollout "${ns}/${targetId}" of flag ${JSON.stringify(flagKey)}`);
    const wanted = ROLLOUT_TYPE[type]!;
    if (rollout.type !== wanted) {
      throw new InvalidError(`rollout "${ns}/${targetId}" is a ${ROLLOUT_TYPE_NAMES[rollout.type]} rollout, not ${ROLLOUT_TYPE_NAMES[wanted]}`);
    }
    return type === 'ROLLOUT_THRESHOLD' ? { percentage: rollout.percentage ?? 0 } : { value: rollout.value };
  }

  /** Writes one step's value through the owning service. */
  async write(target: Target, step: StepValue): Promise<Written> {
    const { namespaceKey: ns, flagKey, type, targetId } = target;
    switch (type) {
      case 'FLAG_ENABLED':
        return { auditType: 'flag', answer: await this.flags.setEnabled(ns, flagKey, step.enabled!) };
      case 'ROLLOUT_THRESHOLD':
        return { auditType: 'rollout', answer: await this.rollouts.setRule(ns, flagKey, targetId, { percentage: step.percentage! }) };
      case 'ROLLOUT_SEGMENT':
        return { auditType: 'rollout', answer: await this.rollouts.setRule(ns, flagKey, targetId, { value: step.value! }) };
      case 'RULE_DISTRIBUTIONS':
        return { auditType: 'rule', answer: await this.distributions.setRollouts(ns, flagKey, targetId, step.distributions!) };
    }
  }
}
