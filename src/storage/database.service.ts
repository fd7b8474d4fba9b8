/**
 * How services reach the database: every read gets a fresh EntityManager fork; every write runs in one transaction
 * that also bumps the namespace's version, and announces the namespace once the transaction has committed.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/core';
import { Namespace } from '../namespaces/namespace.entity';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { now, toDate } from './columns';
import { NamespaceChanges } from './namespace-changes';

@Injectable()
export class Database {
  constructor(
    private readonly orm: MikroORM,
    private readonly changes: NamespaceChanges,
  ) {}

  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return work(this.orm.em.fork({ clear: true }));
  }

  /** `namespaceKey` names the namespace whose evaluation state the write changes (null: none). */
  async write<T>(namespaceKey: string | null, work: (em: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.orm.em.fork({ clear: true }).transactional(async (em) => {
      const value = await work(em);
      await em.flush();
      if (namespaceKey !== null) await bumpVersion(em, namespaceKey);
      return value;
    });
    if (namespaceKey !== null) this.changes.publish(namespaceKey);
    return result;
  }
}

/**
 * The namespace's version (snapshot ETag) is its last write time; it must move forward on every write, also when
 * another instance wrote within the same millisecond.
 */
async function bumpVersion(em: EntityManager, namespaceKey: string): Promise<void> {
  // A query builder, not an entity: the unit of work may hold this namespace as a reference already.
  const row = await (em as SqlEntityManager).createQueryBuilder(Namespace).select('stateModifiedAt').where({ key: namespaceKey }).execute('get');
  if (!row) return;
  const previous = row.stateModifiedAt ? toDate(row.stateModifiedAt).getTime() : 0;
  const t = now();
  await em.nativeUpdate(Namespace, { key: namespaceKey }, { stateModifiedAt: t.getTime() > previous ? t : new Date(previous + 1) });
}
