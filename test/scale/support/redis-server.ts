/**
 * A private Redis server (Debian's `redis-server`) on a free loopback port, for tests that stop and restart Redis
 * without touching the machine's own one. Nothing is kept on disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createConnection } from 'node:net';

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class RedisServer {
  private child: ChildProcess | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (await this.answers()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on ${this.port}`);
  }

  /** A hard stop, as a crashed or partitioned Redis looks to its clients. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Sends one inline command and returns the first reply line. */
  command(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(this.port, '127.0.0.1');
      let reply = '';
      socket.on('data', (chunk) => {
        reply += chunk.toString();
        if (reply.includes('\r\n')) {
          socket.destroy();
          resolve(reply);
        }
      });
      socket.on('error', reject);
      socket.write(`${args.join(' ')}\r\n`);
    });
  }

  private async answers(): Promise<boolean> {
    try {
      return (await this.command('PING')).startsWith('+PONG');
    } catch {
      return false;
    }
  }
}
