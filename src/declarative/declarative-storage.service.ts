/**
 * Declarative, read-only storage (`storage.type: local` or `git`): flag state comes from Flipt-format files, and the
 * API cannot change it (Flipt's read-only error). The files' state is mirrored into the database, namespace by
 * namespace, each in one transaction; everything that reads flag state (evaluation, snapshots, OFREP, the management
 * API, the UI) reads it there as it would any other, and every instance reloads a namespace when its mirror changes.
 *
 * The source (a directory, local-source.ts; a Git repository, git-source.ts) is asked for its version on every
 * poll (`poll_interval`) and whenever it reports a change (a directory's file watcher, within about 100 ms); only a
 * new version is read. Files that do not read or check are refused whole: the last good state keeps serving, the
 * problem is logged and `/health` names it. At start-up there is no last good state: a refused state, or a source
 * that cannot be reached, stops the start with the problem as the message.
 *
 * Mirroring replaces what the database holds: it refuses to start on a database holding flags or segments that it
 * did not mirror itself (a database used with `storage.type: database`), rather than delete them.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { OperationLock } from '../auth/operation-lock.entity';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { DEFAULT_NAMESPACE, type NamespaceDocument } from '../flags-as-code/document';
import { readDocuments } from '../flags-as-code/document-reader';
import { deleteNamespaceState, flagStateCount, namespaceKeys, writeNamespaceDocument } from '../flags-as-code/document.repository';
import { HealthService } from '../health/health.service';
import { Namespace } from '../namespaces/namespace.entity';
import { Database, wholeNamespace } from '../storage/database.service';
import { buildState, type DeclarativeState } from './declarative-state';
import { GitSource } from './git-source';
import { LocalSource } from './local-source';
import type { StateFile } from './state-files';
import type { StateSource } from './state-source';

/** The row that says this database's flag state is a mirror (operation_lock: a name that is never acquired). */
const MIRROR_MARKER = 'declarative_storage_mirror';
/** Quiet time after a file event before reading: an editor's save or `git checkout` is several events. */
const SETTLE_MS = 100;

export interface DeclarativeStatus {
  /** The source: `type` and where (path, or repository and ref). */
  [source: string]: unknown;
  /** The version served (a commit for Git), when it reached the database, and how many files it came from. */
  revision?: string;
  appliedAt: string | null;
  files: number;
  /** Why the latest version of the files was refused or could not be read (the last good state keeps serving). */
  error?: string;
}

