/**
 * How services reach the database: every read gets a fresh EntityManager fork; every write runs in one transaction
 * that first locks the namespace's row and bumps its version, hands that namespace to the work (so nobody selects it
 * again), reads back what the write changed of evaluation (its delta: the flag or segment the write names, whole)
 * and announces it once the transaction has committed. The queries themselves live in the features' repositories
 * (`*.repository.ts`) and, for evaluation state, evaluation-source.ts.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DeadlockException, EntityManager, LockWaitTimeoutException, MikroORM } from '@mikro-orm/core';
import { ReadOnlyError } from '../common/errors';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import type { NamespaceDelta } from '../core';
import { Namespace } from '../namespaces/namespace.entity';
import { now, toDate } from './columns';
import { dialectOf } from './dialects';
import { loadFlags, loadSegments, versionOfRow } from './evaluation-source';
import { DATABASE_SETTINGS } from './migration-runner';
import { Changes, type NamespaceChange } from './changes';
import type { DatabaseSettings } from './orm-options';
import { Tracing } from '../tracing/tracing';

/**
 * The namespace a write changes, and which of its flags or segments the write creates, changes or deletes: those
 * are read back as the write's delta. A flag is named by key, or by the id of one of its rules or rollouts (writes
 * that find those by id change their flag, whatever flag the path names). A namespace alone: the write changes no
 * flag or segment (the namespace's own fields), or deletes the namespace.
 */
export interface WriteScope {
  namespace: string;
  flag?: string;
  rule?: string;
  rollout?: string;
  segment?: string;
  /** The write may change anything in the namespace (an import): no delta is read, holders reload the namespace. */
  whole?: boolean;
}

export const inFlag = (namespace: string, flag: string): WriteScope => ({ namespace, flag });
export const ofRule = (namespace: string, rule: string): WriteScope => ({ namespace, rule });
export const ofRollout = (namespace: string, rollout: string): WriteScope => ({ namespace, rollout });
export const inSegment = (namespace: string, segment: string): WriteScope => ({ namespace, segment });
export const wholeNamespace = (namespace: string): WriteScope => ({ namespace, whole: true });

/** A deadlock aborts one transaction of the pair; running it again is the standard answer. */
const DEADLOCK_RETRIES = 3;

/**
 * SQLite's answer when another connection (the write worker's, the main thread's, a command's) held the write lock
 * past the busy timeout (every write transaction takes it first: the dialect table's `writeLockFirst`): the
 * transaction did nothing and runs again, as after a deadlock. (On the other databases a lock wait timeout is not
 * retried: it took its 50 s.)
 */
function sqliteBusy(e: unknown): boolean {
  return e instanceof LockWaitTimeoutException || (e as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

@Injectable()
export class Database {
  private readonly rowLocks: boolean;
  private readonly sqlite: boolean;
  private readonly writeLockFirst: string | undefined;
  private readonly dialect: string;
  private readOnly = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly changes: Changes,
    @Inject(DATABASE_SETTINGS) settings: DatabaseSettings,
    @Optional() private readonly tracing: Tracing = Tracing.OFF,
  ) {
    const dialect = dialectOf(settings.url);
    this.dialect = dialect.name;
    this.rowLocks = dialect.rowLocks !== false;
    this.sqlite = dialect.name === 'sqlite';
    this.writeLockFirst = dialect.writeLockFirst;
  }

  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return work(this.orm.em.fork({ clear: true }));
  }

  /**
   * From now on flag state belongs to its source (files: storage.type local): writes that name a namespace are
   * refused with Flipt's read-only error; writes of credentials, audit events and locks (scope null) go on.
   */
  makeReadOnly(): void {
    this.readOnly = true;
  }

  /**
   * `scope` names what of evaluation state the write changes (a namespace key alone, or a WriteScope; null: none).
   * `work` gets that namespace, locked and bumped, or null when it does not exist (`existing()` in
   * namespace.repository.ts turns that into Flipt's not-found error where the write needs it).
   */
  async write<T>(scope: string | WriteScope | null, work: (em: EntityManager, namespace: Namespace | null) => Promise<T>): Promise<T> {
    if (this.readOnly && scope !== null) throw new ReadOnlyError();
    return this.traced(scope, () => this.transact(scope, work));
  }

  /** A write of the flag state's source (declarative storage mirroring its files): allowed when read-only. */
  writeFromSource<T>(scope: string | WriteScope, work: (em: EntityManager, namespace: Namespace | null) => Promise<T>): Promise<T> {
    return this.traced(scope, () => this.transact(scope, work));
  }

  /**
   * With tracing on, a write is a span (what it names) around the span of its database work, the transaction (its
   * retries included); the announcement of its delta follows the transaction inside the write's span.
   */
  private traced<T>(scope: string | WriteScope | null, write: () => Promise<T>): Promise<T> {
    if (!this.tracing.on) return write();
    const target = typeof scope === 'string' ? { namespace: scope } : scope;
    const names: Record<string, string> = {};
    if (target) names['flipt.namespace'] = target.namespace;
    if (target?.flag !== undefined) names['flipt.flag'] = target.flag;
    if (target?.segment !== undefined) names['flipt.segment'] = target.segment;
    return this.tracing.inSpan('flagpole.write', names, write);
  }

  private async transact<T>(scope: string | WriteScope | null, work: (em: EntityManager, namespace: Namespace | null) => Promise<T>): Promise<T> {
    const target = typeof scope === 'string' ? { namespace: scope } : scope;
    for (let attempt = 1; ; attempt++) {
      try {
        let change: NamespaceChange | undefined;
        const transaction = () => this.orm.em.fork({ clear: true }).transactional(async (em) => {
          if (this.writeLockFirst) await transactionKnex(em).raw(this.writeLockFirst);
          // The namespace row is locked first: writes to one namespace queue up instead of deadlocking on it
          // (MySQL takes shared locks on it for every foreign-key check).
          const locked = target === null ? null : await lockAndBump(em, target.namespace, this.rowLocks);
          const value = await work(em, locked?.namespace ?? null);
          await em.flush();
          if (target && locked && !target.whole) change = await readChange(em, target, locked.from, locked.to);
          return value;
        });
        const result = await (this.tracing.on ? this.tracing.inSpan('db.transaction', { 'db.system.name': this.dialect, 'db.operation.name': 'transaction', 'flagpole.write.attempt': attempt }, transaction) : transaction());
        if (target !== null) this.changes.publish('namespace', target.namespace, change);
        return result;
      } catch (e) {
        const again = e instanceof DeadlockException || (this.sqlite && sqliteBusy(e));
        if (!again || attempt >= DEADLOCK_RETRIES) throw e;
      }
    }
  }
}

