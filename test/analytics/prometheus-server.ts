/**
 * A private Prometheus (Debian's `prometheus` package) on a free loopback port, scraping the given targets every
 * second into a temporary TSDB, for the Prometheus analytics mode's tests. Nothing outlives `stop`. Any daemon the
 * package may have started (port 9090) is neither used nor touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMETHEUS_BIN = process.env.FLAGPOLE_TEST_PROMETHEUS ?? '/usr/bin/prometheus';

export function prometheusInstalled(): boolean {
  return spawnSync(PROMETHEUS_BIN, ['--version'], { stdio: 'ignore' }).status === 0;
}

export class PrometheusServer {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'flagpole-prometheus-'));
  private output = '';

  /** `targets`: `host:port` of each Flagpole whose `/metrics` it scrapes. */
  constructor(
    readonly port: number,
    private readonly targets: string[],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const config = join(this.dir, 'prometheus.yml');
    writeFileSync(config, [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: flagpole',
      '    scrape_timeout: 1s',
      '    static_configs:',
      `      - targets: [${this.targets.map((t) => JSON.stringify(t)).join(', ')}]`,
      '',
    ].join('\n'));
    this.child = spawn(PROMETHEUS_BIN, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(this.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${this.port}`,
      '--log.level=warn',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-4000)));
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if (this.child.exitCode !== null) throw new Error(`prometheus exited (${this.child.exitCode}): ${this.output}`);
      const ready = await fetch(`${this.url}/-/ready`).then((r) => r.ok, () => false);
      if (ready) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`prometheus did not get ready on ${this.port}: ${this.output}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
