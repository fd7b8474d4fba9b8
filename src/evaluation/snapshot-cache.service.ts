/**
 * One compiled snapshot per namespace, held in memory: evaluations never query the database.
 *
 * A write brings the loaded snapshot forward with its delta (core/snapshot-delta.ts), on the writing instance before
 * the write answers and on the others when the shared bus (Redis) delivers it: the cost is what the write changed,
 * and evaluations never wait for it. A full load is the fallback — a namespace evaluated for the first time, a delta
 * that does not follow on from the snapshot (a message missed), a change announced without its delta — and runs
 * in slices that give the event loop back, at most `limits.max_snapshot_loads` at once, while the snapshot it
 * replaces keeps answering. Only when this instance's own write could not be applied does an evaluation wait for
 * the load, and then for at most STALE_ANSWER_AFTER_MS: if the database does not answer, the last snapshot does,
 * and loads are retried in the background until one succeeds.
 *
 * Writes made by other instances are also caught without any shared bus: once a second, one query compares the
 * stored versions of the loaded namespaces with the snapshots' versions (with a bus, a version must have been
 * behind for a whole poll interval, so that the deltas on their way are not overtaken by a full load).
 *
 * A namespace found not to exist is remembered for `limits.unknown_namespace_ttl` (at most
 * `limits.unknown_namespace_entries` of them, the oldest forgotten first), so that clients asking for it again and
 * again, or batches naming many, make no query each time. A change announced for it (its creation, here or, through
 * a shared bus, elsewhere) forgets it at once; without a shared bus, another instance's creation is seen within the
 * TTL.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
// p-limit 3 is the last CommonJS major of the library; 4+ are ESM only.
import pLimit from 'p-limit';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { EvaluationCache } from '../cache/evaluation-cache.service';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { addFlagsPaced, applyDelta, compileSnapshot, compileSnapshotPaced, type LiveSnapshot, type NamespaceDelta, type NamespaceSource, type Snapshot, startSnapshot } from '../core';
import { Database } from '../storage/database.service';
import { Changes, type NamespaceChange } from '../storage/changes';
import { flagPages, loadNamespaceSource, loadNamespaceVersion, loadSegments, versionOfRow } from '../storage/evaluation-source';
import { Tracing } from '../tracing/tracing';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

export const VERSION_POLL_MS = 1000;
/** Namespaces per query of the version poll. */
const POLL_BATCH = 500;
/**
 * After a failed reload (database unreachable) evaluations get the last snapshot at once, without waiting for the
 * database, and a new attempt starts in the background at most this often.
 */
export const RETRY_AFTER_FAILURE_MS = 1000;
/** A reload that takes longer than this (a database that does not answer) is not waited for: the last snapshot answers. */
export const STALE_ANSWER_AFTER_MS = 500;
/** At most one `confirm` query per namespace this often. */
export const CONFIRM_EVERY_MS = 1000;
/** A full load's compile gives the event loop back after about this long. */
export const COMPILE_SLICE_MS = 5;

const PACING = { pause: () => nextTurn(), sliceMs: COMPILE_SLICE_MS, now: () => performance.now() };

interface Entry {
  snapshot: LiveSnapshot | null;
  /** Bumped by every change announced without a delta; a load started under an older generation may miss it. */
  generation: number;
  /**
   * `fresh`: up to date as far as this instance knows. `behind`: a change could not be applied; the next
   * evaluation starts a load and answers from this snapshot meanwhile. `waited`: this instance's own write could
   * not be applied; evaluations wait (briefly) for the load, so the writer reads its write back.
   */
  state: 'fresh' | 'behind' | 'waited';
  loading: Promise<LiveSnapshot> | null;
  /** Deltas that arrived while a load ran: applied to its result (they may be newer than what it read). */
  pending: NamespaceDelta[];
  /** When the last reload failed; 0 while reloads succeed. */
  failedAt: number;
  /**
   * The generation that failed to load. A change announced since (a write, here or elsewhere) is waited for once
   * more, so that a write made as soon as the database is back is seen by the next evaluation.
   */
  failedGeneration: number;
  /** The stored version the last poll saw, when it was ahead of the snapshot (see pollVersions). */
  polledAhead: string | null;
  /** When `confirm` last asked the database (0: never). */
  confirmedAt: number;
}

/**
 * What a watcher learns of a loaded namespace: the version its snapshot has now reached, that it fell behind (a
 * change it could not apply; a load brings it forward when something asks for the namespace), or that it is gone.
 */
