/**
 * How services reach the database: every read gets a fresh EntityManager fork; every write runs in one transaction
 * that first locks the namespace's row and bumps its version, hands that namespace to the work (so nobody selects it
 * again), and announces the namespace once the transaction has committed. The queries themselves live in the
 * features' repositories (`*.repository.ts`).
 */
import { Inject, Injectable } from '@nestjs/common';
import { DeadlockException, EntityManager, LockMode, MikroORM } from '@mikro-orm/core';
import { Namespace } from '../namespaces/namespace.entity';
import { now } from './columns';
import { dialectOf } from './dialects';
import { DATABASE_SETTINGS } from './migration-runner';
import { Changes } from './changes';
import type { DatabaseSettings } from './orm-options';

/** A deadlock aborts one transaction of the pair; running it again is the standard answer. */
const DEADLOCK_RETRIES = 3;

@Injectable()
export class Database {
  private readonly rowLocks: boolean;

  constructor(
    private readonly orm: MikroORM,
    private readonly changes: Changes,
    @Inject(DATABASE_SETTINGS) settings: DatabaseSettings,
  ) {
    this.rowLocks = dialectOf(settings.url).rowLocks !== false;
  }

  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return work(this.orm.em.fork({ clear: true }));
  }

  /**
   * `namespaceKey` names the namespace whose evaluation state the write changes (null: none). `work` gets that
   * namespace, locked and bumped, or null when it does not exist (`existing()` in namespace.repository.ts turns that
   * into Flipt's not-found error where the write needs it).
   */
  async write<T>(namespaceKey: string | null, work: (em: EntityManager, namespace: Namespace | null) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.orm.em.fork({ clear: true }).transactional(async (em) => {
          // The namespace row is locked first: writes to one namespace queue up instead of deadlocking on it
          // (MySQL takes shared locks on it for every foreign-key check).
          const namespace = namespaceKey === null ? null : await lockAndBump(em, namespaceKey, this.rowLocks);
          const value = await work(em, namespace);
          await em.flush();
          return value;
        });
        if (namespaceKey !== null) this.changes.publish('namespace', namespaceKey);
        return result;
      } catch (e) {
        if (!(e instanceof DeadlockException) || attempt >= DEADLOCK_RETRIES) throw e;
      }
    }
  }
}

/**
 * The namespace's version (snapshot ETag) is its last write time; it must move forward on every write, also when
 * another instance wrote within the same millisecond. Flushed at once: the update is the transaction's first write.
 */
async function lockAndBump(em: EntityManager, namespaceKey: string, lock: boolean): Promise<Namespace | null> {
  const namespace = await em.findOne(Namespace, { key: namespaceKey }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!namespace) return null;
  const previous = namespace.stateModifiedAt?.getTime() ?? 0;
  const t = now();
  namespace.stateModifiedAt = t.getTime() > previous ? t : new Date(previous + 1);
  await em.flush();
  return namespace;
}
