/**
 * Reads import documents in a child process of their own, so that the event loop, which answers evaluations, never
 * waits for a document to be read. Reading is linear (common/bounded-yaml.ts) but not free: a 370 KiB YAML document
 * whose anchors are each used 50 times took 0.5–0.7 s of the event loop to refuse, and a 2.5 MiB one of 10,000 flags
 * about 0.3 s to accept; imports sent one after another held every evaluation for as long.
 *
 * One process, started with the first import and kept: texts are read one at a time, in order. Each has
 * `limits.import_read_timeout` to be read; past it the process is killed (a new one starts for the next text) and the
 * import refused. At most `limits.max_imports_waiting` texts wait for it (503 past it, so that imports cannot pile up
 * texts in memory), and its heap is capped at `limits.import_read_heap_mb` (a text that needs more is refused; the
 * server goes on).
 *
 * Why a process and not a worker thread: a thread's heap cap (`resourceLimits`) is overridden by the process's
 * `--max-old-space-size` (Node's documented rule; V8's flags are per process), which containers commonly set through
 * NODE_OPTIONS: with it, a hostile document could take the whole heap it names. A child process gets its own flag.
 */
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError, InvalidError, UnavailableError } from '../common/errors';
import { GrpcCode } from '../common/grpc-status';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import type { NamespaceDocument } from './document';
import { withPlaces } from './document-places';
import type { ReadOptions } from './document-reader';
import type { ReadingAnswer, ReadingJob } from './document-reading.child';

/** What of the process's error output is kept, to log when it stops unexpectedly. */
const STDERR_TAIL_BYTES = 4096;

/**
 * The reading process's environment: what Node and ts-node read, nothing else. It reads untrusted text and needs no
 * secret (database URLs, tokens, keys in FLAGPOLE_* variables), so none is handed to it.
 */
export function readingEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = { NODE_OPTIONS: withoutHeapSize(env.NODE_OPTIONS) };
  for (const [name, value] of Object.entries(env)) if (/^(PATH|TZ|LANG|LC_\w+|TS_NODE_\w+)$/.test(name)) kept[name] = value;
  return kept;
}

/** NODE_OPTIONS without a heap size, so that the child's own flag is the one that counts. */
export function withoutHeapSize(nodeOptions: string | undefined): string {
  return (nodeOptions ?? '').split(/\s+/).filter((o) => o && !/^--max[-_]old[-_]space[-_]size/.test(o)).join(' ');
}

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
export class DocumentReadingProcess implements OnApplicationShutdown {
  private readonly logger = new Logger('DocumentReading');
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private readonly heapMb: number;
  private child: ChildProcess | null = null;
  /** Whether `child` has loaded (its start is not counted against a text's deadline). */
  private ready = false;
  private readonly waiting: Job[] = [];
  private current: { job: Job; timer: NodeJS.Timeout } | null = null;
  private closed = false;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.timeoutMs = config.limits.importReadTimeout;
    this.maxWaiting = config.limits.maxImportsWaiting;
    this.heapMb = config.limits.importReadHeapMb;
  }

  /** The documents of `text`, read in the process; rejects with the reader's error (a 400 naming the place). */
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
    this.child?.kill('SIGKILL');
    this.child = null;
  }

  private next(): void {
    if (this.current || this.waiting.length === 0) return;
    const child = this.process();
    if (!this.ready) return; // `next` runs again when the process says it is ready
    const job = this.waiting.shift()!;
    const timer = setTimeout(() => {
      // A text that takes this long is refused, and the process reading it killed: nothing else runs there.
      this.child = null;
      child.kill('SIGKILL');
      this.finish(new InvalidError(`the document could not be read within ${this.timeoutMs / 1000} s (limits.import_read_timeout)`));
    }, this.timeoutMs);
    this.current = { job, timer };
    child.send({ text: job.text, options: job.options } satisfies ReadingJob);
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
   * The process ended by itself: the text it read gets `error`. One that never became ready cannot read anything:
   * every waiting text gets the error, rather than a new process that would fail the same way.
   */
  private stopped(error: Error): void {
    const wasReady = this.ready;
    this.child = null;
    this.ready = false;
    if (!wasReady) for (const job of this.waiting.splice(0)) job.reject(error);
    this.finish(error);
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const compiled = join(__dirname, 'document-reading.child.js');
    // A 2 MiB young generation (V8's default is 16): reading a 370 KiB document of anchors peaked at 134–136 MiB of
    // RSS with it, 155–183 without, for the same time (Node 20). The module graph is framework-free (51 MiB at rest).
    const heap = [`--max-old-space-size=${this.heapMb}`, '--max-semi-space-size=2'];
    // The built server runs the compiled module; the tests (ts-jest, TypeScript sources) run it through ts-node.
    const [path, execArgv] = existsSync(compiled)
      ? [compiled, heap]
      : [join(__dirname, 'document-reading.child.ts'), [...heap, '--require', 'ts-node/register/transpile-only']];
    const child = fork(path, [], {
      execArgv,
      env: readingEnvironment(process.env),
      serialization: 'advanced', // structured clone, as for a worker thread: Maps and the like cross as they are
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES)));
    child.unref();
    child.channel?.unref();
    this.ready = false;
    child.on('message', (answer: ReadingAnswer) => {
      if (this.child !== child) return; // a stopped process's last word
      if ('ready' in answer) {
        this.ready = true;
        this.next();
      } else if ('error' in answer) this.finish(new ReadingError(answer.error.message, answer.error.code ?? GrpcCode.Internal));
      else this.finish(withPlaces(answer.documents, answer.places));
    });
    child.on('error', (e: Error) => {
      if (this.child === child) this.stopped(e);
    });
    // 'close', not 'exit': it comes once the error output has been read to its end, where V8 says it ran out of heap.
    child.on('close', (code, signal) => {
      if (this.child !== child) return;
      if (/heap out of memory|Reached heap limit/.test(stderr)) {
        this.stopped(new InvalidError(`the document needs more than ${this.heapMb} MiB to read (limits.import_read_heap_mb)`));
        return;
      }
      this.logger.error(`the document reading process stopped (${signal ?? `exit code ${code}`}): ${stderr.trim() || 'no output'}`);
      this.stopped(new Error('the document reading process stopped'));
    });
    this.child = child;
    return child;
  }
}
