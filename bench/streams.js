#!/usr/bin/env node
// Event streams (issue 17): what 10,000 open streams cost one instance, and how fast a write reaches them.
// Per authentication mode (auth off, static token, JWT — the modes of bench/run.js), a fresh Flagpole process
// (built, SQLite, the bench namespace of bench/seed.js, `limits.max_connections` 20,000), measured:
// - the server's RSS once started and seeded, then with BENCH_STREAMS_COUNT (10,000) streams open on the namespace
//   (held by a child process, bench/stream-clients.js), before any load;
// - variant evaluations at full speed (autocannon, 50 connections, BENCH_STREAMS_SECONDS; the server's CPU µs per
//   request) and at a steady 1,000/s (bench/paced.js), without and with the streams open, alternating for
//   BENCH_STREAMS_ROUNDS rounds (default 2);
// - BENCH_STREAMS_WRITES writes to the namespace, one a second, with the streams open: from each write's answer to
//   the first and to the last of the 10,000 streams receiving its event; and the steady evaluations' p99 meanwhile.
// Then two instances on one SQLite file with the machine's Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379;
// skipped if it does not answer): 1,000 streams on B, writes on A: from A's answer to B's streams' events.
// Every wait is bounded and the servers are killed however it ends. Run alone after `npm run build`:
// `node bench/streams.js`.
'use strict';
const { fork } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { seed, call } = require('./seed');
const { paced } = require('./paced');
const { authModes, startFlagpole, waitForHealth, cpuMicros } = require('./run');

const COUNT = Number(process.env.BENCH_STREAMS_COUNT || 10000);
const SECONDS = Number(process.env.BENCH_STREAMS_SECONDS || 5);
const WRITES = Number(process.env.BENCH_STREAMS_WRITES || 5);
const ROUNDS = Number(process.env.BENCH_STREAMS_ROUNDS || 2);
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const CROSS_STREAMS = 1000;
const CROSS_WRITES = 40;
const PORT = 18280;

const children = new Set();
let dir = null;
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const epoch = () => performance.timeOrigin + performance.now();
const percentile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x) => (x === null || x === undefined ? '—' : x.toFixed(1));

function server(port, env) {
  // Every stream comes from this one process, with one credential or none: one caller, past any allowance per caller.
  const child = startFlagpole(dir, port, { FLAGPOLE_LIMITS_MAX_CONNECTIONS: '20000', FLAGPOLE_LIMITS_MAX_EVENT_STREAMS_PER_CREDENTIAL: '0', ...env });
  children.add(child);
  return child;
}

function clients() {
  const child = fork(join(__dirname, 'stream-clients.js'), [], { stdio: 'inherit' });
  children.add(child);
  const ask = (message, timeoutMs = 120000) =>
    Promise.race([
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send(message);
      }),
      sleep(timeoutMs).then(() => {
        throw new Error(`stream clients: no answer to ${message.cmd} in ${timeoutMs} ms`);
      }),
    ]);
  return { child, ask };
}

const variantBody = (i) => ({ namespaceKey: 'bench', flagKey: `variant-${i % 50}`, entityId: `user-${i}`, context: { plan: 'pro', age: '30' } });

/** Full speed (autocannon) with the server's CPU µs per request, then a steady 1,000/s (bench/paced.js). */
async function evaluations(url, headers, pid) {
  let i = 0;
  const cpuBefore = cpuMicros(pid);
  const full = await new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}/evaluate/v1/variant`, method: 'POST', connections: 50, duration: SECONDS,
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(variantBody(i++)) }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    ),
  );
  const cpu = (cpuMicros(pid) - cpuBefore) / full.requests.total;
  const steady = await paced(`${url}/evaluate/v1/variant`, variantBody, { rate: 1000, seconds: SECONDS, connections: 50, headers, timeout: 3000 });
  return { rps: full.requests.average, cpu, errors: full.non2xx + full.errors, steadyP99: steady.p99, steadyErrors: steady.errors };
}

/** Toggles a boolean flag of the namespace through `url`; resolves with the epoch time of the answer. */
let toggles = 0;
async function write(url, headers) {
  const enabled = toggles++ % 2 === 0;
  await call(url, 'PUT', '/api/v1/namespaces/bench/flags/boolean-0', { key: 'boolean-0', name: 'boolean-0', enabled }, headers, { signal: AbortSignal.timeout(5000) });
  return epoch();
}

async function oneMode(mode, port) {
  const child = server(port, mode.env);
  const url = `http://127.0.0.1:${port}`;
  const streamUrl = `${url}/ofrep/v1/_stream/bench/events`;
  const { child: holder, ask } = clients();
  try {
    await waitForHealth(`${url}/health`, 60000);
    await seed(url, 'bench', mode.headers);
    // RSS as a server that has not yet been under load holds the streams.
    await sleep(1000);
    const rssStart = rssMiB(child.pid);
    const opened = await ask({ cmd: 'open', url: streamUrl, count: COUNT, headers: mode.headers });
    await sleep(1000);
    const rssOpen = rssMiB(child.pid);
    await ask({ cmd: 'close' });
    await sleep(1000);
    await evaluations(url, mode.headers, child.pid); // warm-up
    // Rounds alternate without and with the streams, so that drift (a busy machine, a growing heap) hits both.
    const without = [];
    const withStreams = [];
    let fanout = [];
    let during = null;
    for (let r = 0; r < ROUNDS; r++) {
      without.push(await evaluations(url, mode.headers, child.pid));
      await ask({ cmd: 'open', url: streamUrl, count: COUNT, headers: mode.headers });
      await sleep(1000);
      withStreams.push(await evaluations(url, mode.headers, child.pid));
      if (r === ROUNDS - 1) ({ fanout, during } = await writesWithStreams(url, mode.headers, ask));
      await ask({ cmd: 'close' });
      await sleep(1000);
    }
    return { mode: mode.name, rssStart, rssOpen, opened, without, withStreams, fanout, during };
  } finally {
    holder.kill();
    children.delete(holder);
    child.kill('SIGKILL');
    children.delete(child);
  }
}

