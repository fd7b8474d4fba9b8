/**
 * The lifecycle's queries: a page of a namespace's flags with what the check needs of them (metadata, creation, their
 * newest change across variants, rules, distributions and rollouts), the stored states (`flag_lifecycle`), and the
 * readings of the routes and the gauge. Readers join the flags table, so that a flag deleted since the last check is
 * never reported; the check drops its row.
 */
import { Injectable } from '@nestjs/common';
import type { Knex } from 'knex';
import { Database } from '../storage/database.service';
import { toDate } from '../storage/columns';
import { knexOf, num, str } from '../storage/rows';
import { FlagLifecycle } from './flag-lifecycle.entity';
import type { LifecycleState, Reason } from './lifecycle-state';

/** Flags one step of the check reads, judges and writes at once. */
export const CHECK_PAGE = 500;
const STALE: LifecycleState = 'potentially_stale';

export interface CheckedFlag {
  key: string;
  metadata: string | null;
  createdAt: Date;
  changedAt: Date;
}

export interface StaleRow {
  flagKey: string;
  kind: string;
  reasons: Reason[];
  since: Date;
}

/** Rows of the namespace's lifecycle whose flag still exists. */
const live = (knex: Knex, namespaceKey: string) =>
  knex('flag_lifecycle as l')
    .join('flags as f', (on) => on.on('f.namespace_key', 'l.namespace_key').andOn('f.key', 'l.flag_key'))
    .where('l.namespace_key', namespaceKey);

export function parseReasons(text: string): Reason[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as Reason[]) : [];
  } catch {
    return [];
  }
}

@Injectable()
export class LifecycleRepository {
  constructor(private readonly db: Database) {}

  namespaceKeys(): Promise<string[]> {
    return this.db.read(async (em) => ((await knexOf(em)('namespaces').select('key').orderBy('key')) as Array<{ key: string }>).map((r) => r.key));
  }

  /** The namespace's flags after `afterKey` in key order, at most CHECK_PAGE. */
  flagPage(namespaceKey: string, afterKey: string | null): Promise<CheckedFlag[]> {
    return this.flags(namespaceKey, (query) => {
      query.orderBy('f.key').limit(CHECK_PAGE);
      if (afterKey !== null) query.andWhere('f.key', '>', afterKey);
    });
  }

  /** One flag, or null. */
  async flag(namespaceKey: string, flagKey: string): Promise<CheckedFlag | null> {
    const [flag] = await this.flags(namespaceKey, (query) => query.andWhere('f.key', flagKey));
    return flag ?? null;
  }

  async namespaceExists(namespaceKey: string): Promise<boolean> {
    return this.db.read(async (em) => (await knexOf(em)('namespaces').select('key').where('key', namespaceKey).first()) !== undefined);
  }

  private flags(namespaceKey: string, narrow: (query: Knex.QueryBuilder) => void): Promise<CheckedFlag[]> {
    return this.db.read(async (em) => {
      const knex = knexOf(em);
      const newest = (table: string, alias: string) => knex(`${table} as ${alias}`).max(`${alias}.updated_at`).where(`${alias}.flag_id`, knex.ref('f.id'));
      const query = knex('flags as f')
        .select('f.key', 'f.metadata', 'f.created_at', 'f.updated_at')
        .select({
          variants_at: newest('variants', 'v'),
          rules_at: newest('rules', 'r'),
          rollouts_at: newest('rollouts', 'o'),
          distributions_at: knex('distributions as d').join('rules as dr', 'dr.id', 'd.rule_id').max('d.updated_at').where('dr.flag_id', knex.ref('f.id')),
        })
        .where('f.namespace_key', namespaceKey);
      narrow(query);
      const rows = (await query) as Array<Record<string, unknown>>;
      return rows.map((row) => {
        const times = ['updated_at', 'variants_at', 'rules_at', 'rollouts_at', 'distributions_at']
          .map((column) => row[column])
          .filter((v) => v !== null && v !== undefined)
          .map((v) => toDate(v).getTime());
        return { key: str(row.key), metadata: row.metadata === null ? null : str(row.metadata), createdAt: toDate(row.created_at), changedAt: new Date(Math.max(...times)) };
      });
    });
  }

  /** The stored rows of these flags of the namespace. */
  read(namespaceKey: string, flagKeys: string[]): Promise<FlagLifecycle[]> {
    return this.db.read((em) => em.find(FlagLifecycle, { namespaceKey, flagKey: { $in: flagKeys } }));
  }

