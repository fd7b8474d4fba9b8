/**
 * Deletes expired authentications, per enabled method that stores them, every `cleanup.interval`: those whose
 * expiry is more than `cleanup.grace_period` ago. Each round runs on one instance, the holder of the operation lock
 * `cleanup_auth_<METHOD>` (OperationLocks.repeat, as the audit and analytics retentions); deleting is idempotent, so
 * even two rounds at once would do no harm. A round that deleted something logs how many.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AUTH_METHODS, AuthMethod, Method } from './auth-method';
import { AuthenticationStore } from './authentication.store';
import { OperationLocks } from './operation-lock.service';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

@ProcessDuty()
@Injectable()
export class TokenCleanupTask implements ProcessDutyProvider {
  private readonly logger = new Logger('Authentication');

  constructor(
    @Inject(AUTH_METHODS) private readonly methods: AuthMethod[],
    private readonly store: AuthenticationStore,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  start(): void {
    for (const method of this.methods) {
      if (!method.enabled || !method.cleanup || method.cleanup.interval <= 0) continue;
      const name = Method[method.method];
      const { interval, gracePeriod } = method.cleanup;
      this.locks.repeat(
        this.scheduler, this.logger, `cleanup_auth_${name}`, interval,
        () => this.store.deleteExpired(method.method, new Date(Date.now() - gracePeriod)),
        (n) => `cleanup of expired ${name} authentications: ${n} deleted`,
      );
    }
  }
}
