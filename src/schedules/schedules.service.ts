/**
 * Schedules through the API: made, listed, edited, paused, resumed and cancelled (docs/api.md, Scheduled changes).
 * Their rows are not flag state: writes take no namespace lock and move no snapshot version. The steps themselves
 * are applied by the ScheduleRunner.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { AbortedError, FailedPreconditionError, NotFoundError, ValidationError } from '../common/errors';
import { maxText, requireField } from '../common/validation';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { FlagRepository } from '../flags/flag.repository';
import { NamespaceRepository } from '../namespaces/namespace.repository';
import { now } from '../storage/columns';
import { Database } from '../storage/database.service';
import type { CreateScheduleRequest, ScheduleListResponse, ScheduleResponse, UpdateScheduleRequest } from './schedule.dto';
import { toScheduleResponse } from './schedule.mapper';
import { ScheduleRepository, type ScheduleFields } from './schedule.repository';
import { authorOf } from './schedule-author';
import { Clock } from '../common/clock';
import { closePending, readSteps, settle, SCHEDULE_TYPES, type ScheduleStatus, type ScheduleType, type StoredStep } from './schedule-steps';
import { ScheduleTargets, type Target } from './schedule-targets';

/** Tries of an edit that met the runner's or another edit's change of the same row. */
const EDIT_TRIES = 3;

@Injectable()
export class SchedulesService {
  private readonly readOnlyReason: string | null;

