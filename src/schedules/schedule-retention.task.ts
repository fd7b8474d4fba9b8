/**
 * Deletes closed schedules (completed, failed, cancelled) whose last change is older than `schedules.retention`, every
 * `schedules.cleanup_interval`, on one instance per round (operation lock `cleanup_schedules`; OperationLocks.repeat,
 * as the audit and analytics retentions), not in the write worker. Open schedules (active, paused) are never deleted
 * by it; what a schedule changed stays in the audit trail under the trail's own retention. Time is the injected Clock.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { OperationLocks } from '../auth/operation-lock.service';
import { Clock } from '../common/clock';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { Database } from '../storage/database.service';
import { ScheduleRepository } from './schedule.repository';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

@ProcessDuty()
@Injectable()
export class ScheduleRetentionTask implements ProcessDutyProvider {
  private readonly logger = new Logger('Schedules');

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly db: Database,
    private readonly schedules: ScheduleRepository,
    private readonly clock: Clock,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  start(): void {
    const { retention, cleanupInterval } = this.config.schedules;
    if (retention <= 0) return;
    this.locks.repeat(
      this.scheduler, this.logger, 'cleanup_schedules', cleanupInterval, () => this.prune(),
      (n) => `schedules retention: ${n} closed schedule(s) older than ${retention / 3_600_000} h deleted`,
    );
  }

  /** One round's deletion, without the lock (tests call it); answers how many schedules it deleted. */
  prune(): Promise<number> {
    const before = new Date(this.clock.now() - this.config.schedules.retention);
    return this.db.write(null, (em) => this.schedules.pruneClosed(em, before));
  }
}
