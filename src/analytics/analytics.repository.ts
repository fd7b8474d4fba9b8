/**
 * The stored evaluation counts (`analytics_counts`, one row per minute, namespace, flag, variant and reason): add a
 * flush's rows, read a flag's counts per minute, the latest minute a flag was evaluated in, and delete what is past
 * the retention. The one dialect difference, how an upsert adds to the stored count, is the dialect table's
 * `addedCount`.
 */
import { Injectable } from '@nestjs/common';
import { Database } from '../storage/database.service';
import { dialectOfKnex, knexOf, num, str } from '../storage/rows';
import type { CountDimension } from './analytics-reader';
import type { CountRow } from './evaluation-counter';

const TABLE = 'analytics_counts';
const IDENTITY = ['namespace_key', 'flag_key', 'minute', 'variant_key', 'reason'];
/** Rows per insert statement: 6,000 bound values, well within every driver's limit (SQLite's is 32,766). */
const ROWS_PER_STATEMENT = 1000;

/** One minute's count of one flag, with the dimension asked for (variant or reason) when one is. */
export interface MinuteCount {
  flagKey: string;
  minute: number;
  /** The variant key or the reason number, as `groupBy` asked; absent without one. */
  group?: string | number;
  count: number;
}

const byIdentity = (a: CountRow, b: CountRow): number =>
  compare(a.namespaceKey, b.namespaceKey) || compare(a.flagKey, b.flagKey) || a.minute - b.minute || compare(a.variantKey, b.variantKey) || a.reason - b.reason;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

@Injectable()
export class AnalyticsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds the rows' counts to the stored ones in one transaction. Rows go in one order (their identity's), so that two
   * instances flushing the same minutes at once lock the same rows in the same order and never deadlock each other.
   */
  async add(rows: CountRow[]): Promise<void> {
    const sorted = [...rows].sort(byIdentity);
    await this.db.write(null, async (em) => {
      const knex = knexOf(em);
      const added = knex.raw(dialectOfKnex(knex)!.addedCount(TABLE, 'count'));
      for (let i = 0; i < sorted.length; i += ROWS_PER_STATEMENT) {
        const values = sorted.slice(i, i + ROWS_PER_STATEMENT).map((r) => ({
          namespace_key: r.namespaceKey,
          flag_key: r.flagKey,
          minute: r.minute,
          variant_key: r.variantKey,
          reason: r.reason,
          count: r.count,
        }));
        await knex(TABLE).insert(values).onConflict(IDENTITY).merge({ count: added });
      }
    });
  }

  /** Sums per minute (and per `by`, when given) of the flags' counts in [fromMinute, toMinute]. */
  counts(namespaceKey: string, flagKeys: string[], fromMinute: number, toMinute: number, by?: CountDimension): Promise<MinuteCount[]> {
    return this.db.read(async (em) => {
      const knex = knexOf(em);
      const column = by === 'variant' ? 'variant_key' : by === 'reason' ? 'reason' : null;
      const groups = column ? ['flag_key', 'minute', column] : ['flag_key', 'minute'];
      const rows = (await knex(TABLE)
        .select(groups)
        .sum({ total: 'count' })
        .where('namespace_key', namespaceKey)
        .whereIn('flag_key', flagKeys)
        .andWhere('minute', '>=', fromMinute)
        .andWhere('minute', '<=', toMinute)
        .groupBy(groups)) as Array<Record<string, unknown>>;
      return rows.map((row) => ({
        flagKey: str(row.flag_key),
        minute: num(row.minute),
        ...(column === 'variant_key' ? { group: str(row.variant_key) } : column === 'reason' ? { group: num(row.reason) } : {}),
        count: num(row.total),
      }));
    });
  }

  /** The latest minute each flag has a stored count in (flags without one are absent). */
  latestMinutes(namespaceKey: string, flagKeys: string[]): Promise<Map<string, number>> {
    return this.db.read(async (em) => {
      const rows = (await knexOf(em)(TABLE)
        .select('flag_key')
        .max({ latest: 'minute' })
        .where('namespace_key', namespaceKey)
        .whereIn('flag_key', flagKeys)
        .groupBy('flag_key')) as Array<Record<string, unknown>>;
      return new Map(rows.map((row) => [str(row.flag_key), num(row.latest)]));
    });
  }

  /** Which of `flagKeys` exist in the namespace; null when the namespace does not. */
  existingFlags(namespaceKey: string, flagKeys: string[]): Promise<Set<string> | null> {
    return this.db.read(async (em) => {
      const knex = knexOf(em);
      const namespace = await knex('namespaces').select('key').where('key', namespaceKey).first();
      if (!namespace) return null;
      const rows = (await knex('flags').select('key').where('namespace_key', namespaceKey).whereIn('key', flagKeys)) as Array<{ key: string }>;
      return new Set(rows.map((row) => row.key));
    });
  }

  /** Deletes the counts of minutes before `minute`; returns how many rows went. */
  prune(beforeMinute: number): Promise<number> {
    return this.db.write(null, async (em) => {
      const deleted = await knexOf(em)(TABLE).where('minute', '<', beforeMinute).delete();
      return num(deleted);
    });
  }
}
