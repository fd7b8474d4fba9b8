/**
 * The flag list's `?stale=` filter (docs/api.md, Flag lifecycle): flags the last lifecycle check found potentially
 * stale (`true`) or not (`false`: the others, flags never checked included), as one condition of the list's query.
 * A function that makes a fresh condition per query: MikroORM lets a raw fragment be used by one query only.
 */
import { raw } from '@mikro-orm/core';

export function staleCondition(namespaceKey: string, stale: boolean): () => Record<string, unknown> {
  const operator = stale ? 'in' : 'not in';
  return () => ({
    [raw((alias: string) => `${alias}.key ${operator} (select l.flag_key from flag_lifecycle l where l.namespace_key = ? and l.state = ?)`, [namespaceKey, 'potentially_stale'])]: [],
  });
}