export type SnapshotUpdate = { version: string } | { behind: true } | { deleted: true };
export type SnapshotWatcher = (namespaceKey: string, update: SnapshotUpdate) => void;

interface Unknown {
  /** Empty, without version: evaluations answer "not found" from it. */
  snapshot: Snapshot;
  expiresAt: number;
}

@ProcessDuty()
@Injectable()
export class SnapshotCache implements ProcessDutyProvider, OnModuleDestroy {
  private readonly logger = new Logger('SnapshotCache');
  private readonly entries = new Map<string, Entry>();
  /** Namespaces found not to exist, oldest first (Map order is insertion order). */
  private readonly unknown = new Map<string, Unknown>();
  private readonly unknownTtl: number;
  private readonly unknownEntries: number;
  /** Full loads queue here, `limits.max_snapshot_loads` at a time. */
  private readonly loads: pLimit.Limit;
  private readonly unsubscribe: () => void;
  private poller: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly watchers = new Set<SnapshotWatcher>();

  constructor(
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly cache: EvaluationCache,
    @Inject(CONFIG) config: FlagpoleConfig,
    @Optional() private readonly tracing: Tracing = Tracing.OFF,
  ) {
    this.unknownTtl = config.limits.unknownNamespaceTtl;
    this.unknownEntries = config.limits.unknownNamespaceEntries;
    this.loads = pLimit(config.limits.maxSnapshotLoads);
    this.unsubscribe = changes.subscribe('namespace', (ns, change, local) => this.changed(ns, change, local));
  }

  start(): void {
    // A process duty: the write worker evaluates nothing.
    this.poller = setInterval(() => void this.pollVersions(), VERSION_POLL_MS);
    this.poller.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
    if (this.poller) clearInterval(this.poller);
  }

