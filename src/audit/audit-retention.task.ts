/**
 * Deletes stored audit events older than `audit.storage.retention`, every `audit.storage.cleanup_interval`, on one
 * instance per round (operation lock `cleanup_audit`; OperationLocks.repeat), not in the write worker.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { OperationLocks } from '../auth/operation-lock.service';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { AuditRepository } from './audit.repository';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

@ProcessDuty()
@Injectable()
export class AuditRetentionTask implements ProcessDutyProvider {
  private readonly logger = new Logger('Audit');

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly repository: AuditRepository,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  start(): void {
    const { enabled, retention, cleanupInterval } = this.config.audit.storage;
    if (!enabled || retention <= 0 || cleanupInterval <= 0) return;
    this.locks.repeat(
      this.scheduler, this.logger, 'cleanup_audit', cleanupInterval,
      () => this.repository.prune(new Date(Date.now() - retention)),
      (n) => `audit retention: ${n} events older than ${retention / 3_600_000} h deleted`,
    );
  }
}
