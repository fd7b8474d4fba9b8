#!/usr/bin/env node
// The audit section of `npm run bench` (BENCH_AUDIT=0 skips it): what the audit trail adds to a write. One Flagpole
// (built, SQLite) per mode, BENCH_AUDIT_WRITES (1,000) sequential flag updates each (PUT, alternating enabled), the
// write's own latency p50/p99:
//   off      audit.storage.enabled false, no sink — the write alone;
//   stored   the default: every event stored in the database (no sink);
//   webhook  stored + the webhook sink (signed) to a receiver on loopback (its own process) that answers 200;
//   down     stored + the webhook sink to a port where nothing listens (every delivery fails and is retried).
// Each mode runs in each of run.js's authentication modes (auth off, a static token, a JWT), since production writes
// carry a credential (and the event its actor). BENCH_AUDIT_MODES=off,webhook measures only the modes named.
// Modes run in alternating rounds (BENCH_AUDIT_ROUNDS, 2) so that a slow patch of the machine hits them all; the
// table shows the median over rounds and the ratio of p50 to `off`'s in the same authentication mode. Numbers, not
// assertions.
'use strict';
const { fork } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { authModes, startFlagpole, waitForHealth } = require('./run');

const WRITES = Number(process.env.BENCH_AUDIT_WRITES || 1000);
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS || 2);

async function call(base, method, path, body, headers) {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body && JSON.stringify(body) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function writes(base, headers) {
  await call(base, 'POST', '/api/v1/namespaces/default/flags', { key: 'audited', name: 'Audited', type: 'VARIANT_FLAG_TYPE' }, headers);
  const times = [];
  for (let i = 0; i < WRITES; i++) {
    const t = process.hrtime.bigint();
    await call(base, 'PUT', '/api/v1/namespaces/default/flags/audited', { name: `Audited ${i}`, enabled: i % 2 === 0 }, headers);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function main() {
  const receiver = fork(join(__dirname, 'audit-receiver.js'));
  const ask = () => new Promise((resolve) => receiver.once('message', resolve));
  const { port: receiverPort } = await ask();
  const hook = `http://127.0.0.1:${receiverPort}/hook`;
  const allModes = {
    off: { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'false' },
    stored: {},
    webhook: { FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: hook, FLAGPOLE_AUDIT_SINKS_WEBHOOK_SIGNING_SECRET: 'bench' },
    down: { FLAGPOLE_AUDIT_SINKS_WEBHOOK_ENABLED: 'true', FLAGPOLE_AUDIT_SINKS_WEBHOOK_URL: 'http://127.0.0.1:9/hook', FLAGPOLE_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '1s' },
  };
  const picked = (process.env.BENCH_AUDIT_MODES || Object.keys(allModes).join(',')).split(',');
  const modes = Object.fromEntries(Object.entries(allModes).filter(([m]) => picked.includes(m)));
  let received = 0;
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-bench-audit-'));
  const auths = await authModes(dir);
  const results = Object.fromEntries(auths.map((a) => [a.name, Object.fromEntries(Object.keys(modes).map((m) => [m, []]))]));
  let port = 18300;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const auth of auths) {
        for (const [mode, env] of Object.entries(modes)) {
          port += 2;
          const db = `file:${join(dir, `audit-${mode}-${auth.name.replace(/\W/g, '')}-${round}.db`)}`;
          const child = startFlagpole(dir, port, { ...auth.env, ...env, FLAGPOLE_DB_URL: db });
          try {
            await waitForHealth(`http://127.0.0.1:${port}`);
            results[auth.name][mode].push(await writes(`http://127.0.0.1:${port}`, auth.headers));
          } finally {
            child.kill();
            await new Promise((r) => child.once('exit', r));
          }
        }
      }
    }
  } finally {
    receiver.send('count');
    received = (await ask()).received;
    receiver.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\naudit: ${WRITES} sequential flag updates per mode, ${ROUNDS} alternating rounds (median; p50 ÷ off in the same authentication mode)`);
  console.log('auth           mode       p50 ms   p99 ms   p50 ÷ off   rounds p50');
  for (const [auth, byMode] of Object.entries(results)) {
    const base = byMode.off ? median(byMode.off.map((r) => r.p50)) : NaN;
    for (const [mode, rs] of Object.entries(byMode)) {
      const p50 = median(rs.map((r) => r.p50));
      const p99 = median(rs.map((r) => r.p99));
      console.log(`${auth.padEnd(14)} ${mode.padEnd(9)} ${p50.toFixed(2).padStart(7)} ${p99.toFixed(2).padStart(8)} ${(p50 / base).toFixed(2).padStart(10)}   ${rs.map((r) => r.p50.toFixed(2)).join(' ')}`);
    }
  }
  console.log(`webhook receiver got ${received} events`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
