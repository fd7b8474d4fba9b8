#!/usr/bin/env node
// Evaluation under change (issue 22): how a namespace's size and a stream of writes to it affect evaluation.
// Per namespace size (1,000 / 10,000 / 50,000 flags, BENCH_CHURN_SIZES to choose): a SQLite file seeded directly
// (bench/churn-seed.js), then a fresh Flagpole process on it (built, auth off, as `npm run bench` starts it), measured:
// - the first evaluation after start (the namespace loaded and compiled) and the server's RSS after it, while the
//   20-flag namespace (loaded just before) is evaluated at a steady 1,000/s: its p99 and worst latency show how long
//   the load held the event loop;
// - variant evaluations of random flags of the namespace at a steady 1,000/s (bench/paced.js, latency from the time
//   each request was due) for BENCH_CHURN_SECONDS (default 9) while 0, 1 and 10 writes/s go to the same namespace
//   through the REST API, and the writes' own latency;
// - evaluations of a 20-flag namespace at the same steady 1,000/s, first alone (nothing written), then while the big
//   one takes 10 writes/s and is evaluated 10 times a second (a namespace that is written is in use: its snapshot is
//   kept current), and the ratio of the two p99s (the target: at most 1.2).
// Both ratios (10 writes/s ÷ none, beside ÷ alone) compare p99s of a few milliseconds, which one run of a shared 2-core
// machine moves by half: their cells run BENCH_CHURN_PAIRS times (default 3) in pairs of alternating order, and the
// table prints the median of the pairs' ratios and their range.
// The writes take turns: a flag's enabled and description, a distribution's rollout, a segment constraint's value,
// creating a flag and deleting it again. Each is awaited before the next; they are due at a fixed pace.
// Between cells the server is left to finish what the writes started (until its CPU is quiet, at most 30 s).
// Each size is measured per authentication mode (BENCH_CHURN_AUTH, default `off,token,jwt`: authentication off, a
// static token, a JWT; bench/run.js's modes), on its own copy of the same seeded file, every request carrying the
// mode's credential: production runs with authentication required; and, with BENCH_CHURN_WRITE_WORKER=off,on, with the
// writes on the main thread and in the write worker (`server.write_worker`).
// Every wait is bounded: evaluations give up after EVAL_TIMEOUT_MS and writes after WRITE_TIMEOUT_MS (both counted
// and printed; a percentile reached by the requests given up shows as `>` the limit), and the whole section after
// BENCH_CHURN_DEADLINE seconds; the servers are killed however it ends.
// Run alone after `npm run build`: `node bench/churn.js`.
'use strict';
const { execFileSync } = require('node:child_process');
const { copyFileSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { call } = require('./seed');
const { paced } = require('./paced');
const { authModes, startFlagpole, waitForHealth, cpuMicros } = require('./run');
const { seedChurnDb, PLANS } = require('./churn-seed');

const SIZES = (process.env.BENCH_CHURN_SIZES || '1000,10000,50000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_CHURN_SECONDS || 9);
const DEADLINE_S = Number(process.env.BENCH_CHURN_DEADLINE || 1500);
/** bench/run.js's mode names, by the short names BENCH_CHURN_AUTH takes. */
const AUTH_MODES = { off: 'auth off', token: 'static token', jwt: 'JWT' };
const AUTH = (process.env.BENCH_CHURN_AUTH || 'off,token,jwt').split(',').map((m) => {
  if (!AUTH_MODES[m]) throw new Error(`BENCH_CHURN_AUTH: unknown mode "${m}" (off, token, jwt)`);
  return m;
});
/**
 * Where the writes run (BENCH_CHURN_WRITE_WORKER: `off`, the default, `on`, or `off,on` for both): on the main thread,
 * or in the write worker (`server.write_worker`). Each is measured per authentication mode.
 */
const WORKER = (process.env.BENCH_CHURN_WRITE_WORKER || 'off').split(',').map((w) => {
  if (w !== 'off' && w !== 'on') throw new Error(`BENCH_CHURN_WRITE_WORKER: "${w}" is neither off nor on`);
  return w === 'on';
});
/**
 * BENCH_CHURN_CLIENT_CPU (a CPU number; unset by default): the bench itself (the steady evaluations and the writes'
 * client) runs on that CPU alone and the servers on every CPU, closer to production, where clients run elsewhere. On
 * 2 shared cores the client's own busy turns otherwise move a p99 of a few milliseconds by as much as a write does.
 */
const CLIENT_CPU = process.env.BENCH_CHURN_CLIENT_CPU;
const RATE = 1000;
const CONNECTIONS = 50;
const SMALL_FLAGS = 20;
const EVAL_TIMEOUT_MS = 3000;
const WRITE_TIMEOUT_MS = 5000;
const FIRST_EVAL_TIMEOUT_MS = 120000;
/** Seconds of the small namespace's evaluations around the big one's first load (50,000 flags load in about 1–2 s). */
const LOAD_WINDOW_S = Number(process.env.BENCH_CHURN_LOAD_WINDOW || 4);
/** How many times the cells of the two ratios (10 writes/s ÷ none; the 20-flag namespace beside them ÷ alone) run. */
const PAIRS = Math.max(1, Number(process.env.BENCH_CHURN_PAIRS || 3));
const PORT = 18180;

/** The Flagpole processes running now: killed on every way out. */
const children = new Set();
/** The seeded files' directory, removed on every way out. */
let dir = null;
/** The sizes measured so far: printed even when the section is cut short. */
const rows = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`churn: ${signal}, stopping the servers`);
    process.exit(1);
  });
}

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Stops a server: SIGTERM, then SIGKILL if it has not exited within 5 s. */
async function stop(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    if ((await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) === false) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  children.delete(child);
}

