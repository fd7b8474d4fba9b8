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

  list(em: EntityManager, page: Page): Promise<PagedList<Namespace>> {
    return pagedList(em, Namespace, {}, page, CREATION_ORDER);
  }

  async delete(em: EntityManager, key: string): Promise<void> {
    await em.nativeDelete(Namespace, { key });
  }
}
