/**
 * How services reach the database: every read gets a fresh EntityManager fork; every write runs in one transaction
 * that also bumps the namespace's version, and announces the namespace once the transaction has committed.
 */
import { Injectable } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/core';
import { Namespace } from '../namespaces/namespace.entity';
import { now } from './columns';
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
      if (namespaceKey !== null) await em.nativeUpdate(Namespace, { key: namespaceKey }, { stateModifiedAt: now() });
      return value;
    });
    if (namespaceKey !== null) this.changes.publish(namespaceKey);
    return result;
  }
}
