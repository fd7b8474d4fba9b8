/**
 * Declarative, read-only storage (`storage.type: local`): flag state comes from Flipt-format files, and the API
 * cannot change it (Flipt's read-only error). The files' state is mirrored into the database, namespace by
 * namespace, each in one transaction; everything that reads flag state (evaluation, snapshots, OFREP, the management
 * API, the UI) reads it there as it would any other, and every instance reloads a namespace when its mirror changes.
 *
 * Changes are seen by a file watcher (node:fs `watch`, recursive) within about 100 ms, and by a poll every
 * `storage.local.poll_interval` for file systems that report nothing. Files that do not read or check are refused
 * whole: the last good state keeps serving, the problem is logged and `/health` names it. At start-up there is no
 * last good state: a refused state stops the start, with the problem as the message.
 *
 * Mirroring replaces what the database holds: it refuses to start on a database holding flags or segments that it
 * did not mirror itself (a database used with `storage.type: database`), rather than delete them.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { OperationLock } from '../auth/operation-lock.entity';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { DEFAULT_NAMESPACE } from '../flags-as-code/document';
import { deleteNamespaceState, namespaceKeys, writeNamespaceDocument } from '../flags-as-code/document.repository';
import { HealthService } from '../health/health.service';
import { Namespace } from '../namespaces/namespace.entity';
import { Database, wholeNamespace } from '../storage/database.service';
import { buildState, type DeclarativeState } from './declarative-state';
import { listStateFiles, readIndex, readStateFiles } from './state-files';

/** The row that says this database's flag state is a mirror (operation_lock: a name that is never acquired). */
const MIRROR_MARKER = 'declarative_storage_mirror';
/** Quiet time after a file event before reading: an editor's save or `git checkout` is several events. */
const SETTLE_MS = 100;

export interface DeclarativeStatus {
  type: string;
  path: string;
  /** When the files' state last reached the database, and how many files it came from. */
  appliedAt: string | null;
  files: number;
  /** Why the latest change of the files was refused (the last good state keeps serving). */
  error?: string;
}

@Injectable()
export class DeclarativeStorage implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeclarativeStorage');
  private readonly root: string;
  private readonly enabled: boolean;
  private applied = new Map<string, string>();
  private signature = '';
  private status: DeclarativeStatus;
  private watcher: FSWatcher | null = null;
  private poller: NodeJS.Timeout | null = null;
  private settle: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly db: Database,
    health: HealthService,
  ) {
    this.enabled = config.storage.type === 'local';
    this.root = resolve(config.storage.local.path);
    this.status = { type: config.storage.type, path: this.root, appliedAt: null, files: 0 };
    if (this.enabled) health.describe('storage', () => ({ ...this.status }));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) {
      // Written through the API from now on: whatever was mirrored here is the API's to keep.
      await this.db.write(null, (em) => em.nativeDelete(OperationLock, { operation: MIRROR_MARKER }));
      return;
    }
    this.db.makeReadOnly();
    await this.claimDatabase();
    // The first state must be good: there is nothing else to serve.
    await this.refresh(true);
    this.startWatching();
  }

  onModuleDestroy(): void {
    this.watcher?.close();
    if (this.poller) clearInterval(this.poller);
    if (this.settle) clearTimeout(this.settle);
    this.watcher = this.poller = this.settle = null;
  }

  current(): DeclarativeStatus {
    return { ...this.status };
  }

  /** Reads the files when they changed and mirrors what changed; one run at a time, a request during it runs again after. */
  refresh(strict = false): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run(strict).finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  private async run(strict: boolean): Promise<void> {
    let state: DeclarativeState;
    let files: number;
    try {
      const signature = await this.filesSignature();
      if (signature === this.signature && !strict) {
        // Back to the files last mirrored (a bad change undone): nothing to write, nothing refused any more.
        if (this.status.error) this.accepted();
        return;
      }
      const read = await readStateFiles(this.root);
      state = buildState(read);
      files = read.length;
      this.signature = signature;
    } catch (e) {
      const message = (e as Error).message;
      if (strict) throw new Error(`storage.local: the files in ${this.root} cannot be served: ${message}`);
      if (this.status.error !== message) this.logger.error(`files refused, still serving the last good state: ${message}`);
      this.status = { ...this.status, error: message };
      return;
    }
    const started = Date.now();
    const changed = await this.mirror(state);
    if (this.status.error) this.accepted();
    this.status = { type: this.status.type, path: this.root, appliedAt: new Date().toISOString(), files };
    if (changed > 0 || strict) {
      this.logger.log(`mirrored ${changed} of ${state.namespaces.size} namespaces from ${files} files in ${Date.now() - started} ms`);
    }
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
      await this.db.writeFromSource(wholeNamespace(key), (em, locked) => writeNamespaceDocument(em, doc, locked, { drop: true, renameNamespace: true }));
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
    const count = await this.db.read(async (em) => {
      const knex = (em as SqlEntityManager).getKnex();
      const [flags] = (await knex('flags').count({ n: '*' })) as Array<{ n: number | string }>;
      const [segments] = (await knex('segments').count({ n: '*' })) as Array<{ n: number | string }>;
      return Number(flags.n) + Number(segments.n);
    });
    if (count > 0) {
      throw new Error(
        `storage.type local mirrors its files into db.url, which holds ${count} flags and segments made through the API; ` +
          'point db.url at a database of its own (the default SQLite file in a new data directory will do) rather than lose them',
      );
    }
    const at = new Date();
    await this.db.write(null, (em) => em.insert(OperationLock, { operation: MIRROR_MARKER, version: 1, lastAcquiredAt: at, acquiredUntil: at }));
  }

  /** Names, sizes and times of the index and the state files: unchanged means nothing to read. */
  private async filesSignature(): Promise<string> {
    const index = await readIndex(this.root);
    const paths = [...(index.file ? [index.file] : []), ...(await listStateFiles(this.root, index))];
    const parts = await Promise.all(paths.map(async (p) => {
      const s = await stat(join(this.root, p));
      return `${p}:${s.size}:${s.mtimeMs}`;
    }));
    return parts.join('\n');
  }

  private startWatching(): void {
    const changed = () => {
      if (this.settle) clearTimeout(this.settle);
      this.settle = setTimeout(() => void this.refresh(), SETTLE_MS);
      this.settle.unref();
    };
    try {
      this.watcher = watch(this.root, { recursive: true }, changed);
      this.watcher.on('error', (e) => {
        this.logger.warn(`file watcher stopped (${e.message}); polling every ${this.config.storage.local.pollInterval} ms`);
        this.watcher?.close();
        this.watcher = null;
      });
    } catch (e) {
      this.logger.warn(`cannot watch ${this.root} (${(e as Error).message}); polling every ${this.config.storage.local.pollInterval} ms`);
    }
    this.poller = setInterval(() => void this.refresh(), this.config.storage.local.pollInterval);
    this.poller.unref();
  }
}
