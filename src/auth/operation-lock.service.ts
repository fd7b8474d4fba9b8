/**
 * Cross-instance mutual exclusion for periodic work (Flipt's `operation_lock`). `tryAcquire` succeeds for exactly one
 * caller per period, whichever instance and however many try at once: the first holder inserts the row, later
 * holders take an expired row over by a compare-and-swap on its version.
 */
import { Injectable, type Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Database } from '../storage/database.service';
import { OperationLock } from './operation-lock.entity';

/** setInterval's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

@Injectable()
export class OperationLocks {
  constructor(private readonly db: Database) {}

  /**
   * Periodic work one instance at a time should do (retention clean-ups): a round now and every `intervalMs`, each
   * run by whichever instance takes `operation` for a little less than the interval (so timer jitter never makes the
   * holder skip its next round). A failed round is logged; the next one tries again. `work` answers how many rows it
   * removed, logged when not 0.
   */
  repeat(scheduler: SchedulerRegistry, logger: Logger, operation: string, intervalMs: number, work: () => Promise<number>, done: (n: number) => string): () => Promise<number> {
    const round = async (): Promise<number> => {
      try {
        if (!(await this.tryAcquire(operation, intervalMs * 0.9))) return 0;
        const n = await work();
        if (n > 0) logger.log(done(n));
        return n;
      } catch (e) {
        logger.warn(`${operation} round failed: ${(e as Error).message}`);
        return 0;
      }
    };
    scheduler.addInterval(operation, setInterval(() => void round(), Math.min(intervalMs, MAX_TIMER_MS)));
    void round();
    return round;
  }

  /** True when this caller now holds `operation` for `durationMs`; false when someone else holds it. */
  async tryAcquire(operation: string, durationMs: number): Promise<boolean> {
    const at = new Date();
    const until = new Date(at.getTime() + durationMs);
    const held = await this.db.read((em) => em.findOne(OperationLock, { operation }));
    if (!held) {
      try {
        await this.db.write(null, async (em) => {
          await em.insert(OperationLock, { operation, version: 1, lastAcquiredAt: at, acquiredUntil: until });
        });
        return true;
      } catch (e) {
        if (e instanceof UniqueConstraintViolationException) return false;
        throw e;
      }
    }
    if (held.acquiredUntil.getTime() > at.getTime()) return false;
    const swapped = await this.db.write(null, (em) =>
      em.nativeUpdate(
        OperationLock,
        { operation, version: held.version },
        { version: held.version + 1, lastAcquiredAt: at, acquiredUntil: until },
      ),
    );
    return swapped === 1;
  }
}
