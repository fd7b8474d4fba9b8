#!/usr/bin/env node
// `npm run bench`: Flagpole (built, SQLite, the seeded bench namespace) against a bare Fastify server answering the
// same JSON, with the same autocannon settings, one after the other on this machine. Prints req/s and latency for
// boolean, variant and a 50-flag batch, the Flagpole ÷ bare ratio, then both at a fixed 1,000 req/s; then the
// 10,000-flag snapshot build time and RSS (bench/snapshot-10k.js). Numbers, not assertions.
// BENCH_DB_URL runs Flagpole on another (empty) database instead, e.g. postgres://postgres@127.0.0.1:5432/bench_empty:
// evaluations make no query, so the numbers should match SQLite's.
'use strict';
const { fork, spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { seed, call } = require('./seed');

const DURATION = Number(process.env.BENCH_DURATION || 10);
const WARMUP = Number(process.env.BENCH_WARMUP || 3);
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

function startBare(port, body) {
  const child = fork(join(__dirname, 'bare-server.js'), [], { env: { ...process.env, PORT: String(port), BARE_BODY: JSON.stringify(body) }, stdio: 'inherit' });
  return new Promise((resolve) => child.on('message', () => resolve(child)));
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

async function measure(url, path, body) {
  await run(url, path, body, { duration: WARMUP });
  const load = await run(url, path, body, { duration: DURATION });
  const fixed = await run(url, path, body, { duration: DURATION, overallRate: 1000 });
  const errors = load.non2xx + load.errors + fixed.non2xx + fixed.errors;
  return { rps: load.requests.average, p50: load.latency.p50, p99: load.latency.p99, fixedP50: fixed.latency.p50, fixedP99: fixed.latency.p99, errors };
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
  const rows = [];
  try {
    await waitForHealth(`${fp}/health`);
    const t0 = Date.now();
    await seed(fp);
    console.log(`seeded 100 flags, 10 segments in ${Date.now() - t0} ms; ${cpus().length} cores, Node ${process.version}, ${DURATION}s runs, ${CONNECTIONS} connections`);
    for (const [name, c] of Object.entries(CASES)) {
      const sample = await call(fp, 'POST', c.path, c.body('sample'));
      const fpResult = await measure(fp, c.path, c.body);
      const bare = await startBare(barePort, sample);
      const bareResult = await measure(`http://127.0.0.1:${barePort}`, c.path, c.body);
      bare.kill();
      rows.push({ name, fp: fpResult, bare: bareResult });
    }
  } finally {
    flagpole.kill('SIGTERM');
  }
  const f = (n) => n.toFixed(0).padStart(7);
  const ms = (n) => `${n.toFixed(1)}`.padStart(6);
  console.log('\ncase       flagpole req/s  p50   p99 | bare req/s  p50   p99 | ratio | @1000/s flagpole p50  p99 | bare p50  p99');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(10)} ${f(r.fp.rps)}      ${ms(r.fp.p50)}${ms(r.fp.p99)} | ${f(r.bare.rps)} ${ms(r.bare.p50)}${ms(r.bare.p99)} | ${(r.fp.rps / r.bare.rps).toFixed(2)}  |            ${ms(r.fp.fixedP50)}${ms(r.fp.fixedP99)} | ${ms(r.bare.fixedP50)}${ms(r.bare.fixedP99)}` +
        (r.fp.errors ? `   (${r.fp.errors} errors!)` : ''),
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