/** WRITES writes, one a second, while the steady load runs and the streams are open. */
async function writesWithStreams(url, headers, ask) {
  const steadyDuring = paced(`${url}/evaluate/v1/variant`, variantBody, { rate: 1000, seconds: WRITES + 1, connections: 50, headers, timeout: 3000 });
  const fanout = [];
  for (let w = 1; w <= WRITES; w++) {
    const started = epoch();
    const answered = await write(url, headers);
    const got = await ask({ cmd: 'wait', events: w, timeoutMs: 10000 });
    fanout.push({ write: answered - started, first: got.first - answered, last: got.last - answered, missing: got.missing });
    await sleep(Math.max(0, 1000 - (epoch() - started)));
  }
  return { fanout, during: await steadyDuring };
}

function redisAnswers(redisUrl) {
  const { hostname, port } = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.setTimeout(1000);
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function crossInstance() {
  if (!(await redisAnswers(REDIS_URL))) return null;
  const env = { FLAGPOLE_DB_URL: `file:${join(dir, 'shared.db')}`, FLAGPOLE_CACHE_ENABLED: 'true', FLAGPOLE_CACHE_BACKEND: 'redis', FLAGPOLE_CACHE_REDIS_URL: REDIS_URL };
  const a = server(PORT + 10, env);
  const urlA = `http://127.0.0.1:${PORT + 10}`;
  try {
    await waitForHealth(`${urlA}/health`, 60000);
    await seed(urlA, 'bench');
    const b = server(PORT + 20, env);
    const urlB = `http://127.0.0.1:${PORT + 20}`;
    await waitForHealth(`${urlB}/health`, 60000);
    const { child: holder, ask } = clients();
    await ask({ cmd: 'open', url: `${urlB}/ofrep/v1/_stream/bench/events`, count: CROSS_STREAMS, headers: {} });
    const first = [];
    const last = [];
    for (let w = 1; w <= CROSS_WRITES; w++) {
      const answered = await write(urlA, {});
      const got = await ask({ cmd: 'wait', events: w, timeoutMs: 10000 });
      if (got.missing === 0) {
        first.push(got.first - answered);
        last.push(got.last - answered);
      }
      await sleep(100);
    }
    await ask({ cmd: 'close' });
    holder.kill();
    children.delete(holder);
    b.kill('SIGKILL');
    children.delete(b);
    return { first, last };
  } finally {
    a.kill('SIGKILL');
    children.delete(a);
  }
}

async function main() {
  dir = mkdtempSync(join(tmpdir(), 'flagpole-streams-'));
  console.log(`\nevent streams: ${COUNT} open OFREP streams on one instance (held by another process), variant evaluations, writes to the streamed namespace`);
  const modes = await authModes(dir);
  const rows = [];
  for (const [i, mode] of modes.entries()) rows.push(await oneMode(mode, PORT + i * 2));
  const list = (xs, f) => xs.map(f).join(' ');
  console.log('mode          opened (failed, s) | RSS MiB started → 10,000 open | rounds without / with the streams: full speed req/s; CPU µs per request; steady 1,000/s p99 ms | p99 during writes');
  for (const r of rows) {
    const errors = [...r.without, ...r.withStreams].reduce((n, x) => n + x.errors + x.steadyErrors, 0) + (r.during?.errors ?? 0);
    console.log(
      `${r.mode.padEnd(13)} ${String(r.opened.opened).padStart(6)} (${r.opened.failed}, ${(r.opened.ms / 1000).toFixed(1)} s) | ` +
        `${r.rssStart.toFixed(0)} → ${r.rssOpen.toFixed(0)} | req/s ${list(r.without, (x) => x.rps.toFixed(0))} / ${list(r.withStreams, (x) => x.rps.toFixed(0))}; ` +
        `µs ${list(r.without, (x) => x.cpu.toFixed(0))} / ${list(r.withStreams, (x) => x.cpu.toFixed(0))}; ` +
        `p99 ${list(r.without, (x) => ms(x.steadyP99))} / ${list(r.withStreams, (x) => ms(x.steadyP99))} | ${ms(r.during?.p99)}` +
        (errors ? `  (errors: ${errors})` : ''),
    );
  }
  console.log('write → event, ms (per write: the write\'s own latency; from its answer to the first and to the last stream)');
  for (const r of rows) {
    console.log(`${r.mode.padEnd(13)} ${r.fanout.map((f) => `${ms(f.write)} / ${ms(f.first)} / ${ms(f.last)}${f.missing ? ` (${f.missing} missed)` : ''}`).join('   ')}`);
  }
  const cross = await crossInstance();
  if (!cross) console.log(`two instances: skipped (no Redis at ${REDIS_URL})`);
  else {
    console.log(
      `two instances (one SQLite file, Redis), ${CROSS_STREAMS} streams on B, ${cross.first.length} of ${CROSS_WRITES} writes on A fully delivered: ` +
        `A's answer → first event on B p50 ${ms(percentile(cross.first, 0.5))} p99 ${ms(percentile(cross.first, 0.99))} ms; ` +
        `→ last of the ${CROSS_STREAMS} p50 ${ms(percentile(cross.last, 0.5))} p99 ${ms(percentile(cross.last, 0.99))} max ${ms(Math.max(...cross.last))} ms`,
    );
  }
}

main()
  .catch((e) => {
    console.error('streams bench failed:', e);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
