/**
 * Applies scheduled changes when they are due, exactly once across instances (docs/api.md, Scheduled changes).
 *
 * Every `schedules.poll_interval` each instance (not the write worker) asks for active schedules with a step due by
 * the injected Clock and not held by anyone. It claims one by a compare-and-swap on the row's version that also sets a
 * lease, so of several instances exactly one goes on; the lease lets another take over only if the holder stopped
 * mid-way. For each due step, in order: past its deadline it is skipped; an author who may no longer change the flag
 * fails it; a target that is gone or changed shape fails it (and the schedule); a value already in effect is applied
 * with nothing written (so a holder that stopped after its write, before marking the step, is never repeated); else
 * the value is written through the feature's service, in one transaction, and recorded in the audit trail under the
 * schedule's author with the schedule as the cause. A database that fails leaves the step pending for the next round.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Counter, Gauge } from 'prom-client';
import { auditEvent, type AuditAction, type AuditType } from '../audit/audit-event';
import { payloadFromAnswer, subjectOf } from '../audit/audit-payloads';
import { AuditTrail } from '../audit/audit-trail.service';
import { GrpcCode } from '../common/grpc-status';
import { formatTimestamp } from '../common/timestamps';
import { DomainError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { now as storedNow } from '../storage/columns';
import { Database } from '../storage/database.service';
import { toScheduleResponse } from './schedule.mapper';
import { ScheduleRepository } from './schedule.repository';
import { AuthorRights } from './author-rights';
import { parseAuthor, type ScheduleAuthor } from './schedule-author';
import { Clock } from '../common/clock';
import { closePending, pendingIndex, sameValue, settle, type ScheduleStatus, type ScheduleType, type StoredStep } from './schedule-steps';
import { ScheduleTargets, type Target, type Written } from './schedule-targets';
import type { ScheduledChange } from './scheduled-change.entity';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

/** Schedules one round takes on; the rest wait for the next round (a round after a long outage catches up). */
const ROUND_SIZE = 50;

type Outcome = { status: 'APPLIED' | 'SKIPPED' | 'FAILED'; message?: string; written?: Written };

/** Errors that say the target or the request is wrong (it will not get better by waiting), not that a dependency failed. */
const FINAL_CODES = new Set([GrpcCode.NotFound, GrpcCode.InvalidArgument, GrpcCode.FailedPrecondition, GrpcCode.PermissionDenied]);

