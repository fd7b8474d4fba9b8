/**
 * A private Redis Cluster for tests: six Debian `redis-server` processes on free loopback ports (three masters, each
 * with one replica), formed with `redis-cli --cluster create`, nothing kept on disk but the nodes' cluster files in a
 * temporary directory. A short node timeout makes a replica take over from a killed master within a few seconds.
 * Every process is killed by `stop()`, and by the test process's exit should a suite end without it.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../scale/support/redis-server';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a master may be silent before its replica takes over (Redis's default is 15 s). */
export const NODE_TIMEOUT_MS = 1000;

export function redisClusterInstallable(): boolean {
  const ok = (bin: string) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0;
  return ok('redis-server') && ok('redis-cli');
}

/** One line of CLUSTER NODES: a node as the cluster sees it. */
export interface ClusterNodeView {
  port: number;
  master: boolean;
  failed: boolean;
  /** Slot ranges it serves, as written (`0-5460`). */
  slots: string[];
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export class RedisClusterProcesses {
  private readonly children = new Map<number, ChildProcess>();
  private readonly busPorts = new Map<number, number>();

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
  ) {}

  /** Starts the six nodes and forms the cluster; resolves when every node reports `cluster_state:ok`. */
  static async start(): Promise<RedisClusterProcesses> {
    // Twelve distinct free ports: each node's own and its cluster bus port (by default its own + 10000, maybe taken).
    const free = new Set<number>();
    while (free.size < 12) free.add(await freePort());
    const [ports, busPorts] = [[...free].slice(0, 6), [...free].slice(6)];
    const cluster = new RedisClusterProcesses(ports, mkdtempSync(join(tmpdir(), 'flagpole-redis-cluster-')));
    try {
      ports.forEach((port, i) => cluster.spawn(port, busPorts[i]));
      for (const port of ports) await cluster.waitFor(port, async () => (await cluster.cli(port, 'PING')) === 'PONG');
      await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], {
        timeout: 30_000,
      });
      for (const port of ports) await cluster.waitFor(port, async () => (await cluster.cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'));
      // A replica that has not finished its first sync cannot take over: wait for every one to be in sync.
      const masters = await cluster.masters();
      for (const port of ports.filter((p) => !masters.includes(p))) {
        await cluster.waitFor(port, async () => (await cluster.cli(port, 'INFO', 'replication')).includes('master_link_status:up'));
      }
      return cluster;
    } catch (e) {
      await cluster.stop();
      throw e;
    }
  }

  /** The ports of the nodes still running. */
  get live(): number[] {
    return this.ports.filter((p) => this.children.has(p));
  }

  /** One command through redis-cli on one node; the reply as redis-cli prints it, trimmed. */
  async cli(port: number, ...args: string[]): Promise<string> {
    const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
    return stdout.trim();
  }

  /** The cluster as a live node sees it. */
  async nodes(): Promise<ClusterNodeView[]> {
    const text = await this.cli(this.live[0], 'CLUSTER', 'NODES');
    return text.split('\n').filter(Boolean).map((line) => {
      const [, address, flags, , , , , , ...slots] = line.split(' ');
      return {
        port: Number(/:(\d+)@/.exec(address)![1]),
        master: flags.split(',').includes('master'),
        failed: flags.split(',').includes('fail'),
        slots,
      };
    });
  }

  /** The masters serving slots, as a live node sees them. */
  async masters(): Promise<number[]> {
    return (await this.nodes()).filter((n) => n.master && !n.failed && n.slots.length > 0).map((n) => n.port);
  }

  /** How many clients of `node` are subscribed to `channel` (classic pub/sub is counted per node). */
  async subscribers(port: number, channel: string): Promise<number> {
    const reply = await this.cli(port, 'PUBSUB', 'NUMSUB', channel);
    return Number(reply.split('\n')[1]);
  }

  /** A hard stop of one node, as a crashed machine looks to the others and to clients. */
  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    this.children.delete(port);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts a killed node again with its cluster file: it rejoins (a former master as a replica of its successor). */
  async restart(port: number): Promise<void> {
    this.spawn(port, this.busPorts.get(port)!);
    await this.waitFor(port, async () => (await this.cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'));
    await this.waitFor(port, async () => !(await this.cli(port, 'INFO', 'replication')).includes('master_link_status:down'));
  }

  /** Resolves when three masters serve every slot again and the survivors agree the cluster is up. */
  async waitForFailover(killed: number, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const masters = await this.masters().catch((): number[] => []);
      const ok = await Promise.all(this.live.map((p) => this.cli(p, 'CLUSTER', 'INFO').then((t) => t.includes('cluster_state:ok'), () => false)));
      if (masters.length === 3 && !masters.includes(killed) && ok.every(Boolean)) return;
      if (Date.now() > until) throw new Error(`no failover from ${killed} within ${timeoutMs} ms (masters ${masters.join(', ')})`);
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.children.keys()].map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private spawn(port: number, busPort: number): void {
    this.busPorts.set(port, busPort);
    const child = spawn(
      'redis-server',
      [
        '--bind', '127.0.0.1', '--port', String(port), '--dir', this.dir,
        '--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(NODE_TIMEOUT_MS),
        '--save', '', '--appendonly', 'no',
        // Replicas sync at once (diskless syncs otherwise wait 5 s for more replicas to join).
        '--repl-diskless-sync-delay', '0',
      ],
      { stdio: 'ignore' },
    );
    running.add(child);
    child.once('exit', () => running.delete(child));
    this.children.set(port, child);
  }

  private async waitFor(port: number, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (await check().catch(() => false)) return;
      await sleep(50);
    }
    throw new Error(`redis cluster node ${port} not ready within ${timeoutMs} ms`);
  }
}
