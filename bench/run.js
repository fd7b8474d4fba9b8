#!/usr/bin/env node
// `npm run bench`: Flagpole (built, SQLite, the seeded bench namespace) against a bare Fastify server answering the
// same JSON, with the same autocannon settings, one after the other on this machine. Prints req/s and latency for
// boolean, variant and a 50-flag batch, the Flagpole ÷ bare ratio, then both at a fixed 1,000 req/s two ways: steady
// (one request every millisecond, bench/paced.js, the measurement the target is about) and autocannon's overallRate
// (which sends each second's 1,000 requests as a burst at its start); then the 10,000-flag snapshot build time and
// RSS (bench/snapshot-10k.js). Numbers, not assertions.
// The load generator shares the machine's cores with the server under test, so one run swings by several per cent
// either way, and a fixed-rate run's p99 is at the mercy of one garbage collection: each measurement is repeated
// BENCH_ROUNDS times (default 3), Flagpole and bare alternating, and the table shows the medians, each round's ratio,
// and each server's CPU time per request (from /proc, on Linux).
// BENCH_DB_URL runs Flagpole on another (empty) database instead, e.g. postgres://postgres@127.0.0.1:5432/bench_empty:
// evaluations make no query, so the numbers should match SQLite's.
'use strict';
const { fork, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { seed, call } = require('./seed');
const { paced } = require('./paced');

const DURATION = Number(process.env.BENCH_DURATION || 10);
const WARMUP = Number(process.env.BENCH_WARMUP || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = 50;
const ROOT = join(__dirname, '..');

function waitForHealth(url, ms = 30000) {
  const until = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () =>
      fetch(url).then((r) => (r.ok ? resolve() : retry()), retry);
    const retry = () => (Date.now() > until ? reject(new Error(`${url} not healthy`)) : setTimeout(tick, 200));
    tick();
  });
}