  /** One flag's stored row, or null. */
  one(namespaceKey: string, flagKey: string): Promise<FlagLifecycle | null> {
    return this.db.read((em) => em.findOne(FlagLifecycle, { namespaceKey, flagKey }));
  }

  /**
   * Writes the rows in one upsert (plain SQL: MikroORM's upsertMany took a quarter of a second per 500 rows on SQLite).
   * Timestamps go as the ORM writes them (epoch milliseconds on SQLite).
   */
  async save(rows: FlagLifecycle[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.write(null, async (em) => {
      const platform = em.getPlatform();
      const stamp = (d: Date | null) => (d === null ? null : platform.processDateProperty(d));
      await knexOf(em)('flag_lifecycle')
        .insert(rows.map((r) => ({
          namespace_key: r.namespaceKey, flag_key: r.flagKey, kind: r.kind, state: r.state, reasons: r.reasons,
          since: stamp(r.since), checked_at: stamp(r.checkedAt), last_evaluated_at: stamp(r.lastEvaluatedAt),
        })))
        .onConflict(['namespace_key', 'flag_key'])
        .merge(['kind', 'state', 'reasons', 'since', 'checked_at', 'last_evaluated_at']);
    });
  }

  /** Rows of flags (or namespaces) that are gone; returns how many. */
  dropGone(): Promise<number> {
    return this.db.write(null, async (em) => {
      const knex = knexOf(em);
      const deleted = await knex('flag_lifecycle')
        .whereNotExists(knex('flags as f').select(knex.raw('1')).whereRaw('f.namespace_key = flag_lifecycle.namespace_key and f.key = flag_lifecycle.flag_key'))
        .delete();
      return num(deleted);
    });
  }

  /** How many flags are in each state and of each kind, and the latest check. */
  counts(namespaceKey: string): Promise<{ states: Map<string, number>; kinds: Map<string, number>; checkedAt: Date | null }> {
    return this.db.read(async (em) => {
      const knex = knexOf(em);
      const rows = (await live(knex, namespaceKey)
        .select('l.state', 'l.kind')
        .count({ n: '*' })
        .max({ checked: 'l.checked_at' })
        .groupBy('l.state', 'l.kind')) as Array<Record<string, unknown>>;
      const states = new Map<string, number>();
      const kinds = new Map<string, number>();
      let checked: number | null = null;
      for (const row of rows) {
        const n = num(row.n);
        states.set(str(row.state), (states.get(str(row.state)) ?? 0) + n);
        kinds.set(str(row.kind), (kinds.get(str(row.kind)) ?? 0) + n);
        if (row.checked !== null && row.checked !== undefined) checked = Math.max(checked ?? 0, toDate(row.checked).getTime());
      }
      return { states, kinds, checkedAt: checked === null ? null : new Date(checked) };
    });
  }

  /** A page of the namespace's potentially stale flags, by key (one row more than asked, which says a next exists). */
  stale(namespaceKey: string, limit: number, offset: number): Promise<StaleRow[]> {
    return this.db.read(async (em) => {
      const rows = (await live(knexOf(em), namespaceKey)
        .select('l.flag_key', 'l.kind', 'l.reasons', 'l.since')
        .andWhere('l.state', STALE)
        .orderBy('l.flag_key')
        .limit(limit + 1)
        .offset(offset)) as Array<Record<string, unknown>>;
      return rows.map((row) => ({ flagKey: str(row.flag_key), kind: str(row.kind), reasons: parseReasons(str(row.reasons)), since: toDate(row.since) }));
    });
  }

  /** Potentially stale flags per namespace, over every namespace with a checked flag (0 included). */
  staleByNamespace(): Promise<Map<string, number>> {
    return this.db.read(async (em) => {
      const knex = knexOf(em);
      const rows = (await knex('flag_lifecycle as l')
        .join('flags as f', (on) => on.on('f.namespace_key', 'l.namespace_key').andOn('f.key', 'l.flag_key'))
        .select('l.namespace_key')
        .sum({ n: knex.raw('case when l.state = ? then 1 else 0 end', [STALE]) })
        .groupBy('l.namespace_key')) as Array<Record<string, unknown>>;
      return new Map(rows.map((row) => [str(row.namespace_key), num(row.n)]));
    });
  }
}
