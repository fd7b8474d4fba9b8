/**
 * Reads import documents on a worker thread of their own, so that the event loop, which answers evaluations, never
 * waits for a document to be read. Reading is linear (common/bounded-yaml.ts) but not free: a 370 KiB YAML document
 * whose anchors are each used 50 times took 0.5–0.7 s of the event loop to refuse, and a 2.5 MiB one of 10,000 flags
 * about 0.3 s to accept; imports sent one after another held every evaluation for as long.
 *
 * One thread, started with the first import and kept: texts are read one at a time, in order. Each has
 * `limits.import_read_timeout` to be read; past it the thread is stopped (a new one starts for the next text) and the
 * import refused. At most `limits.max_imports_waiting` texts wait for the thread (503 past it, so that imports cannot
 * pile up texts in memory), and the thread's heap is capped at `limits.import_read_heap_mb` (a text that needs more is
 * refused; the server goes on).
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError, InvalidError, UnavailableError } from '../common/errors';
import { GrpcCode } from '../common/grpc-status';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import type { NamespaceDocument } from './document';
import { withPlaces } from './document-places';
import type { ReadOptions } from './document-reader';
import type { ReadingAnswer, ReadingJob } from './document-reading.thread';

interface Job extends ReadingJob {
  resolve(documents: NamespaceDocument[]): void;
  reject(error: Error): void;
}

/** An error the thread reported, with the code it had there. */
class ReadingError extends DomainError {
  constructor(
    message: string,
    readonly code: GrpcCode,
  ) {
    super(message);
  }
}

@Injectable()
export class DocumentReadingThread implements OnApplicationShutdown {
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private readonly heapMb: number;
  private worker: Worker | null = null;
  /** Whether `worker` has loaded (its start is not counted against a text's deadline). */
  private ready = false;
  private readonly waiting: Job[] = [];
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private closed = false;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.timeoutMs = config.limits.importReadTimeout;
    this.maxWaiting = config.limits.maxImportsWaiting;
    this.heapMb = config.limits.importReadHeapMb;
  }

  /** The documents of `text`, read on the thread; rejects with the reader's error (a 400 naming the place). */
  read(text: string, options: ReadOptions): Promise<NamespaceDocument[]> {
    if (this.closed) return Promise.reject(new UnavailableError('shutting down'));
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(new UnavailableError(`too many imports waiting to be read (limits.max_imports_waiting: ${this.maxWaiting}); retry later`));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ text, options, resolve, reject });
      this.next();
    });
  }

  onApplicationShutdown(): void {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new UnavailableError('shutting down'));
    this.finish(new UnavailableError('shutting down'));
    void this.worker?.terminate();
    this.worker = null;
  }

  private next(): void {
    if (this.current || this.waiting.length === 0) return;
    const worker = this.thread();
    if (!this.ready) return; // `next` runs again when the thread says it is ready
    const job = this.waiting.shift()!;
    const timer = setTimeout(() => {
      // A text that takes this long is refused, and the thread reading it stopped: nothing else runs there.
      this.worker = null;
      void worker.terminate();
      this.finish(new InvalidError(`the document could not be read within ${this.timeoutMs / 1000} s (limits.import_read_timeout)`));
    }, this.timeoutMs);
    this.current = { job, timer };
    worker.postMessage({ text: job.text, options: job.options } satisfies ReadingJob);
  }

  /** Ends the current job (with its documents, or an error) and starts the next. */
  private finish(outcome: NamespaceDocument[] | Error): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    clearTimeout(current.timer);
    if (outcome instanceof Error) current.job.reject(outcome);
    else current.job.resolve(outcome);
    this.next();
  }

  /**
   * The thread ended by itself: the text it read gets `error`. One that never became ready cannot read anything:
   * every waiting text gets the error, rather than a new thread that would fail the same way.
   */
  private stopped(error: Error): void {
    const wasReady = this.ready;
    this.worker = null;
    this.ready = false;
    if (!wasReady) for (const job of this.waiting.splice(0)) job.reject(error);
    this.finish(error);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const compiled = join(__dirname, 'document-reading.thread.js');
    // The built server runs the compiled thread; the tests (ts-jest, TypeScript sources) run it through ts-node.
    const worker = existsSync(compiled)
      ? new Worker(compiled, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } })
      : new Worker(join(__dirname, 'document-reading.thread.ts'), {
          resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
          execArgv: ['--require', 'ts-node/register/transpile-only'],
        });
    worker.unref();
    this.ready = false;
    worker.on('message', (answer: ReadingAnswer) => {
      if (this.worker !== worker) return; // a stopped thread's last word
      if ('ready' in answer) {
        this.ready = true;
        this.next();
      } else if ('error' in answer) this.finish(new ReadingError(answer.error.message, answer.error.code ?? GrpcCode.Internal));
      else this.finish(withPlaces(answer.documents, answer.places));
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      this.stopped(e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new InvalidError(`the document needs more than ${this.heapMb} MiB to read (limits.import_read_heap_mb)`)
        : e);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.stopped(new Error('the document reading thread stopped'));
    });
    this.worker = worker;
    return worker;
  }
}