function startFlagpole(dir, port) {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    env: { ...process.env, FLAGPOLE_DB_URL: process.env.BENCH_DB_URL || `file:${join(dir, 'bench.db')}`, FLAGPOLE_SERVER_HTTP_PORT: String(port), FLAGPOLE_SERVER_HOST: '127.0.0.1', FLAGPOLE_LOG_LEVEL: 'ERROR', FLAGPOLE_SERVER_GRPC_PORT: String(port + 1) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

function startBare(port, bodies) {
  const child = fork(join(__dirname, 'bare-server.js'), [], { env: { ...process.env, PORT: String(port), BARE_BODIES: JSON.stringify(bodies) }, stdio: 'inherit' });
  return new Promise((resolve) => child.on('message', () => resolve(child)));
}

/** CPU time (user + system) a process has used so far, in microseconds; null where /proc is not there. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
  } catch {
    return null;
  }
}

let entity = 0;
function run(url, path, body, extra = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + path,
        method: 'POST',
        connections: CONNECTIONS,
        headers: { 'content-type': 'application/json' },
        // A new entity per request, so that hashing and matching really run (the same cost for both servers).
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body(`user-${entity++}`)) }) }],
        ...extra,
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

/** One load run at full speed; with the server's CPU time per request when its pid is known. */
async function load(server, path, body, extra = {}) {
  const before = cpuMicros(server.pid);
  const result = await run(server.url, path, body, { duration: DURATION, ...extra });
  const after = cpuMicros(server.pid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: before === null || after === null ? null : (after - before) / result.requests.total,
    errors: result.non2xx + result.errors,
  };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Both servers on one case: warm-up, ROUNDS alternating full-speed runs, then ROUNDS alternating fixed-rate runs. */
async function measure(servers, path, body) {
  const runs = { flagpole: { load: [], fixed: [], steady: [] }, bare: { load: [], fixed: [], steady: [] } };
  for (const s of servers) await run(s.url, path, body, { duration: WARMUP });
  for (let r = 0; r < ROUNDS; r++) for (const s of servers) runs[s.name].load.push(await load(s, path, body));
  for (let r = 0; r < ROUNDS; r++) for (const s of servers) runs[s.name].fixed.push(await load(s, path, body, { overallRate: 1000 }));
  for (let r = 0; r < ROUNDS; r++)
    for (const s of servers)
      runs[s.name].steady.push(await paced(s.url + path, (i) => body(`paced-${r}-${i}`), { rate: 1000, seconds: DURATION, connections: CONNECTIONS }));
  const summary = (name) => {
    const { load: l, fixed: f, steady: st } = runs[name];
    return {
      rps: median(l.map((x) => x.rps)),
      p50: median(l.map((x) => x.p50)),
      p99: median(l.map((x) => x.p99)),
      cpu: l.every((x) => x.cpu !== null) ? median(l.map((x) => x.cpu)) : null,
      fixedP50: median(f.map((x) => x.p50)),
      fixedP99: median(f.map((x) => x.p99)),
      fixedP99Worst: Math.max(...f.map((x) => x.p99)),
      steadyP50: median(st.map((x) => x.p50)),
      steadyP99: median(st.map((x) => x.p99)),
      steadyP99Worst: Math.max(...st.map((x) => x.p99)),
      steadyRate: Math.min(...st.map((x) => x.achievedRate)),
      errors: [...l, ...f, ...st].reduce((a, x) => a + x.errors, 0),
    };
  };
  const ratios = runs.flagpole.load.map((x, i) => x.rps / runs.bare.load[i].rps);
  return { fp: summary('flagpole'), bare: summary('bare'), ratios };
}

const CONTEXT = { plan: 'pro', age: '30', country: 'de' };
const CASES = {
  boolean: { path: '/evaluate/v1/boolean', body: (e) => ({ namespaceKey: 'bench', flagKey: 'boolean-7', entityId: e, context: CONTEXT }) },
  variant: { path: '/evaluate/v1/variant', body: (e) => ({ namespaceKey: 'bench', flagKey: 'variant-7', entityId: e, context: CONTEXT }) },
  'batch-50': {
    path: '/evaluate/v1/batch',
    body: (e) => ({ requests: Array.from({ length: 50 }, (_, i) => ({ namespaceKey: 'bench', flagKey: i % 2 ? `boolean-${i}` : `variant-${i}`, entityId: e, context: CONTEXT })) }),
  },
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-bench-'));
  const fpPort = 18080;
  const barePort = 18090;
  const flagpole = startFlagpole(dir, fpPort);
  const fp = `http://127.0.0.1:${fpPort}`;
  let bare = null;
  const rows = [];
  try {
    await waitForHealth(`${fp}/health`);
    const t0 = Date.now();
    await seed(fp);
    console.log(
      `seeded 100 flags, 10 segments in ${Date.now() - t0} ms; ${cpus().length} cores, Node ${process.version}, ` +
        `${DURATION}s runs, ${CONNECTIONS} connections, ${ROUNDS} rounds`,
    );
    const bodies = {};
    for (const c of Object.values(CASES)) bodies[c.path] = await call(fp, 'POST', c.path, c.body('sample'));
    bare = await startBare(barePort, bodies);
    const servers = [
      { name: 'flagpole', url: fp, pid: flagpole.pid },
      { name: 'bare', url: `http://127.0.0.1:${barePort}`, pid: bare.pid },
    ];
    for (const [name, c] of Object.entries(CASES)) rows.push({ name, ...(await measure(servers, c.path, c.body)) });
  } finally {
    flagpole.kill('SIGTERM');
    bare?.kill();
  }
  const f = (n) => n.toFixed(0).padStart(7);
  const ms = (n) => `${n.toFixed(1)}`.padStart(6);
  const us = (n) => (n === null ? '     -' : `${n.toFixed(0)}`.padStart(6));
  console.log('\nfull speed (autocannon, 50 connections)');
  console.log('case       flagpole req/s  p50   p99  cpu µs/req | bare req/s  p50   p99  cpu µs/req | ratio (rounds)');
  for (const r of rows) {
    const rounds = r.ratios.map((x) => x.toFixed(2)).join(' ');
    console.log(
      `${r.name.padEnd(10)} ${f(r.fp.rps)}      ${ms(r.fp.p50)}${ms(r.fp.p99)} ${us(r.fp.cpu)}     | ${f(r.bare.rps)} ${ms(r.bare.p50)}${ms(r.bare.p99)} ${us(r.bare.cpu)}     | ` +
        `${(r.fp.rps / r.bare.rps).toFixed(2)} (${rounds})` +
        (r.fp.errors ? `   (${r.fp.errors} errors!)` : ''),
    );
  }
  console.log('\nat 1,000 req/s, ms: steady = one request every 1 ms (bench/paced.js); burst = autocannon overallRate (1,000 requests at the start of each second)');
  console.log('case       flagpole steady p50  p99 (worst) | bare steady p50  p99 (worst) | p99 ratio | flagpole burst p50  p99 (worst) | bare burst p50  p99 (worst)');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(10)} ${ms(r.fp.steadyP50)}${ms(r.fp.steadyP99)} (${r.fp.steadyP99Worst.toFixed(1)})           | ${ms(r.bare.steadyP50)}${ms(r.bare.steadyP99)} (${r.bare.steadyP99Worst.toFixed(1)})       | ` +
        `${(r.fp.steadyP99 / r.bare.steadyP99).toFixed(2).padStart(9)} | ${ms(r.fp.fixedP50)}${ms(r.fp.fixedP99)} (${r.fp.fixedP99Worst})          | ${ms(r.bare.fixedP50)}${ms(r.bare.fixedP99)} (${r.bare.fixedP99Worst})` +
        (Math.min(r.fp.steadyRate, r.bare.steadyRate) < 950 ? `   (steady rate fell to ${Math.min(r.fp.steadyRate, r.bare.steadyRate).toFixed(0)}/s)` : ''),
    );
  }
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => {
    const child = fork(join(__dirname, 'snapshot-10k.js'), [], { stdio: 'inherit' });
    child.on('exit', resolve);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
