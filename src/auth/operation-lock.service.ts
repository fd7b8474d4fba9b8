/**
 * Cross-instance mutual exclusion for periodic work (Flipt's `operation_lock`). `tryAcquire` succeeds for exactly one
 * caller per period, whichever instance and however many try at once: the first holder inserts the row, later
 * holders take an expired row over by a compare-and-swap on its version.
 */
import { Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Database } from '../storage/database.service';
import { OperationLock } from './operation-lock.entity';

@Injectable()
export class OperationLocks {
  constructor(private readonly db: Database) {}

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
