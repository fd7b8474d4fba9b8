/**
 * Deletes expired authentications, per enabled method that stores them, every `cleanup.interval`: those whose
 * expiry is more than `cleanup.grace_period` ago. Each round first takes the operation lock
 * `cleanup_auth_<METHOD>` for (nearly) one interval, so with several instances one of them does the round; deleting is
 * idempotent, so even two rounds at once would do no harm.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AUTH_METHODS, AuthMethod, Method } from './auth-method';
import { AuthenticationStore } from './authentication.store';
import { OperationLocks } from './operation-lock.service';
import { IN_WRITE_WORKER } from '../write-worker/role';

/** setInterval's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

@Injectable()
export class TokenCleanupTask implements OnApplicationBootstrap {
  private readonly logger = new Logger('Authentication');

  constructor(
    @Inject(AUTH_METHODS) private readonly methods: AuthMethod[],
    private readonly store: AuthenticationStore,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    if (IN_WRITE_WORKER) return;
    for (const method of this.methods) {
      if (!method.enabled || !method.cleanup || method.cleanup.interval <= 0) continue;
      const every = Math.min(method.cleanup.interval, MAX_TIMER_MS);
      const round = () => void this.run(method);
      this.scheduler.addInterval(`cleanup_auth_${Method[method.method]}`, setInterval(round, every));
      round();
    }
  }

  /** One cleanup round for one method; returns how many authentications it deleted (0 when another holder ran it). */
  async run(method: AuthMethod): Promise<number> {
    const name = Method[method.method];
    const { interval, gracePeriod } = method.cleanup!;
    try {
      // Held for a little less than the interval, so that timer jitter never makes the holder skip its next round.
      if (!(await this.locks.tryAcquire(`cleanup_auth_${name}`, interval * 0.9))) return 0;
      const deleted = await this.store.deleteExpired(method.method, new Date(Date.now() - gracePeriod));
      this.logger.log(`cleanup of expired ${name} authentications: ${deleted} deleted`);
      return deleted;
    } catch (e) {
      // The next round tries again; an unreachable database must not stop the schedule.
      this.logger.warn(`cleanup of expired ${name} authentications failed: ${(e as Error).message}`);
      return 0;
    }
  }
}