@ProcessDuty()
@Injectable()
export class ScheduleRunner implements ProcessDutyProvider {
  private readonly logger = new Logger('Schedules');
  private queue: Promise<void> = Promise.resolve();
  private busy = false;
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly db: Database,
    private readonly schedules: ScheduleRepository,
    private readonly targets: ScheduleTargets,
    private readonly rights: AuthorRights,
    private readonly clock: Clock,
    private readonly trail: AuditTrail,
    private readonly scheduler: SchedulerRegistry,
    metrics: MetricsRegistry,
  ) {
    this.outcomes = new Counter({
      name: 'flagpole_scheduled_changes_total',
      help: 'Steps of scheduled changes this instance settled, by outcome (applied, skipped past their deadline, failed)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    for (const outcome of ['applied', 'skipped', 'failed']) this.outcomes.inc({ outcome }, 0);
    const runner = this;
    new Gauge({
      name: 'flagpole_scheduled_changes_pending',
      help: 'Active schedules, with steps still to apply (all instances together; paused ones not included)',
      registers: [metrics.registry],
      async collect() {
        const count = await runner.db.read((em) => runner.schedules.countActive(em)).catch(() => undefined);
        if (count !== undefined) this.set(count);
      },
    });
  }

  start(): void {
    if (this.config.storage.type !== 'database') return;
    const timer = setInterval(() => {
      if (!this.busy) void this.tick();
    }, this.config.schedules.pollInterval);
    this.scheduler.addInterval('scheduled_changes', timer);
    // A change missed while every instance was down applies now (or is skipped past its deadline).
    void this.tick();
  }

  /** One round, after any round in progress; resolves when it is done. Never rejects. */
  tick(): Promise<void> {
    const round = this.queue.then(() => this.round());
    this.queue = round;
    return round;
  }

  private async round(): Promise<void> {
    this.busy = true;
    try {
      const at = this.clock.now();
      const due = await this.db.read((em) => this.schedules.due(em, new Date(at), ROUND_SIZE));
      for (const row of due) await this.applyDue(row);
    } catch (e) {
      // The next round tries again: a database that is down must not stop the schedule.
      this.logger.warn(`scheduled changes round failed: ${(e as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  private async applyDue(claimed: ScheduledChange): Promise<void> {
    const leaseUntil = new Date(this.clock.now() + this.config.schedules.lease);
    if (!(await this.db.write(null, (em) => this.schedules.swap(em, claimed.id, claimed.version, { leaseUntil })))) return;
    let version = claimed.version + 1;
    let status = claimed.status as ScheduleStatus;
    let steps = JSON.parse(claimed.steps) as StoredStep[];
    const author = parseAuthor(claimed.author);
    const target: Target = { namespaceKey: claimed.namespaceKey, flagKey: claimed.flagKey, type: claimed.type as ScheduleType, targetId: claimed.targetId };
    try {
      for (let i = pendingIndex(steps); i >= 0 && status === 'ACTIVE'; i = pendingIndex(steps)) {
        const at = this.clock.now();
        if (Date.parse(steps[i].at) > at) break;
        const outcome = await this.applyStep(target, author, steps, i, at);
        if (!outcome) break;
        // Recorded as soon as it is written: if marking the step fails, the instance that takes it over finds the
        // value in effect and writes (and records) nothing, so the change is in the trail once either way.
        if (outcome.written) this.recordWrite(claimed, author, i, outcome.written);
        steps = [...steps];
        steps[i] = { ...steps[i], status: outcome.status, appliedAt: new Date(at).toISOString(), ...(outcome.message ? { message: outcome.message } : {}) };
        if (outcome.status === 'FAILED') steps = closePending(steps, 'CANCELLED', 'an earlier step failed');
        const settled = settle(status, steps);
        const fields = { steps: JSON.stringify(steps), ...settled, updatedAt: storedNow() };
        if (!(await this.db.write(null, (em) => this.schedules.swap(em, claimed.id, version, fields)))) {
          this.logger.error(`schedule ${claimed.id}: its row changed while this instance held it; step ${i} was ${outcome.status}`);
          return;
        }
        version++;
        status = settled.status;
        this.outcomes.inc({ outcome: outcome.status.toLowerCase() });
        const row = Object.assign(claimed, fields, { version });
        if (outcome.status !== 'APPLIED') this.recordSettled(row, author, i, outcome);
      }
    } catch (e) {
      this.logger.warn(`schedule ${claimed.id}: step not applied, to be tried again: ${(e as Error).message}`);
    }
    // Released for the next round (or another instance); if this fails too, the lease runs out.
    await this.db.write(null, (em) => this.schedules.swap(em, claimed.id, version, { leaseUntil: null })).catch(() => undefined);
  }

  /** The step's outcome, or null to leave it pending (a dependency failed: the next round tries again). */
  private async applyStep(target: Target, author: ScheduleAuthor, steps: StoredStep[], i: number, at: number): Promise<Outcome | null> {
    const step = steps[i];
    if (step.deadline && at > Date.parse(step.deadline)) {
      const time = (iso: string | number) => formatTimestamp(new Date(iso));
      return { status: 'SKIPPED', message: `due at ${time(step.at)} and not applied by its deadline ${time(step.deadline)} (seen at ${time(at)})` };
    }
    try {
      const refused = await this.rights.refusal(author, target.namespaceKey, at);
      if (refused) return { status: 'FAILED', message: refused };
      const current = await this.targets.current(target, steps);
      if (sameValue(target.type, step, current)) return { status: 'APPLIED', message: 'already in effect' };
      const written = await this.targets.write(target, step);
      const late = at - Date.parse(step.at);
      return { status: 'APPLIED', written, ...(late > 60_000 ? { message: `applied ${lateness(late)} after its time` } : {}) };
    } catch (e) {
      if (e instanceof DomainError && FINAL_CODES.has(e.code)) {
        const why = e.code === GrpcCode.NotFound ? 'it was deleted since the schedule was made' : 'it changed since the schedule was made';
        return { status: 'FAILED', message: `${e.message}: ${why}; nothing was changed` };
      }
      throw e;
    }
  }

  /** A written change: the event of what it changed, by the schedule's author, with the schedule as the cause. */
  private recordWrite(row: ScheduledChange, author: ScheduleAuthor, step: number, written: Written): void {
    this.record(row, author, step, written.auditType, written.answer);
  }

  /** A step skipped or failed: an update of the schedule (its steps say which and why), logged too. */
  private recordSettled(row: ScheduledChange, author: ScheduleAuthor, step: number, outcome: Outcome): void {
    this.record(row, author, step, 'schedule', toScheduleResponse(row));
    this.logger.warn(`schedule ${row.id} (flag "${row.namespaceKey}/${row.flagKey}") step ${step} ${outcome.status}: ${outcome.message}`);
  }

  private record(row: ScheduledChange, author: ScheduleAuthor, step: number, type: Exclude<AuditType, 'token'>, answer: unknown): void {
    const action: AuditAction = 'updated';
    const payload = payloadFromAnswer(type, answer);
    const event = auditEvent(type, action, payload, author.actor);
    event.metadata.cause = { scheduledChange: row.id, step };
    this.trail.record(event, subjectOf(type, action, payload, row.namespaceKey, { flagKey: row.flagKey }));
  }
}

/** A delay in the largest unit that keeps it readable: `3 min`, `5 h`, `12 days`. */
function lateness(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(ms / 3_600_000);
  return hours < 48 ? `${hours} h` : `${Math.round(ms / 86_400_000)} days`;
}
