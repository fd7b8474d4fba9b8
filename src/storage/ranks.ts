/**
 * Rules and rollouts are the ranked children of a flag: listed by rank, reordered as a whole, renumbered 1..n after
 * a delete. Their repositories extend `RankedChildren`, so each of these queries is written once for both.
 */
import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/core';
import { now } from './columns';
import type { ListOrder } from './paged-list';

interface Ranked {
  id: string;
  rank: number;
  updatedAt: Date;
}

/** Equal ranks (Flipt allows them for rules) fall back to creation order; the page token carries the id. */
export const RANK_ORDER: ListOrder<{ id: string }> = { orderBy: { rank: 'asc', createdAt: 'asc', id: 'asc' }, keyOf: (row) => row.id };

export abstract class RankedChildren<T extends Ranked> {
  protected constructor(protected readonly entity: EntityClass<T>) {}

  /** The flag's children, by `namespaceKey` and `flagKey`: what lists and `order` read. */
  protected ofFlag(namespaceKey: string, flagKey: string): FilterQuery<T> {
    return { flag: { namespace: namespaceKey, key: flagKey } } as FilterQuery<T>;
  }

  /**
   * Ranks the listed children 1..n in the order given. Flipt updates one row per listed id; reading the flag's
   * children once bounds the work by what is stored, not by the length of the list. Ids the flag does not have are
   * ignored and a repeated id takes its last place, as there. Flushed by `Database.write`.
   */
  async order(em: EntityManager, namespaceKey: string, flagKey: string, ids: string[]): Promise<void> {
    const stored = new Map((await em.find(this.entity, this.ofFlag(namespaceKey, flagKey))).map((row) => [row.id, row]));
    const t = now();
    ids.forEach((id, i) => {
      const row = stored.get(id);
      if (row) Object.assign(row, { rank: i + 1, updatedAt: t });
    });
  }

  /** Deletes one child of the flag and, as Flipt does, renumbers the rest 1..n in their current order. */
  async deleteAndRenumber(em: EntityManager, flagId: string, id: string): Promise<void> {
    await em.nativeDelete(this.entity, { id, flag: flagId } as FilterQuery<T>);
    const rest = await em.find(this.entity, { flag: flagId } as FilterQuery<T>, { orderBy: RANK_ORDER.orderBy as never });
    rest.forEach((row, i) => {
      row.rank = i + 1;
    });
  }
}
