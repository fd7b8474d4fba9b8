/**
 * One compiled snapshot per namespace, held in memory: evaluations never query the database. A write to a
 * namespace (announced through Changes, locally or from another instance) marks its snapshot stale; the
 * next evaluation reloads it. If the reload fails or the database does not answer within STALE_ANSWER_AFTER_MS, the
 * stale snapshot keeps answering at once, and reloads are retried in the background until one succeeds.
 *
 * Writes made by other instances are also caught without any shared bus: once a second, one query compares the
 * stored versions of the loaded namespaces with the snapshots' versions.
 *
 * A namespace found not to exist is remembered for `limits.unknown_namespace_ttl` (at most
 * `limits.unknown_namespace_entries` of them, the oldest forgotten first), so that clients asking for it again and
 * again, or batches naming many, make no query each time. A change announced for it (its creation, here or, through
 * a shared bus, elsewhere) forgets it at once; without a shared bus, another instance's creation is seen within the
 * TTL.
 */
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { EvaluationCache } from '../cache/evaluation-cache.service';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { compileSnapshot, type NamespaceSource, type Snapshot } from '../core';
import { Database } from '../storage/database.service';
import { Changes } from '../storage/changes';
import { loadNamespaceSource, loadNamespaceVersion, versionOfRow } from './snapshot-loader';

export const VERSION_POLL_MS = 1000;
/**
 * After a failed reload (database unreachable) evaluations get the last snapshot at once, without waiting for the
 * database, and a new attempt starts in the background at most this often.
 */
export const RETRY_AFTER_FAILURE_MS = 1000;
/** A reload that takes longer than this (a database that does not answer) is not waited for: the last snapshot answers. */
export const STALE_ANSWER_AFTER_MS = 500;

interface Entry {
  snapshot: Snapshot | null;
  /** Bumped by every change notification; a load started under an older generation is not trusted as fresh. */
  generation: number;
  stale: boolean;
  loading: Promise<Snapshot> | null;
  /** When the last reload failed; 0 while reloads succeed. */
  failedAt: number;
  /**
   * The generation that failed to load. A change announced since (a write, here or elsewhere) is waited for once
   * more, so that a write made as soon as the database is back is seen by the next evaluation.
   */
  failedGeneration: number;
}

interface Unknown {
  /** Empty, without version: evaluations answer "not found" from it. */
  snapshot: Snapshot;
  expiresAt: number;
}

@Injectable()
export class SnapshotCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SnapshotCache');
  private readonly entries = new Map<string, Entry>();
  /** Namespaces found not to exist, oldest first (Map order is insertion order). */
  private readonly unknown = new Map<string, Unknown>();
  private readonly unknownTtl: number;
  private readonly unknownEntries: number;
  private readonly unsubscribe: () => void;
  private poller: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: Database,
    changes: Changes,
    private readonly cache: EvaluationCache,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.unknownTtl = config.limits.unknownNamespaceTtl;
    this.unknownEntries = config.limits.unknownNamespaceEntries;
    this.unsubscribe = changes.subscribe('namespace', (ns) => this.invalidate(ns));
  }

  onModuleInit(): void {
    this.poller = setInterval(() => void this.pollVersions(), VERSION_POLL_MS);
    this.poller.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
    if (this.poller) clearInterval(this.poller);
  }

  /** Marks stale every loaded snapshot whose namespace changed (or vanished) in the database. */
  async pollVersions(): Promise<void> {
    const loaded = [...this.entries.entries()].filter(([, e]) => e.snapshot && !e.stale);
    if (this.polling || loaded.length === 0) return;
    this.polling = true;
    try {
      const rows = (await this.db.read((em) =>
        (em as SqlEntityManager).getKnex()('namespaces').select('key', 'updated_at', 'state_modified_at').whereIn('key', loaded.map(([k]) => k)),
      )) as Array<Record<string, unknown>>;
      const current = new Map(rows.map((r) => [String(r.key), versionOfRow(r)]));
      for (const [key, entry] of loaded) {
        if (current.get(key) !== entry.snapshot!.version) this.invalidate(key);
      }
    } catch (e) {
      // Database down: keep serving what is loaded; the next poll tries again.
      this.logger.debug(`version poll failed: ${(e as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  /** The namespace's current snapshot; synchronous-fast when cached and fresh. */
  get(namespaceKey: string): Snapshot | Promise<Snapshot> {
    const entry = this.entries.get(namespaceKey);
    if (entry?.snapshot && !entry.stale) return entry.snapshot;
    if (!entry?.snapshot) return (entry === undefined && this.knownUnknown(namespaceKey)) || this.load(namespaceKey, entry);
    const last = entry.snapshot;
    if (entry.failedAt > 0 && entry.failedGeneration === entry.generation) {
      if (!entry.loading && Date.now() - entry.failedAt >= RETRY_AFTER_FAILURE_MS) void this.load(namespaceKey, entry);
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

  invalidate(namespaceKey: string): void {
    this.unknown.delete(namespaceKey);
    const entry = this.entries.get(namespaceKey);
    if (!entry) return;
    entry.generation++;
    entry.stale = true;
  }

  private load(namespaceKey: string, existing: Entry | undefined): Promise<Snapshot> {
    const entry: Entry = existing ?? { snapshot: null, generation: 0, stale: true, loading: null, failedAt: 0, failedGeneration: 0 };
    if (entry.loading) return entry.loading;
    const generation = entry.generation;
    entry.loading = this.compile(namespaceKey)
      .then((snapshot) => {
        if (snapshot === null) {
          // Not kept with the snapshots (their number is unbounded): remembered briefly, unless a change was
          // announced while the query ran. An empty snapshot answers "not found".
          this.entries.delete(namespaceKey);
          const empty = compileSnapshot({ key: namespaceKey, version: '', flags: [], segments: [] });
          if (entry.generation === generation) this.rememberUnknown(namespaceKey, empty);
          return empty;
        }
        if (entry.failedAt > 0) this.logger.log(`namespace "${namespaceKey}" reloaded: the database answers again`);
        entry.failedAt = 0;
        entry.snapshot = snapshot;
        entry.stale = entry.generation !== generation;
        this.entries.set(namespaceKey, entry);
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

  private async compile(namespaceKey: string): Promise<Snapshot | null> {
    const source = this.cache.enabled ? await this.cachedSource(namespaceKey) : await this.db.read((em) => loadNamespaceSource(em, namespaceKey));
    return source ? compileSnapshot(source) : null;
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