const evaluation = (ns, flags) => (i) => ({
  namespaceKey: ns,
  flagKey: `f${Math.floor(Math.random() * flags)}`,
  entityId: `user-${i}`,
  context: { plan: 'pro' },
});

/** One write of each kind in turn, all to the namespace `ns` whose rows `at` addresses, with the mode's `headers`. */
function writes(base, ns, flags, at, headers) {
  const N = `/api/v1/namespaces/${ns}`;
  const api = (method, path, body) => call(base, method, path, body, headers, { signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
  const any = () => at.flag(Math.floor(Math.random() * flags));
  const created = [];
  let made = 0;
  const kinds = [
    (k) => {
      const f = any();
      return api('PUT', `${N}/flags/${f.key}`, { name: f.key, description: `edit ${k}`, enabled: k % 10 < 5 });
    },
    (k) => {
      const f = any();
      return api('PUT', `${N}/flags/${f.key}/rules/${f.ruleId}/distributions/${f.distributionId}`, { variantId: f.variantId, rollout: k % 10 < 5 ? 40 : 50 });
    },
    (k) => {
      const s = at.segment(Math.floor(Math.random() * at.segments));
      return api('PUT', `${N}/segments/${s.key}/constraints/${s.constraintId}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: PLANS[k % 2] });
    },
    async () => {
      const key = `churn-${made++}`;
      await api('POST', `${N}/flags`, { key, name: key, enabled: true });
      created.push(key);
    },
    async (k) => (created.length ? api('DELETE', `${N}/flags/${created.shift()}`) : kinds[0](k)),
  ];
  return (k) => kinds[k % kinds.length](k);
}

/** Writes at `rate` per second for `seconds`, each awaited; their latency from when each was sent. */
async function writeLoop(write, rate, seconds) {
  const latencies = [];
  let errors = 0;
  let timeouts = 0;
  let firstError = null;
  if (!rate) return { latencies, errors, timeouts, rate: 0 };
  const start = performance.now();
  for (let k = 0; ; k++) {
    const due = start + (k * 1000) / rate;
    if (due >= start + seconds * 1000) break;
    await sleep(Math.max(0, due - performance.now()));
    const sent = performance.now();
    try {
      await write(k);
    } catch (e) {
      if (e.name === 'TimeoutError' || e.name === 'AbortError') timeouts++;
      else {
        errors++;
        firstError ??= e.message;
      }
    }
    latencies.push(performance.now() - sent);
  }
  if (firstError) console.error(`churn: write failed: ${firstError}`);
  return { latencies, errors, timeouts, rate: latencies.length / Math.max(seconds, (performance.now() - start) / 1000) };
}

function percentile(xs, q) {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Evaluations of `evalNs` at the steady rate while `writeRate` writes/s go to the big namespace; with `alongside`,
 * the big namespace's evaluations at that rate too (not counted).
 */
async function cell(base, headers, evalNs, evalFlags, write, writeRate, alongside) {
  const url = `${base}/evaluate/v1/variant`;
  const [evals, w] = await Promise.all([
    paced(url, evaluation(evalNs, evalFlags), { rate: RATE, seconds: SECONDS, connections: CONNECTIONS, timeout: EVAL_TIMEOUT_MS, headers }),
    writeLoop(write, writeRate, SECONDS),
    alongside && paced(url, evaluation('churn', alongside.flags), { rate: alongside.rate, seconds: SECONDS, connections: 5, timeout: EVAL_TIMEOUT_MS, headers }),
  ]);
  return { evals, writes: { p50: percentile(w.latencies, 0.5), p99: percentile(w.latencies, 0.99), ...w } };
}

/** Waits (at most `ms`) until the server has used under a fifth of a core for a quarter of a second. */
async function quiet(pid, ms = 30000) {
  const until = performance.now() + ms;
  let before = cpuMicros(pid);
  while (before !== null && performance.now() < until) {
    await sleep(250);
    const now = cpuMicros(pid);
    if (now - before < 250e3 / 5) return;
    before = now;
  }
}

/** Seeds a file with the big and the small namespace; the modes each measure a copy of it. */
async function seedSize(dir, flags) {
  const file = join(dir, `churn-${flags}.db`);
  const t0 = performance.now();
  const at = await seedChurnDb(file, [{ key: 'churn', flags }, { key: 'small', flags: SMALL_FLAGS }]);
  return { file, at, seedMs: performance.now() - t0 };
}

async function measureSize(dir, flags, seeded, mode) {
  const { at, seedMs } = seeded;
  const file = join(dir, `churn-${flags}-${mode.label}.db`);
  copyFileSync(seeded.file, file);
  const { headers } = mode;
  const child = startFlagpole(dir, PORT, { ...mode.env, FLAGPOLE_SERVER_WRITE_WORKER: String(mode.worker), FLAGPOLE_DB_URL: `file:${file}` });
  children.add(child);
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHealth(`${base}/health`);
    const rssStarted = rssMiB(child.pid);
    await call(base, 'POST', '/evaluate/v1/variant', evaluation('small', SMALL_FLAGS)(0), headers);
    // The small namespace at the steady rate from half a second before the big one's first evaluation until after it.
    const duringLoad = paced(`${base}/evaluate/v1/variant`, evaluation('small', SMALL_FLAGS), {
      rate: RATE, seconds: LOAD_WINDOW_S, connections: CONNECTIONS, timeout: EVAL_TIMEOUT_MS, headers,
    });
    await sleep(500);
    const t1 = performance.now();
    await call(base, 'POST', '/evaluate/v1/variant', evaluation('churn', flags)(0), headers, { signal: AbortSignal.timeout(FIRST_EVAL_TIMEOUT_MS) });
    const firstMs = performance.now() - t1;
    const smallDuringLoad = await duringLoad;
    const rss = rssMiB(child.pid);
    // Warm-up (JIT, connections) on both namespaces, not counted.
    await paced(`${base}/evaluate/v1/variant`, evaluation('churn', flags), { rate: RATE, seconds: 2, connections: CONNECTIONS, timeout: EVAL_TIMEOUT_MS, headers });
    await paced(`${base}/evaluate/v1/variant`, evaluation('small', SMALL_FLAGS), { rate: RATE, seconds: 1, connections: CONNECTIONS, timeout: EVAL_TIMEOUT_MS, headers });
    const write = writes(base, 'churn', flags, at.churn, headers);
    // Each cell's runs, in the order measured; `small0`: the 20-flag namespace alone (no writes anywhere), the p99 its
    // `small` cell is compared with. The two ratios' cells (w0 and w10, small0 and small) are measured PAIRS times,
    // each pair in the other order than the one before, so that a slow spell of the machine weighs on both sides.
    const cells = { w0: [], w1: [], w10: [], small0: [], small: [] };
    const CELLS = {
      w0: ['churn', flags, 0], w1: ['churn', flags, 1], w10: ['churn', flags, 10],
      small0: ['small', SMALL_FLAGS, 0], small: ['small', SMALL_FLAGS, 10, { flags, rate: 10 }],
    };
    const plan = ['w0', 'w1', 'w10', 'small0', 'small'];
    for (let pair = 1; pair < PAIRS; pair++) plan.push(...(pair % 2 ? ['w10', 'w0', 'small', 'small0'] : ['w0', 'w10', 'small0', 'small']));
    for (const name of plan) {
      const [ns, nsFlags, writeRate, alongside] = CELLS[name];
      await quiet(child.pid);
      const c = await cell(base, headers, ns, nsFlags, write, writeRate, alongside);
      cells[name].push(c);
      console.log(
        `  ${flags} flags, ${mode.label}, ${name}: eval p50 ${c.evals.p50.toFixed(1)} p99 ${c.evals.p99.toFixed(1)} max ${c.evals.max.toFixed(0)} ms, ` +
          `${c.evals.timeouts} timeouts, ${c.evals.errors} errors, ${c.evals.achievedRate.toFixed(0)}/s` +
          (writeRate ? `; writes ${c.writes.latencies.length} at ${c.writes.rate.toFixed(1)}/s p50 ${c.writes.p50.toFixed(1)} p99 ${c.writes.p99.toFixed(1)} ms, ${c.writes.timeouts} timeouts, ${c.writes.errors} errors` : ''),
      );
      // The writes' last changes are taken in before the next cell (then `quiet` waits for the work to end).
      await call(base, 'POST', '/evaluate/v1/variant', evaluation('churn', flags)(0), headers, { signal: AbortSignal.timeout(30000) }).catch(() => {});
    }
    return { flags, auth: mode.short, worker: mode.worker, seedMs, firstMs, smallDuringLoad, rssStarted, rss, cells };
  } finally {
    await stop(child);
    rmSync(file, { force: true });
  }
}

/** A latency percentile in ms; `>limit` when the requests given up alone reach it. */
function latency(value, q, timeouts, total, limit) {
  if (!Number.isFinite(value)) return '-';
  return timeouts > (1 - q) * total ? `>${limit}` : value.toFixed(1);
}
function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
/** The median of `f` over a cell's runs. */
const medianOf = (runs, f) => median(runs.map(f));
/** A cell's latency percentile (the median over its runs when it ran more than once). */
const evalAt = (runs, q) => latency(medianOf(runs, (c) => (q === 0.5 ? c.evals.p50 : c.evals.p99)), q,
  Math.max(...runs.map((c) => c.evals.timeouts)), RATE * SECONDS, EVAL_TIMEOUT_MS);
const writeAt = (runs, q) => latency(medianOf(runs, (c) => (q === 0.5 ? c.writes.p50 : c.writes.p99)), q,
  Math.max(...runs.map((c) => c.writes.timeouts)), runs[0].writes.latencies.length, WRITE_TIMEOUT_MS);
/** p99 of cell `a` ÷ p99 of cell `b`, per pair (the i-th run of each), median then range: "1.31 (1.12–1.58)". */
function ratio(r, a, b) {
  const each = r.cells[a].map((c, i) => c.evals.p99 / r.cells[b][i].evals.p99).sort((x, y) => x - y);
  const mid = median(each).toFixed(2);
  return each.length === 1 ? mid : `${mid} (${each[0].toFixed(2)}–${each[each.length - 1].toFixed(2)})`;
}

const COLUMNS = [
  ['flags', (r) => String(r.flags)],
  ['auth', (r) => r.auth],
  ['writes in', (r) => (r.worker ? 'worker' : 'main')],
  ['first eval', (r) => r.firstMs.toFixed(0)],
  ['RSS MiB', (r) => r.rss.toFixed(0)],
  ['20-flag ns during it p99', (r) => r.smallDuringLoad.p99.toFixed(1)],
  ['max', (r) => r.smallDuringLoad.max.toFixed(1)],
  ['0 w/s p50', (r) => evalAt(r.cells.w0, 0.5)],
  ['p99', (r) => evalAt(r.cells.w0, 0.99)],
  ['1 w/s p50', (r) => evalAt(r.cells.w1, 0.5)],
  ['p99', (r) => evalAt(r.cells.w1, 0.99)],
  ['10 w/s p50', (r) => evalAt(r.cells.w10, 0.5)],
  ['p99', (r) => evalAt(r.cells.w10, 0.99)],
  ['÷ 0 w/s', (r) => ratio(r, 'w10', 'w0')],
  ['writes 1/s p50', (r) => writeAt(r.cells.w1, 0.5)],
  ['p99', (r) => writeAt(r.cells.w1, 0.99)],
  ['writes 10/s p50', (r) => writeAt(r.cells.w10, 0.5)],
  ['p99', (r) => writeAt(r.cells.w10, 0.99)],
  ['done/s', (r) => medianOf(r.cells.w10, (c) => c.writes.rate).toFixed(1)],
  ['20-flag ns alone p99', (r) => evalAt(r.cells.small0, 0.99)],
  ['beside writes p99', (r) => evalAt(r.cells.small, 0.99)],
  ['÷ alone', (r) => ratio(r, 'small', 'small0')],
  ['given up eval/write', (r) => {
    const runs = Object.values(r.cells).flat();
    return `${runs.reduce((a, c) => a + c.evals.timeouts, 0)}/${runs.reduce((a, c) => a + c.writes.timeouts, 0)}`;
  }],
  ['errors', (r) => String(Object.values(r.cells).flat().reduce((a, c) => a + c.evals.errors - c.evals.timeouts + c.writes.errors, 0))],
];

function printTable(rows) {
  console.log(
    `\nevaluation under change (ms unless noted): first evaluation after start (load + compile) and RSS after it, and a ` +
      `20-flag namespace's evaluations at ${RATE}/s meanwhile (${LOAD_WINDOW_S} s around the load); variant ` +
      `evaluations of random flags at a steady ${RATE}/s, ${SECONDS} s per cell, latency from due time, given up after ` +
      `${EVAL_TIMEOUT_MS} ms; with 0, 1, 10 writes/s to the namespace through the REST API (each awaited, given up after ` +
      `${WRITE_TIMEOUT_MS} ms; at 1/s the p99 is the slowest of ${SECONDS}); 20-flag ns = another namespace at ${RATE}/s, ` +
      'alone and beside this one while it takes 10 writes/s (and 10 evaluations/s), and the ratio of the two; auth = off, ' +
      'a static token or a JWT on every request; writes in = the main thread, or the write worker (server.write_worker). ' +
      `The 0 and 10 writes/s cells and the 20-flag ones ran ${PAIRS} time(s) ` +
      'each, in pairs of alternating order: their p99s are medians, and each ratio is the median of the pairs\' ratios ' +
      '(their range in brackets)',
  );
  const cells = rows.map((r) => COLUMNS.map(([, f]) => f(r)));
  const widths = COLUMNS.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values) => values.map((v, i) => v.padStart(widths[i])).join('  ');
  console.log(line(COLUMNS.map(([h]) => h)));
  for (const c of cells) console.log(line(c));
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`churn: not finished after ${DEADLINE_S} s, giving up`);
    if (rows.length) printTable(rows);
    process.exit(1);
  }, DEADLINE_S * 1000);
  deadline.unref();
  dir = mkdtempSync(join(tmpdir(), 'flagpole-churn-'));
  if (CLIENT_CPU !== undefined) {
    execFileSync('taskset', ['-a', '-pc', CLIENT_CPU, String(process.pid)], { stdio: 'ignore' });
    process.env.BENCH_SERVER_CPUS = `0-${cpus().length - 1}`;
  }
  const t0 = performance.now();
  console.log(`\nchurn: namespaces of ${SIZES.join(', ')} flags, auth ${AUTH.join(', ')}, write worker ${WORKER.map((w) => (w ? 'on' : 'off')).join(', ')}; ${cpus().length} cores, Node ${process.version}` +
    (CLIENT_CPU === undefined ? '' : `; the bench on CPU ${CLIENT_CPU} alone, the servers on all`));
  const byName = new Map((await authModes(dir)).map((m) => [m.name, m]));
  const modes = AUTH.flatMap((short) => WORKER.map((worker) => ({ ...byName.get(AUTH_MODES[short]), short, worker, label: worker ? `${short}+worker` : short })));
  try {
    for (const flags of SIZES) {
      const seeded = await seedSize(dir, flags);
      console.log(`  ${flags} flags: seeded in ${seeded.seedMs.toFixed(0)} ms`);
      for (const mode of modes) {
        const row = await measureSize(dir, flags, seeded, mode);
        console.log(`  ${flags} flags, ${mode.label}: RSS ${row.rssStarted.toFixed(0)} MiB started, ${row.rss.toFixed(0)} MiB after the first evaluation`);
        rows.push(row);
      }
      rmSync(seeded.file, { force: true });
    }
  } finally {
    if (rows.length) printTable(rows);
    console.log(`churn: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    clearTimeout(deadline);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