  constructor(
    private readonly db: Database,
    private readonly schedules: ScheduleRepository,
    private readonly flags: FlagRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly targets: ScheduleTargets,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {
    const storage = config.storage.type;
    this.readOnlyReason = storage === 'database' ? null : `scheduled changes are not available: flag state is read-only (storage.type ${storage})`;
  }

  list(namespaceKey: string, flagKey: string | null, status: ScheduleStatus | undefined): Promise<ScheduleListResponse> {
    return this.db.read(async (em) => {
      if (flagKey === null) await this.namespaces.get(em, namespaceKey);
      else await this.flags.get(em, namespaceKey, flagKey);
      const rows = await this.schedules.list(em, namespaceKey, flagKey, status);
      return { schedules: rows.map(toScheduleResponse) };
    });
  }

  get(namespaceKey: string, flagKey: string, id: string): Promise<ScheduleResponse> {
    return this.db.read(async (em) => toScheduleResponse(await this.found(em, namespaceKey, flagKey, id)));
  }

  async create(namespaceKey: string, flagKey: string, req: CreateScheduleRequest, authentication: AuthenticationRecord | undefined): Promise<ScheduleResponse> {
    this.writable();
    const type = requireField('type', req.type) as ScheduleType;
    if (!SCHEDULE_TYPES.includes(type)) throw new ValidationError('type', `must be one of ${SCHEDULE_TYPES.join(', ')}`);
    const targetId = targetOf(type, req);
    const description = maxText('description', req.description);
    const steps = readSteps(type, req.steps, this.config.schedules.maxSteps);
    const target: Target = { namespaceKey, flagKey, type, targetId };
    await this.targets.check(target, steps);
    const { status, nextAt } = settle('ACTIVE', steps);
    const t = now();
    const row = {
      id: randomUUID(), namespaceKey, flagKey, type, targetId, description, status, steps: JSON.stringify(steps),
      author: JSON.stringify(authorOf(authentication)), nextAt, version: 1, leaseUntil: null, createdAt: t, updatedAt: t,
    };
    await this.db.write(null, async (em) => {
      const open = await this.schedules.countOpen(em, namespaceKey, flagKey);
      const max = this.config.schedules.maxActivePerFlag;
      if (open >= max) {
        throw new FailedPreconditionError(`flag "${namespaceKey}/${flagKey}" has ${open} active or paused schedules, the most schedules.max_active_per_flag allows`);
      }
      await this.schedules.insert(em, row);
    });
    return toScheduleResponse(row);
  }

  /** New description and steps from now on: the steps already applied, skipped or failed stay as they were. */
  async update(namespaceKey: string, flagKey: string, id: string, req: UpdateScheduleRequest): Promise<ScheduleResponse> {
    this.writable();
    const description = maxText('description', req.description);
    const current = await this.get(namespaceKey, flagKey, id);
    const type = current.type as ScheduleType;
    const fresh = readSteps(type, req.steps, this.config.schedules.maxSteps);
    await this.targets.check({ namespaceKey, flagKey, type, targetId: current.rolloutId ?? current.ruleId ?? '' }, fresh);
    return this.change(namespaceKey, flagKey, id, (status, steps) => {
      if (status !== 'ACTIVE' && status !== 'PAUSED') throw notOpen(status, 'changed');
      const kept = steps.filter((s) => s.status !== 'PENDING');
      const next = [...kept, ...fresh];
      if (next.length > this.config.schedules.maxSteps) {
        throw new ValidationError('steps', `with the ${kept.length} steps done, must contain at most ${this.config.schedules.maxSteps - kept.length} steps (schedules.max_steps)`);
      }
      return { description, steps: next, ...settle(status, next) };
    });
  }

  pause(namespaceKey: string, flagKey: string, id: string): Promise<ScheduleResponse> {
    this.writable();
    return this.change(namespaceKey, flagKey, id, (status, steps) => {
      if (status === 'PAUSED') return null;
      if (status !== 'ACTIVE') throw notOpen(status, 'paused');
      return { steps, ...settle('PAUSED', steps) };
    });
  }

  resume(namespaceKey: string, flagKey: string, id: string): Promise<ScheduleResponse> {
    this.writable();
    return this.change(namespaceKey, flagKey, id, (status, steps) => {
      if (status === 'ACTIVE') return null;
      if (status !== 'PAUSED') throw notOpen(status, 'resumed');
      return { steps, ...settle('ACTIVE', steps) };
    });
  }

  /** Cancels it: pending steps never apply; the schedule stays listed as a record. Cancelling a closed one does nothing. */
  async cancel(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    this.writable();
    await this.change(namespaceKey, flagKey, id, (status, steps) => {
      if (status !== 'ACTIVE' && status !== 'PAUSED') return null;
      return { steps: closePending(steps, 'CANCELLED', 'the schedule was cancelled'), status: 'CANCELLED', nextAt: null };
    });
  }

  /**
   * One edit of a row as a compare-and-swap on its version: refused while an instance holds it to apply a step (409,
   * for a few milliseconds), tried again when another change came between the read and the swap.
   */
  private async change(
    namespaceKey: string, flagKey: string, id: string,
    edit: (status: ScheduleStatus, steps: StoredStep[]) => (Omit<ScheduleFields, 'steps'> & { steps: StoredStep[] }) | null,
  ): Promise<ScheduleResponse> {
    for (let attempt = 1; attempt <= EDIT_TRIES; attempt++) {
      const done = await this.db.write(null, async (em) => {
        const row = await this.found(em, namespaceKey, flagKey, id);
        if (row.leaseUntil && row.leaseUntil.getTime() > this.clock.now()) {
          throw new AbortedError(`schedule "${namespaceKey}/${id}" is being applied: try again in a moment`);
        }
        const fields = edit(row.status as ScheduleStatus, JSON.parse(row.steps) as StoredStep[]);
        if (!fields) return row;
        const stored: ScheduleFields = { ...fields, steps: JSON.stringify(fields.steps), updatedAt: now() };
        if (!(await this.schedules.swap(em, row.id, row.version, stored))) return null;
        return Object.assign(row, stored, { version: row.version + 1 });
      });
      if (done) return toScheduleResponse(done);
    }
    throw new AbortedError(`schedule "${namespaceKey}/${id}" kept changing: try again`);
  }

  private async found(em: EntityManager, namespaceKey: string, flagKey: string, id: string) {
    const row = await this.schedules.find(em, namespaceKey, flagKey, id);
    if (!row) throw new NotFoundError(`schedule "${namespaceKey}/${id}" of flag ${JSON.stringify(flagKey)}`);
    return row;
  }

  private writable(): void {
    if (this.readOnlyReason) throw new FailedPreconditionError(this.readOnlyReason);
  }
}

function targetOf(type: ScheduleType, req: CreateScheduleRequest): string {
  const rollout = type === 'ROLLOUT_THRESHOLD' || type === 'ROLLOUT_SEGMENT';
  const rule = type === 'RULE_DISTRIBUTIONS';
  if (!rollout && req.rolloutId) throw new ValidationError('rolloutId', `is not used by a ${type} schedule`);
  if (!rule && req.ruleId) throw new ValidationError('ruleId', `is not used by a ${type} schedule`);
  if (rollout) return requireField('rolloutId', req.rolloutId);
  if (rule) return requireField('ruleId', req.ruleId);
  return '';
}

function notOpen(status: ScheduleStatus, what: string): FailedPreconditionError {
  return new FailedPreconditionError(`the schedule is ${status}: only an active or paused schedule can be ${what}`);
}
