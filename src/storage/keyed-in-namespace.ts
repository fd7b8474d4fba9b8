/**
 * Flags and segments are the aggregates a namespace holds by key, each with one collection of children (variants,
 * constraints) loaded for responses. Their repositories extend `KeyedInNamespace`, so these queries are written once.
 */
import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Page } from '../common/pagination';
import { filtered, sortOrder, type ListFilter } from './list-filter';
import { found } from './lookup';
import { CREATION_ORDER, pagedList, PagedList } from './paged-list';

export abstract class KeyedInNamespace<T extends { key: string }> {
  /** `kind` is how Flipt's messages name one (`flag`); `children` the collection responses need loaded. */
  protected constructor(
    private readonly entity: EntityClass<T>,
    private readonly kind: string,
    private readonly children: string,
  ) {}

  private where(namespaceKey: string, key?: string): FilterQuery<T> {
    return (key === undefined ? { namespace: namespaceKey } : { namespace: namespaceKey, key }) as unknown as FilterQuery<T>;
  }

  /** The row (with its children when asked), or null. */
  find(em: EntityManager, namespaceKey: string, key: string, withChildren = false): Promise<T | null> {
    return em.findOne(this.entity, this.where(namespaceKey, key), withChildren ? { populate: [this.children] as never } : {});
  }

  /** The row (with its children when asked), or Flipt's `<kind> "<namespace>/<key>" not found`. */
  async get(em: EntityManager, namespaceKey: string, key: string, withChildren = false): Promise<T> {
    return found(await this.find(em, namespaceKey, key, withChildren), this.kind, namespaceKey, key);
  }

  /**
   * A page of the namespace's rows with their children: oldest first, or as `filter` searches and sorts them
   * (storage/list-filter.ts); `only` narrows them further (a flag's type), and so does `condition`, a condition made
   * afresh for each query (one holding raw SQL: a flag's lifecycle state).
   */
  list(
    em: EntityManager, namespaceKey: string, page: Page, filter: ListFilter = {}, only: Partial<Record<keyof T, unknown>> = {},
    condition?: () => Record<string, unknown>,
  ): Promise<PagedList<T>> {
    const where = () => filtered({ ...only, ...(this.where(namespaceKey) as object), ...condition?.() } as FilterQuery<T>, filter);
    return pagedList(em, this.entity, where, page, sortOrder(filter.sort, CREATION_ORDER), [this.children]);
  }

  async keyTaken(em: EntityManager, namespaceKey: string, key: string): Promise<boolean> {
    return (await em.count(this.entity, this.where(namespaceKey, key))) > 0;
  }

  /**
   * Which of `keys` the namespace already holds, with their ids: the same uniqueness the API's creates check with
   * `keyTaken`, for many keys at once (an import). One query per KEYS_PER_QUERY keys; keys compare exactly (MySQL's
   * session collation is binary). Read past the identity map: the write goes on with inserts of its own.
   */
  async idsOf(em: EntityManager, namespaceKey: string, keys: readonly string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
      const where = { namespace: namespaceKey, key: { $in: keys.slice(i, i + KEYS_PER_QUERY) } } as unknown as FilterQuery<T>;
      const rows = await em.find(this.entity, where, { fields: ['id', 'key'] as never, disableIdentityMap: true });
      for (const row of rows as Array<T & { id: string }>) ids.set(row.key, row.id);
    }
    return ids;
  }
}

/** Keys named in one `IN (…)` list, well under every dialect's bound on parameters. */
const KEYS_PER_QUERY = 500;
