/**
 * Deletes evaluation counts older than `analytics.retention`, every `analytics.cleanup_interval`, on one instance per
 * round (operation lock `cleanup_analytics`; OperationLocks.repeat, as audit retention), not in the write worker.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { OperationLocks } from '../auth/operation-lock.service';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { AnalyticsRepository } from './analytics.repository';
import { MINUTE_MS } from './evaluation-counter';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

@ProcessDuty()
@Injectable()
export class AnalyticsRetentionTask implements ProcessDutyProvider {
  private readonly logger = new Logger('Analytics');

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly repository: AnalyticsRepository,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  start(): void {
    const { enabled, retention, cleanupInterval } = this.config.analytics;
    if (!enabled || retention <= 0) return;
    this.locks.repeat(
      this.scheduler, this.logger, 'cleanup_analytics', cleanupInterval,
      () => this.repository.prune(Math.floor((Date.now() - retention) / MINUTE_MS)),
      (n) => `analytics retention: ${n} count(s) older than ${retention / 3_600_000} h deleted`,
    );
  }
}