@Injectable()
export class DeclarativeStorage implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeclarativeStorage');
  private readonly source: StateSource | null;
  /** `storage.read_only` with the database: the API refuses writes to flag state. */
  private readonly readOnly: boolean;
  private readonly maxAliasNodes: number;
  private applied = new Map<string, string>();
  /** Each file's documents as last read, by path: a file whose text has not changed is not parsed again. */
  private parsed = new Map<string, { text: string; documents: NamespaceDocument[] }>();
  private version = '';
  private status: DeclarativeStatus;
  private unwatch: (() => void) | null = null;
  private poller: NodeJS.Timeout | null = null;
  private settle: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** Shutting down: no new run starts (it would race the database closing and the source's clean-up). */
  private closed = false;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly db: Database,
    health: HealthService,
  ) {
    const { storage } = config;
    this.readOnly = storage.readOnly;
    this.maxAliasNodes = config.limits.maxYamlAliasNodes;
    this.source = storage.type === 'local' ? new LocalSource(storage.local.path, storage.local.pollInterval)
      : storage.type === 'git' ? new GitSource(storage.git) : null;
    this.status = { ...this.source?.description, appliedAt: null, files: 0 };
    if (this.source) health.describe('storage', () => ({ ...this.status }));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.source) {
      // Written through the API from now on: whatever was mirrored here is the API's to keep.
      await this.db.write(null, (em) => em.nativeDelete(OperationLock, { operation: MIRROR_MARKER }));
      if (this.readOnly) this.db.makeReadOnly();
      return;
    }
    this.db.makeReadOnly();
    try {
      await this.claimDatabase();
      // The first state must be good: there is nothing else to serve.
      await this.refresh(true);
    } catch (e) {
      // The process exits: leave nothing behind (a Git source's temporary directory).
      await this.source.close().catch(() => undefined);
      throw e;
    }
    this.startWatching();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.unwatch?.();
    if (this.poller) clearInterval(this.poller);
    if (this.settle) clearTimeout(this.settle);
    this.unwatch = this.poller = this.settle = null;
    await this.running?.catch(() => undefined);
    await this.source?.close();
  }

  current(): DeclarativeStatus {
    return { ...this.status };
  }

  /** Reads the files when they changed and mirrors what changed; one run at a time, a request during it runs again after. */
  refresh(strict = false): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run(strict).finally(() => {
      this.running = null;
      if (this.again && !this.closed) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  private async run(strict: boolean): Promise<void> {
    const source = this.source!;
    let read;
    try {
      const snapshot = await source.current();
      if (snapshot.version === this.version && !strict) {
        // Back to the version last mirrored (a bad change undone): nothing to write, nothing refused any more.
        if (this.status.error) this.accepted();
        return;
      }
      read = await snapshot.files();
      const state = buildState(read.files, (file) => this.documentsOf(file));
      this.parsed = new Map(read.files.map((f) => [f.path, this.parsed.get(f.path)!]));
      const started = Date.now();
      const changed = await this.mirror(state);
      this.version = snapshot.version;
      if (this.status.error) this.accepted();
      const revision = source instanceof GitSource ? { revision: snapshot.version } : {};
      this.status = { ...source.description, ...revision, appliedAt: new Date().toISOString(), files: read.files.length };
      if (changed > 0 || strict) {
        this.logger.log(`mirrored ${changed} of ${state.namespaces.size} namespaces from ${read.files.length} files in ${Date.now() - started} ms`);
      }
    } catch (e) {
      // Some namespaces of the refused version may have been written before the failure: the next run must compare
      // every namespace again, even for the version it last served.
      this.version = '';
      const message = (e as Error).message;
      if (strict) {
        const { type, path, repository, ref } = source.description as Record<string, string>;
        throw new Error(`storage.${type}: the files in ${path ?? `${repository} (${ref})`} cannot be served: ${message}`);
      }
      if (this.status.error !== message) this.logger.error(`files refused, still serving the last good state: ${message}`);
      this.status = { ...this.status, error: message };
    }
  }

  private documentsOf(file: StateFile): NamespaceDocument[] {
    const cached = this.parsed.get(file.path);
    if (cached?.text === file.text) return cached.documents;
    const documents = readDocuments(file.text, { source: file.path, maxAliasNodes: this.maxAliasNodes });
    this.parsed.set(file.path, { text: file.text, documents });
    return documents;
  }

  private accepted(): void {
    this.logger.log('files accepted again');
    const { error: _refused, ...rest } = this.status;
    this.status = rest;
  }

  /** Writes the namespaces whose documents changed and removes those no file describes any more. */
  private async mirror(state: DeclarativeState): Promise<number> {
    let changed = 0;
    for (const [key, doc] of state.namespaces) {
      const digest = state.digests.get(key)!;
      if (this.applied.get(key) === digest) continue;
      const write = () => this.db.writeFromSource(wholeNamespace(key), (em, locked) => writeNamespaceDocument(em, doc, locked, { drop: true, renameNamespace: true }));
      // Replicas mirroring into one database may create a new namespace at the same moment: the second one, once it
      // exists, replaces it.
      await write().catch((e: unknown) => {
        if (e instanceof UniqueConstraintViolationException) return write();
        throw e;
      });
      this.applied.set(key, digest);
      changed++;
    }
    const stored = await this.db.read((em) => namespaceKeys(em));
    for (const key of stored) {
      if (state.namespaces.has(key)) continue;
      await this.db.writeFromSource(wholeNamespace(key), async (em) => {
        await deleteNamespaceState(em, key);
        if (key !== DEFAULT_NAMESPACE) await em.nativeDelete(Namespace, { key });
      });
      this.applied.delete(key);
      changed++;
    }
    return changed;
  }

  /**
   * Refuses a database that holds flag state this storage did not put there; marks an empty one as its mirror.
   * Credentials, audit events and locks in it are left alone.
   */
  private async claimDatabase(): Promise<void> {
    const marked = await this.db.read((em) => em.findOne(OperationLock, { operation: MIRROR_MARKER }));
    if (marked) return;
    const count = await this.db.read((em) => flagStateCount(em));
    if (count > 0) {
      throw new Error(
        `storage.type local mirrors its files into db.url, which holds ${count} flags and segments made through the API; ` +
          'point db.url at a database of its own (the default SQLite file in a new data directory will do) rather than lose them',
      );
    }
    const at = new Date();
    try {
      await this.db.write(null, (em) => em.insert(OperationLock, { operation: MIRROR_MARKER, version: 1, lastAcquiredAt: at, acquiredUntil: at }));
    } catch (e) {
      // Another replica starting on the same database marked it first.
      if (!(e instanceof UniqueConstraintViolationException)) throw e;
    }
  }

  private startWatching(): void {
    const source = this.source!;
    const changed = () => {
      if (this.settle) clearTimeout(this.settle);
      this.settle = setTimeout(() => void this.refresh(), SETTLE_MS);
      this.settle.unref();
    };
    if (source.watch) {
      try {
        this.unwatch = source.watch(changed);
      } catch (e) {
        this.logger.warn(`cannot watch the files (${(e as Error).message}); looking for changes every ${source.pollInterval} ms`);
      }
    }
    this.poller = setInterval(() => void this.refresh(), source.pollInterval);
    this.poller.unref();
  }
}
