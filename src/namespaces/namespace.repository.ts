/**
 * Storage access for namespaces. Writes get their namespace from `Database.write`, which has already locked its row;
 * `existing` turns "not there" into Flipt's error for the writes that need the namespace to exist.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/core';
import { NotFoundError } from '../common/errors';
import type { Page } from '../common/pagination';
import { CREATION_ORDER, pagedList, PagedList } from '../storage/paged-list';
import { Namespace } from './namespace.entity';

export function namespaceNotFound(key: string): NotFoundError {
  return new NotFoundError(`namespace ${JSON.stringify(key)}`);
}

/** The namespace `Database.write` handed over, or Flipt's `namespace "<key>" not found`. */
export function existing(namespace: Namespace | null, key: string): Namespace {
  if (!namespace) throw namespaceNotFound(key);
  return namespace;
}

@Injectable()
export class NamespaceRepository {
  async get(em: EntityManager, key: string): Promise<Namespace> {
    return existing(await em.findOne(Namespace, { key }), key);
  }

  /**
   * A page of namespaces, oldest first. With `viewable` (authorization's namespace filter) only those it lets through
   * are listed, paged and counted: the keys are read first and filtered here (globs do not translate to SQL; the
   * namespaces of one server number in the hundreds at most).
   */
  async list(em: EntityManager, page: Page, viewable?: (key: string) => boolean): Promise<PagedList<Namespace>> {
    if (!viewable) return pagedList(em, Namespace, {}, page, CREATION_ORDER);
    const keys = (await this.keys(em)).filter(viewable);
    return pagedList(em, Namespace, { key: { $in: keys } }, page, CREATION_ORDER);
  }

  /** Every namespace's key, oldest first. */
  async keys(em: EntityManager): Promise<string[]> {
    const rows = await em.find(Namespace, {}, { fields: ['key'], orderBy: CREATION_ORDER.orderBy as never });
    return rows.map((r) => r.key);
  }

  async delete(em: EntityManager, key: string): Promise<void> {
    await em.nativeDelete(Namespace, { key });
  }
}
