/**
 * Deletes stored audit events older than `audit.storage.retention`, every `audit.storage.cleanup_interval`, as the
 * token cleanup does: one instance per round (operation lock `cleanup_audit`), errors logged and the schedule kept.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { OperationLocks } from '../auth/operation-lock.service';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { AuditRepository } from './audit.repository';
import { IN_WRITE_WORKER } from '../write-worker/role';

const MAX_TIMER_MS = 2 ** 31 - 1;
const LOCK = 'cleanup_audit';

@Injectable()
export class AuditRetentionTask implements OnApplicationBootstrap {
  private readonly logger = new Logger('Audit');

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly repository: AuditRepository,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    if (IN_WRITE_WORKER) return;
    const { enabled, retention, cleanupInterval } = this.config.audit.storage;
    if (!enabled || retention <= 0 || cleanupInterval <= 0) return;
    const round = () => void this.run();
    this.scheduler.addInterval(LOCK, setInterval(round, Math.min(cleanupInterval, MAX_TIMER_MS)));
    round();
  }

  /** One round; returns how many events it deleted (0 when another instance holds the round). */
  async run(): Promise<number> {
    const { retention, cleanupInterval } = this.config.audit.storage;
    try {
      if (!(await this.locks.tryAcquire(LOCK, cleanupInterval * 0.9))) return 0;
      const deleted = await this.repository.prune(new Date(Date.now() - retention));
      if (deleted > 0) this.logger.log(`audit retention: ${deleted} events older than ${retention / 3_600_000} h deleted`);
      return deleted;
    } catch (e) {
      this.logger.warn(`audit retention round failed: ${(e as Error).message}`);
      return 0;
    }
  }
}
