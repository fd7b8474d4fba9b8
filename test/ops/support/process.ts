/**
 * Flagpole as operators run it: `node dist/main.js` in a child process, JSON logs on standard error read line by line.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

// The same staleness rule as `npm start` (scripts/build-if-stale.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isBuilt } = require('../../../scripts/build-if-stale.js') as { isBuilt: () => boolean };

/**
 * `npm run build` unless dist/ is newer than every source file. Test files running in parallel workers take turns
 * through a lock directory, so that one builds and the others find dist/ fresh.
 */
export async function buildOnce(): Promise<void> {
  const lock = join(ROOT, '.tmp', 'build.lock');
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds; a lock older than 5 minutes was left by a killed run.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!isBuilt()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface LogLine {
  L: string;
  M: string;
  context?: string;
  [key: string]: unknown;
}

export class FlagpoleProcess {
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  readonly started = Date.now();
  httpPort = 0;
  grpcPort = 0;
  readyAt = 0;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private readonly child: ChildProcess;

  /**
   * `command` as in the Dockerfile's CMD, run in `cwd`. A command that starts the server through a shell (`npm start`)
   * runs in a process group of its own, and signals go to the whole group: the shell does not pass them on.
   */
  constructor(
    cwd: string,
    env: Record<string, string>,
    command: string[] = ['node', 'dist/main.js'],
    private readonly group = command[0] !== 'node',
  ) {
    this.child = spawn(command[0], command.slice(1), {
      detached: group,
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        FLAGPOLE_LOG_ENCODING: 'json',
        FLAGPOLE_SERVER_HOST: '127.0.0.1',
        FLAGPOLE_SERVER_HTTP_PORT: '0',
        FLAGPOLE_SERVER_GRPC_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        this.raw.push(text);
        try {
          this.lines.push(JSON.parse(text));
        } catch {
          // not a log line (a crash before the logger exists)
        }
      }
    };
    this.child.stdout!.on('data', onData);
    this.child.stderr!.on('data', onData);
    this.exit = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  }

  /** Resolves once start-up has logged where it listens; fails if the process exits first. */
  async ready(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const listening = this.lines.find((l) => /^listening on /.test(l.M));
      if (listening && this.lines.some((l) => /^started in /.test(l.M))) {
        this.httpPort = Number(/http:\/\/[^:]+:(\d+)/.exec(listening.M)![1]);
        this.grpcPort = Number(/gRPC health on [^ ]+:(\d+)/.exec(listening.M)![1]);
        this.readyAt = Date.now();
        return;
      }
      if (this.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`Flagpole did not start:\n${this.raw.join('\n')}`);
  }

  /** The server's process id (its memory is read from /proc/<pid>/status). */
  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  signal(signal: NodeJS.Signals = 'SIGTERM'): number {
    this.send(signal);
    return Date.now();
  }

  kill(): void {
    if (this.group || (this.child.exitCode === null && this.child.signalCode === null)) this.send('SIGKILL');
  }

  private send(signal: NodeJS.Signals): void {
    try {
      if (this.group) process.kill(-this.child.pid!, signal);
      else this.child.kill(signal);
    } catch {
      // the group is gone already
    }
  }
}