  /**
   * Marks behind every loaded snapshot whose namespace changed (or vanished) in the database without its delta.
   * Asks for POLL_BATCH namespaces per query, so that thousands of loaded namespaces make several short stretches of
   * work rather than one long one.
   */
  async pollVersions(): Promise<void> {
    const loaded = [...this.entries.entries()].filter(([, e]) => e.snapshot && e.state === 'fresh' && !e.loading);
    if (this.polling || loaded.length === 0) return;
    this.polling = true;
    try {
      for (let i = 0; i < loaded.length; i += POLL_BATCH) {
        const batch = loaded.slice(i, i + POLL_BATCH);
        const rows = (await this.db.read((em) =>
          (em as SqlEntityManager).getKnex()('namespaces').select('key', 'updated_at', 'state_modified_at').whereIn('key', batch.map(([k]) => k)),
        )) as Array<Record<string, unknown>>;
        const current = new Map(rows.map((r) => [String(r.key), versionOfRow(r)]));
        for (const [key, entry] of batch) this.compareVersion(key, entry, current.get(key));
      }
    } catch (e) {
      // Database down: keep serving what is loaded; the next poll tries again.
      this.logger.debug(`version poll failed: ${(e as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  /** `stored`: the namespace's version in the database, undefined when it is gone. */
  private compareVersion(key: string, entry: Entry, stored: string | undefined): void {
    if (!entry.snapshot || entry.state !== 'fresh') return; // changed while the poll ran
    const mine = entry.snapshot.version;
    if (stored === mine || (stored !== undefined && Number(stored) < Number(mine))) {
      // Up to date (or a delta arrived after the poll read the version).
      entry.polledAhead = null;
    } else if (stored === undefined || !this.changes.shared) {
      this.fallBehind(key, entry, 'behind');
    } else if (entry.polledAhead !== null && Number(mine) < Number(entry.polledAhead)) {
      // Still short of what the previous poll saw: its delta did not come.
      this.fallBehind(key, entry, 'behind');
    } else {
      entry.polledAhead = stored;
    }
  }

  /**
   * Calls `watcher` whenever a loaded snapshot moves to a new version, falls behind or is dropped (its namespace
   * deleted): after the change, so the watcher reads the new state. Returns the unsubscribe.
   */
  watch(watcher: SnapshotWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private tell(namespaceKey: string, update: SnapshotUpdate): void {
    for (const w of this.watchers) w(namespaceKey, update);
  }

  /** The namespace's current snapshot; synchronous-fast when loaded and up to date. */
  get(namespaceKey: string): Snapshot | Promise<Snapshot> {
    const entry = this.entries.get(namespaceKey);
    if (entry?.snapshot && entry.state === 'fresh') return entry.snapshot;
    if (!entry?.snapshot) return (entry === undefined && this.knownUnknown(namespaceKey)) || this.load(namespaceKey, entry);
    const last = entry.snapshot;
    if (entry.state === 'behind' || (entry.failedAt > 0 && entry.failedGeneration === entry.generation)) {
      const retry = entry.failedAt === 0 || Date.now() - entry.failedAt >= RETRY_AFTER_FAILURE_MS;
      if (!entry.loading && retry) void this.load(namespaceKey, entry);
      return last;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // Later evaluations answer at once too, until the reload completes (failedAt is cleared on success).
        if (entry.loading && entry.failedAt === 0) {
          entry.failedAt = Date.now();
          entry.failedGeneration = entry.generation;
          this.logger.warn(`serving the last snapshot of namespace "${namespaceKey}": the database has not answered a reload for ${STALE_ANSWER_AFTER_MS} ms`);
        }
        resolve(last);
      }, STALE_ANSWER_AFTER_MS);
      void this.load(namespaceKey, entry).then((snapshot) => {
        clearTimeout(timer);
        resolve(snapshot);
      });
    });
  }

  /**
   * The namespace's snapshot, made sure of: a client says it heard of another version of the namespace (an event
   * stream's tag: another instance may have applied a write this one has not received yet). One query compares the
   * stored version with the snapshot's, at most once per CONFIRM_EVERY_MS per namespace whatever clients send; when
   * the database is ahead the namespace loads and this caller waits for it (at most STALE_ANSWER_AFTER_MS), while
   * other evaluations keep answering from the snapshot.
   */
  confirm(namespaceKey: string): Snapshot | Promise<Snapshot> {
    const current = this.get(namespaceKey);
    const entry = this.entries.get(namespaceKey);
    if (current instanceof Promise || !entry?.snapshot || entry.state !== 'fresh') return current;
    const now = Date.now();
    if (now - entry.confirmedAt < CONFIRM_EVERY_MS) return current;
    entry.confirmedAt = now;
    const checked = this.db
      .read((em) => loadNamespaceVersion(em, namespaceKey))
      .then((stored): Snapshot | Promise<Snapshot> => {
        if (stored === null || entry.snapshot === null || Number(stored) <= Number(entry.snapshot.version)) return entry.snapshot ?? current;
        this.fallBehind(namespaceKey, entry, 'behind');
        return this.load(namespaceKey, entry);
      })
      .catch(() => current);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(entry.snapshot ?? current), STALE_ANSWER_AFTER_MS);
      void checked.then((snapshot) => {
        clearTimeout(timer);
        resolve(snapshot);
      });
    });
  }

  /** A committed write (here, or elsewhere through the shared bus). */
  private changed(namespaceKey: string, change: NamespaceChange | undefined, local: boolean): void {
    this.unknown.delete(namespaceKey);
    const entry = this.entries.get(namespaceKey);
    if (!entry) return;
    if (change?.deleted) {
      // Gone: the next evaluation finds out (and remembers it briefly) like for any unknown namespace.
      this.entries.delete(namespaceKey);
      entry.generation++;
      this.tell(namespaceKey, { deleted: true });
      return;
    }
    const delta = change?.delta;
    if (!delta) {
      entry.generation++;
      this.fallBehind(namespaceKey, entry, local ? 'waited' : 'behind');
      return;
    }
    if (entry.loading) entry.pending.push(delta);
    if (!entry.snapshot || entry.state === 'waited') return;
    const applied = applyDelta(entry.snapshot, delta);
    if (applied === 'applied') this.tell(namespaceKey, { version: entry.snapshot.version });
    else if (applied === 'gap' && !entry.loading) this.fallBehind(namespaceKey, entry, local ? 'waited' : 'behind');
  }

  private fallBehind(namespaceKey: string, entry: Entry, state: 'behind' | 'waited'): void {
    entry.polledAhead = null;
    if (entry.state !== 'waited') entry.state = state;
    this.tell(namespaceKey, { behind: true });
  }

  private load(namespaceKey: string, existing: Entry | undefined): Promise<Snapshot> {
    const entry: Entry = existing ?? {
      snapshot: null, generation: 0, state: 'behind', loading: null, pending: [], failedAt: 0, failedGeneration: 0, polledAhead: null, confirmedAt: 0,
    };
    if (entry.loading) return entry.loading;
    const generation = entry.generation;
    entry.pending = [];
    entry.loading = this.tracing.inSpan('snapshot.load', { 'flipt.namespace': namespaceKey }, () => this.loads(() => this.compile(namespaceKey)))
      .then((snapshot) => {
        if (snapshot === null) {
          // Not kept with the snapshots (their number is unbounded): remembered briefly, unless a change was
          // announced while the query ran. An empty snapshot answers "not found".
          if (this.entries.get(namespaceKey) === entry) this.entries.delete(namespaceKey);
          const empty = compileSnapshot({ key: namespaceKey, version: '', flags: [], segments: [] });
          if (entry.generation === generation) this.rememberUnknown(namespaceKey, empty);
          return empty;
        }
        if (entry.failedAt > 0) this.logger.log(`namespace "${namespaceKey}" reloaded: the database answers again`);
        entry.failedAt = 0;
        entry.state = entry.generation === generation && catchUp(snapshot, entry.pending) ? 'fresh' : 'behind';
        const before = entry.snapshot?.version;
        entry.snapshot = snapshot;
        if (snapshot.version !== before) this.tell(namespaceKey, { version: snapshot.version });
        return snapshot;
      })
      .catch((e: Error) => {
        if (!entry.snapshot) throw e;
        if (entry.failedAt === 0) {
          this.logger.warn(`serving the last snapshot of namespace "${namespaceKey}" until the database answers: reload failed: ${e.message}`);
        }
        entry.failedAt = Date.now();
        entry.failedGeneration = generation;
        return entry.snapshot;
      })
      .finally(() => {
        entry.loading = null;
        entry.pending = [];
      });
    if (!existing) this.entries.set(namespaceKey, entry);
    return entry.loading;
  }

  /** The empty snapshot of a namespace recently found not to exist, or undefined. */
  private knownUnknown(namespaceKey: string): Snapshot | undefined {
    const unknown = this.unknown.get(namespaceKey);
    if (unknown === undefined) return undefined;
    if (Date.now() < unknown.expiresAt) return unknown.snapshot;
    this.unknown.delete(namespaceKey);
    return undefined;
  }

  private rememberUnknown(namespaceKey: string, snapshot: Snapshot): void {
    if (this.unknownTtl <= 0 || this.unknownEntries <= 0) return;
    this.unknown.delete(namespaceKey);
    while (this.unknown.size >= this.unknownEntries) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(namespaceKey, { snapshot, expiresAt: Date.now() + this.unknownTtl });
  }

  private async compile(namespaceKey: string): Promise<LiveSnapshot | null> {
    if (this.cache.enabled) {
      const source = await this.cachedSource(namespaceKey);
      return source ? compileSnapshotPaced(source, PACING) : null;
    }
    // Page by page: each page's rows are compiled and dropped before the next is read.
    return this.db.read(async (em) => {
      const version = await loadNamespaceVersion(em, namespaceKey);
      if (version === null) return null;
      const knex = (em as SqlEntityManager).getKnex();
      const snapshot = startSnapshot(namespaceKey, version, await loadSegments(knex, namespaceKey));
      for await (const page of flagPages(knex, namespaceKey)) await addFlagsPaced(snapshot, page, PACING);
      return snapshot;
    });
  }

  /**
   * With `cache.enabled`: one query for the namespace's version, then its state from the cache under that version
   * (loaded by this or another instance), or from the database and stored for the others.
   */
  private async cachedSource(namespaceKey: string): Promise<NamespaceSource | null> {
    const version = await this.db.read((em) => loadNamespaceVersion(em, namespaceKey));
    if (version === null) return null;
    const key = `snapshot:${namespaceKey}:${version}`;
    const cached = await this.cache.get<NamespaceSource>(key);
    if (cached) return cached;
    const source = await this.db.read((em) => loadNamespaceSource(em, namespaceKey));
    // A write between the two reads gives a newer version: store it under its own key.
    if (source) await this.cache.set(`snapshot:${namespaceKey}:${source.version}`, source);
    return source;
  }
}

/**
 * Applies, in order, the deltas that arrived while the snapshot loaded; those it already holds are skipped. False
 * when one does not follow on (the snapshot must load again).
 */
function catchUp(snapshot: LiveSnapshot, pending: readonly NamespaceDelta[]): boolean {
  const ordered = [...pending].sort((a, b) => Number(a.to) - Number(b.to));
  return ordered.every((delta) => applyDelta(snapshot, delta) !== 'gap');
}