/**
 * The namespace's version (snapshot ETag) is its last write time; it must move forward on every write, also when
 * another instance wrote within the same millisecond. The row is read and updated with plain SQL (read under
 * `for update` where the dialect locks rows; the update is the transaction's first update) and handed to the entity
 * manager as it now is, a managed entity: through MikroORM (a findOne, then a flush of its own) the same two
 * statements held the event loop about a millisecond longer per write, measured.
 */
async function lockAndBump(em: EntityManager, namespaceKey: string, lock: boolean): Promise<{ namespace: Namespace; from: string; to: string } | null> {
  const knex = transactionKnex(em);
  const query = knex('namespaces').select('*').where('key', namespaceKey);
  const [row] = (await (lock ? query.forUpdate() : query)) as Array<Record<string, unknown>>;
  if (!row) return null;
  const from = versionOfRow(row);
  const previous = row.state_modified_at == null ? 0 : toDate(row.state_modified_at).getTime();
  const t = now();
  // As MikroORM binds a date on this dialect (SQLite: epoch milliseconds).
  const stored = em.getPlatform().processDateProperty(t.getTime() > previous ? t : new Date(previous + 1));
  await knex('namespaces').update({ state_modified_at: stored }).where('key', namespaceKey);
  const namespace = em.map(Namespace, { ...row, state_modified_at: stored });
  return { namespace, from, to: versionOfRow({ ...row, state_modified_at: stored }) };
}

/** The knex of the entity manager's transaction (or of its connection, outside one). */
function transactionKnex(em: EntityManager): Knex {
  return (em.getTransactionContext<Knex.Transaction>() ?? (em as SqlEntityManager).getKnex()) as Knex;
}

/** Inside the write's transaction, after its flush: what it left of the flag or segment it names. */
async function readChange(em: EntityManager, scope: WriteScope, from: string, to: string): Promise<NamespaceChange> {
  const knex = transactionKnex(em);
  const delta: NamespaceDelta = { from, to, flags: [], removedFlags: [], segments: [], removedSegments: [] };
  const flagKey = scope.flag ?? (await flagKeyOf(knex, scope));
  if (flagKey !== undefined) {
    delta.flags = await loadFlags(knex, scope.namespace, [flagKey]);
    if (delta.flags.length === 0) delta.removedFlags.push(flagKey);
  }
  if (scope.segment !== undefined) {
    delta.segments = await loadSegments(knex, scope.namespace, [scope.segment]);
    if (delta.segments.length === 0) delta.removedSegments.push(scope.segment);
  }
  if (flagKey === undefined && scope.segment === undefined && scope.rule === undefined && scope.rollout === undefined) {
    const [row] = (await knex('namespaces').select('key').where('key', scope.namespace)) as unknown[];
    if (!row) return { deleted: true };
  }
  return { delta };
}

/** The key of the flag whose rule or rollout the scope names, if it is in the namespace. */
async function flagKeyOf(knex: Knex, scope: WriteScope): Promise<string | undefined> {
  const [table, id] = scope.rule !== undefined ? ['rules', scope.rule] : scope.rollout !== undefined ? ['rollouts', scope.rollout] : [];
  if (table === undefined) return undefined;
  const [row] = (await knex(`${table} as c`).join('flags as f', 'f.id', 'c.flag_id').select('f.key')
    .where('c.id', id).andWhere('f.namespace_key', scope.namespace)) as Array<{ key: string }>;
  return row ? String(row.key) : undefined;
}
