/**
 * Pieces of the resource tests (resource.e2e-spec, hostile-tenant.e2e-spec): a paced evaluation load in a process of
 * its own, the server's RSS from /proc, and a POST that reports a dropped connection as -1 instead of throwing.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../ops/support/process';

export interface PacedResult {
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

/**
 * The bench's open-loop load (bench/paced.js: latency counted from each request's due time), in a process of its
 * own so that the attackers in this one cannot delay it and be charged to the server.
 */
export function pacedInChild(url: string, rate: number, seconds: number, headers: Record<string, string>): Promise<PacedResult> {
  const script = `
    const { paced } = require(${JSON.stringify(join(ROOT, 'bench', 'paced.js'))});
    paced(${JSON.stringify(url)}, (i) => ({ namespaceKey: 'default', flagKey: 'on', entityId: 'user-' + i, context: {} }),
      { rate: ${rate}, seconds: ${seconds}, connections: 20, headers: ${JSON.stringify(headers)} })
      .then((r) => process.stdout.write(JSON.stringify(r)));`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', script], { timeout: (seconds + 60) * 1000 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout)))),
  );
}

/** The RSS of `pid` and of every process under it (the server's import-reading process counts: it is ours). */
export function rssMb(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + ownRssMb(p), 0);
}

function ownRssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // it ended meanwhile
  }
}

function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** The status of one request, or -1 when the connection was dropped without an answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<number> {
  try {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const r = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: payload });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return -1;
  }
}

/** What both resource tests print of the server and the paced load: RSS, the load's percentiles, /health's worst. */
export function loadReport(rss: { baseline: number; peak: number }, steady: PacedResult, healthWorstMs: number) {
  return {
    rssBaselineMb: Math.round(rss.baseline),
    rssPeakMb: Math.round(rss.peak),
    pacedP50Ms: +steady.p50.toFixed(1),
    pacedP99Ms: +steady.p99.toFixed(1),
    pacedErrors: steady.errors,
    healthWorstMs: Math.round(healthWorstMs),
  };
}
