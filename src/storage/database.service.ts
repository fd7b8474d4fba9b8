/**
 * How services reach the database: every read gets a fresh EntityManager fork; every write runs in one transaction
 * that first bumps the namespace's version, and announces the namespace once the transaction has committed.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DeadlockException, EntityManager, LockMode, MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { Namespace } from '../namespaces/namespace.entity';
import { now, toDate } from './columns';
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

  /** `namespaceKey` names the namespace whose evaluation state the write changes (null: none). */
  async write<T>(namespaceKey: string | null, work: (em: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.orm.em.fork({ clear: true }).transactional(async (em) => {
          // The namespace row is locked first: writes to one namespace queue up instead of deadlocking on it
          // (MySQL takes shared locks on it for every foreign-key check).
          if (namespaceKey !== null) await bumpVersion(em, namespaceKey, this.rowLocks);
          const value = await work(em);
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
 * another instance wrote within the same millisecond.
 */
async function bumpVersion(em: EntityManager, namespaceKey: string, lock: boolean): Promise<void> {
  // A query builder, not an entity: the unit of work may hold this namespace as a reference already.
  const qb = (em as SqlEntityManager).createQueryBuilder(Namespace).select('stateModifiedAt').where({ key: namespaceKey });
  if (lock) qb.setLockMode(LockMode.PESSIMISTIC_WRITE);
  const row = await qb.execute('get');
  if (!row) return;
  const previous = row.stateModifiedAt ? toDate(row.stateModifiedAt).getTime() : 0;
  const t = now();
  await em.nativeUpdate(Namespace, { key: namespaceKey }, { stateModifiedAt: t.getTime() > previous ? t : new Date(previous + 1) });
}
