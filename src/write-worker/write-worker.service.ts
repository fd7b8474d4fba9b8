/**
 * The main thread's side of `server.write_worker`: starts the write worker (src/write-worker.main.ts) before the
 * server listens, hands it the REST API's writes (role.ts says which) and answers each with the worker's answer.
 * What a write changed reaches this thread before its answer does (one message port keeps their order): the delta
 * is published on this thread's `Changes` as a local change, so evaluations here read the write back as soon as it
 * has answered, and a shared bus (Redis) forwards it to other instances from here. The worker stores its writes'
 * audit events itself; this thread's trail sends them to the sinks and counts them, and its metrics show the worker's
 * stored-trail backlog.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuditTrail } from '../audit/audit-trail.service';
import type { AuditEvent, AuditSubject } from '../audit/audit-event';
import { UnavailableError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { Changes, type ChangeTopic, type NamespaceChange } from '../storage/changes';
import { dialectOf, sqlitePath } from '../storage/dialects';
import { startsWriteWorker, WRITE_WORKER_MARK } from './role';
import type { ToMain, WriteRequest } from './messages';

/** How long shutdown waits for the worker to finish (its writes in flight have answered by then). */
const CLOSE_WAIT_MS = 10_000;
/** Headers of the worker's answer that belong to its connection, not to the answer. */
const CONNECTION_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

interface Pending {
  resolve(answer: Extract<ToMain, { kind: 'answer' }>): void;
  reject(error: Error): void;
}

@Injectable()
export class WriteWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WriteWorker');
  private readonly enabled: boolean;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private stopping = false;

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly changes: Changes,
    private readonly audit: AuditTrail,
    private readonly orm: MikroORM,
  ) {
    this.enabled = startsWriteWorker(config);
    if (config.server.writeWorker && config.storage.type !== 'database') {
      this.logger.warn(`server.write_worker is ignored with storage.type ${config.storage.type}: the API's writes are refused`);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    const started = Date.now();
    await this.prepareDatabase();
    await this.start();
    this.logger.log(`write worker ready in ${Date.now() - started} ms: the REST API's writes run there`);
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' });
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
    this.worker = null;
  }

  /** Fastify preValidation hook of every route role.ts sends to the worker: the worker's answer is the answer. */
  async forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const worker = this.worker;
    if (!worker) throw new UnavailableError('the write worker is not running; try again');
    const headers = { ...request.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    const body = request.body;
    const message: WriteRequest = {
      kind: 'request',
      id: this.next++,
      method: request.method,
      url: request.url,
      headers,
      // The body as parsed here (JSON, limits and depth checked); an import's document as the text it came as.
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      remoteAddress: request.socket.remoteAddress ?? '127.0.0.1',
    };
    const answer = await new Promise<Extract<ToMain, { kind: 'answer' }>>((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject });
      worker.postMessage(message);
    });
    reply.code(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
  }

  /**
   * SQLite: the worker opens the file too, so it must be a file, and it is switched to WAL (kept in the file) while
   * this thread's connection is still its only one: readers then never wait for the writer, nor it for them.
   */
  private async prepareDatabase(): Promise<void> {
    const { url } = this.config.db;
    if (dialectOf(url).name !== 'sqlite') return;
    if (sqlitePath(url) === ':memory:') throw new Error('server.write_worker needs a database file the worker can open too, not an in-memory SQLite database');
    await (this.orm.em as SqlEntityManager).getKnex().raw('pragma journal_mode = wal');
  }

  private async start(): Promise<void> {
    const script = join(__dirname, '..', 'write-worker.main.js');
    // Under ts-jest the sources run as TypeScript, which a worker thread cannot load: the write worker runs from
    // the built server (dist/) only.
    if (!existsSync(script)) throw new Error(`server.write_worker: ${script} is missing (the write worker runs from the built server, dist/)`);
    const worker = new Worker(script, { workerData: { [WRITE_WORKER_MARK]: true, argv: process.argv.slice(2) } });
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (m: ToMain) => {
        if (m.kind === 'ready') resolve();
        else this.received(m);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the write worker exited during start-up (code ${code})`)));
    });
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    worker.on('error', (e) => this.logger.error(`write worker failed: ${e.stack ?? e.message}`));
    worker.on('exit', (code) => this.exited(code));
    this.worker = worker;
  }

  private received(m: ToMain): void {
    switch (m.kind) {
      case 'change':
        this.changes.publish(m.topic as ChangeTopic, m.key, m.change as NamespaceChange | undefined);
        break;
      case 'audit':
        this.audit.relayed(m.event as AuditEvent, m.subject as AuditSubject);
        break;
      case 'audit-store':
        this.audit.workerStore(m.waiting, m.dropped, m.reason);
        break;
      case 'answer':
        this.pending.get(m.id)?.resolve(m);
        this.pending.delete(m.id);
        break;
      case 'failed':
        // The one error filter logs it and answers Flipt's internal error.
        this.pending.get(m.id)?.reject(new Error(`the write worker could not run the write: ${m.message}`));
        this.pending.delete(m.id);
        break;
    }
  }

  /**
   * The worker ended while the server runs (a crash): the writes it held are answered 503 (they may or may not have
   * committed, as after a lost connection), and a new worker takes over; if none can start, the process exits 1
   * for its supervisor to restart it.
   */
  private exited(code: number): void {
    this.worker = null;
    for (const p of this.pending.values()) p.reject(new UnavailableError('the write worker stopped before the write answered; it may or may not have been applied'));
    this.pending.clear();
    if (this.stopping) return;
    this.audit.workerStopped();
    this.logger.error(`the write worker stopped (exit code ${code}); starting another`);
    this.start().catch((e: Error) => {
      this.logger.error(`the write worker cannot start again: ${e.message}; exiting`);
      process.exit(1);
    });
  }
}
