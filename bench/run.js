#!/usr/bin/env node
// `npm run bench`: Flagpole (built, SQLite, the seeded bench namespace) against a bare Fastify server answering the
// same JSON, with the same autocannon settings, one after the other on this machine. Flagpole runs in four modes,
// four processes side by side: authentication off; `authentication.required` with a static token (the bootstrap
// token, `Authorization: Bearer`); required with a JWT (RS256, a key pair made for the run, `Authorization: JWT`);
// and a static token with `authorization.required` (an evaluation-only role's token; BENCH_AUTHZ=0 leaves it out).
// With tracing (BENCH_TRACING=0 leaves them out), two more processes, authentication off and `tracing.enabled` at
// sampling ratios 1 and 0.01, exporting OTLP/HTTP to a loopback receiver that discards what it gets
// (bench/audit-receiver.js): measured on the boolean and variant cases beside `auth off`, which is tracing off, so the
// CPU per request shows what tracing costs (and that off costs nothing: compare `auth off` with earlier runs). One
// more, `analytics` (BENCH_ANALYTICS=0 leaves it out): authentication off with `analytics.enabled`, measured the same way.
// The 50-flag batch and the OFREP cases are measured with authentication off only (what authentication adds is the
// request's, which the boolean and variant rows measure). Prints req/s and latency for boolean, variant, a 50-flag
// batch, OFREP's single evaluation (the variant flag) and bulk evaluation (the namespace's 100 flags for one context;
// again with a current If-None-Match, the 304 that skips evaluation, at full speed only), the Flagpole ÷ bare ratio,
// then both at a fixed 1,000 req/s two ways: steady (one request every millisecond, bench/paced.js, the measurement
// the target is about) and autocannon's overallRate (which sends each second's 1,000 requests as a burst at its
// start); then the 10,000-flag snapshot build time and RSS (bench/snapshot-10k.js); then evaluation under writes
// (bench/churn.js, in each authentication mode; BENCH_CHURN=0 skips it). Numbers, not assertions. Each case takes, per server, BENCH_WARMUP +
// 3 × BENCH_ROUNDS × BENCH_DURATION seconds (a full-speed-only case 1 × instead of 3 ×): about 29 min for the
// tables by default (18 server-cases of 93 s, 2 of 33 s).
// The load generator shares the machine's cores with the server under test, so one run swings by several per cent
// either way, and a fixed-rate run's p99 is at the mercy of one garbage collection: each measurement is repeated
// BENCH_ROUNDS times (default 3), Flagpole and bare alternating, and the table shows the medians, each round's ratio,
// and each server's CPU time per request (from /proc, on Linux).
// BENCH_FIXED=0 leaves out the fixed-rate runs (CPU per request and full speed only). BENCH_CASES=variant,ofrep measures only the cases named; BENCH_STREAMS=0 skips the event streams (bench/streams.js),
// BENCH_AUDIT=0 the audit trail's cost to writes (bench/audit.js), BENCH_DECLARATIVE=0 the start and reload of
// 10,000 flags served from files (bench/declarative.js).
// BENCH_DB_URL runs Flagpole (auth off) on another (empty) database instead, e.g.
// postgres://postgres@127.0.0.1:5432/bench_empty: evaluations make no query, so the numbers should match SQLite's.
'use strict';
const { fork, spawn } = require('node:child_process');
const { generateKeyPairSync } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { SignJWT } = require('jose');
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

const BOOTSTRAP_TOKEN = 'bench-static-token-0123456789';

/**
 * With authorization on (`token+authz`): the bootstrap token seeds as an admin, then evaluations carry a token of an
 * evaluation-only role limited to namespaces by name and glob, beside roles and bindings that do not match it — the
 * path a production service's token takes through the policy.
 */
const BENCH_POLICY = `
roles:
  admin: [{ resources: "*", actions: "*" }]
  evaluator: [{ resources: [namespace], actions: [read], namespaces: [bench, "team-*", "svc-*"] }]
  viewer: [{ resources: [namespace, flag, segment], actions: [read] }]
bindings:
  - role: admin
    token: { metadata: { io.flagpole.auth.token.name: initial_bootstrap_token } }
  - role: viewer
    oidc: { claims: { groups: viewers } }
  - role: viewer
    token: { metadata: { team: web } }
`;

/**
 * The modes: each a Flagpole process of its own, with the headers its requests carry. `authorization` adds a fourth,
 * `token+authz` (`evaluatorRole`: its evaluations use a token of that role, made after seeding).
 */
async function authModes(dir, { authorization = false } = {}) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = join(dir, 'jwt.pem');
  writeFileSync(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  const jwt = await new SignJWT({ user: { email: 'bench@example.com' } })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const required = { FLAGPOLE_AUTHENTICATION_REQUIRED: 'true' };
  const tokens = { ...required, FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true', FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN };
  const modes = [
    { name: 'auth off', env: {}, headers: {} },
    { name: 'static token', env: tokens, headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}` } },
    {
      name: 'JWT',
      env: { ...required, FLAGPOLE_AUTHENTICATION_METHODS_JWT_ENABLED: 'true', FLAGPOLE_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE: keyFile },
      headers: { authorization: `JWT ${jwt}` },
    },
  ];
  if (authorization) {
    const policy = join(dir, 'policy.yml');
    writeFileSync(policy, BENCH_POLICY);
    modes.push({
      name: 'token+authz',
      env: { ...tokens, FLAGPOLE_AUTHORIZATION_REQUIRED: 'true', FLAGPOLE_AUTHORIZATION_LOCAL_POLICY_PATH: policy },
      headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}` },
      evaluatorRole: 'evaluator',
    });
  }
  return modes;
}

/**
 * A Flagpole process on `port`. With BENCH_SERVER_CPUS set (a taskset CPU list, as bench/churn.js sets it for
 * BENCH_CHURN_CLIENT_CPU) it runs on those CPUs, whatever the bench's own affinity.
 */
function startFlagpole(dir, port, env) {
  const cpuList = process.env.BENCH_SERVER_CPUS;
  const command = cpuList ? ['taskset', '-c', cpuList, process.execPath] : [process.execPath];
  const child = spawn(command[0], [...command.slice(1), join(ROOT, 'dist/main.js')], {
    env: {
      ...process.env,
      FLAGPOLE_DB_URL: (!env.FLAGPOLE_AUTHENTICATION_REQUIRED && process.env.BENCH_DB_URL) || `file:${join(dir, `bench-${port}.db`)}`,
      FLAGPOLE_SERVER_HTTP_PORT: String(port),
      FLAGPOLE_SERVER_HOST: '127.0.0.1',
      FLAGPOLE_LOG_LEVEL: 'ERROR',
      FLAGPOLE_SERVER_GRPC_PORT: String(port + 1),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

function startBare(port, bodies, etags = {}) {
  const env = { ...process.env, PORT: String(port), BARE_BODIES: JSON.stringify(bodies), BARE_ETAGS: JSON.stringify(etags) };
  const child = fork(join(__dirname, 'bare-server.js'), [], { env, stdio: 'inherit' });
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
function run(url, path, body, extra = {}, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + path,
        method: 'POST',
        connections: CONNECTIONS,
        headers: { ...headers, 'content-type': 'application/json' },
        // A new entity per request, so that hashing and matching really run (the same cost for both servers).
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body(`user-${entity++}`)) }) }],
        ...extra,
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

/**
 * One load run at full speed; with the server's CPU time per request when its pid is known. Any answer but `expect`
 * (200, or 304 for a revalidation) counts as an error.
 */
async function load(server, c, extra = {}) {
  const before = cpuMicros(server.pid);
  const result = await run(server.url, c.path, c.body, { duration: DURATION, ...extra }, { ...server.headers, ...c.headers });
  const after = cpuMicros(server.pid);
  const expect = String(c.expect ?? 200);
  const unexpected = Object.entries(result.statusCodeStats).reduce((n, [code, { count }]) => (code === expect ? n : n + count), 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: before === null || after === null ? null : (after - before) / result.requests.total,
    errors: unexpected + result.errors,
  };
}

/** Each round's CPU per request of `runs` ÷ that of `against` in the same round; null when either is unknown. */
const pairedCpu = (runs, against) =>
  against && runs.every((x, i) => x.cpu !== null && against[i]?.cpu) ? runs.map((x, i) => x.cpu / against[i].cpu) : null;

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The servers on one case: warm-up, ROUNDS alternating full-speed runs, then (unless the case is `fullSpeedOnly`)
 * ROUNDS alternating fixed-rate runs.
 */
async function measure(servers, c) {
  const runs = Object.fromEntries(servers.map((s) => [s.name, { load: [], fixed: [], steady: [] }]));
  for (const s of servers) await run(s.url, c.path, c.body, { duration: WARMUP }, { ...s.headers, ...c.headers });
  // Odd rounds run the servers in the reverse order, so that no server always runs first (or right after another):
  // what the order does to a round (the load generator warming up, the machine's other work) falls on both sides.
  const inOrder = (r) => (r % 2 === 0 ? servers : [...servers].reverse());
  for (let r = 0; r < ROUNDS; r++) for (const s of inOrder(r)) runs[s.name].load.push(await load(s, c));
  // BENCH_FIXED=0 measures at full speed only (CPU per request), leaving out the fixed-rate runs.
  const fixedRate = !c.fullSpeedOnly && process.env.BENCH_FIXED !== '0';
  if (fixedRate) {
    for (let r = 0; r < ROUNDS; r++) for (const s of servers) runs[s.name].fixed.push(await load(s, c, { overallRate: 1000 }));
    for (let r = 0; r < ROUNDS; r++)
      for (const s of servers)
        runs[s.name].steady.push(
          await paced(s.url + c.path, (i) => c.body(`paced-${r}-${i}`), {
            rate: 1000, seconds: DURATION, connections: CONNECTIONS, headers: { ...s.headers, ...c.headers },
          }),
        );
  }
  const summary = (name) => {
    const { load: l, fixed: f, steady: st } = runs[name];
    return {
      name,
      rps: median(l.map((x) => x.rps)),
      p50: median(l.map((x) => x.p50)),
      p99: median(l.map((x) => x.p99)),
      cpu: l.every((x) => x.cpu !== null) ? median(l.map((x) => x.cpu)) : null,
      ...(fixedRate && {
        fixedP50: median(f.map((x) => x.p50)),
        fixedP99: median(f.map((x) => x.p99)),
        fixedP99Worst: Math.max(...f.map((x) => x.p99)),
        steadyP50: median(st.map((x) => x.p50)),
        steadyP99: median(st.map((x) => x.p99)),
        steadyP99Worst: Math.max(...st.map((x) => x.p99)),
        steadyRate: Math.min(...st.map((x) => x.achievedRate)),
      }),
      errors: [...l, ...f, ...st].reduce((a, x) => a + x.errors, 0),
      // Each round's req/s against the bare server's in the same round.
      ratios: l.map((x, i) => x.rps / runs.bare.load[i].rps),
      // Each round's CPU per request against bare's, and against `auth off`'s, in the same round (paired rounds: the
      // load on the machine moves both sides of a pair alike).
      cpuRatios: pairedCpu(l, runs.bare?.load),
      cpuOverOff: name === 'auth off' || name === 'bare' ? null : pairedCpu(l, runs['auth off']?.load),
    };
  };
  return servers.map((s) => summary(s.name));
}

const CONTEXT = { plan: 'pro', age: '30', country: 'de' };
const CASES = {
  boolean: { authModes: true, tracing: true, path: '/evaluate/v1/boolean', body: (e) => ({ namespaceKey: 'bench', flagKey: 'boolean-7', entityId: e, context: CONTEXT }) },
  variant: { authModes: true, tracing: true, path: '/evaluate/v1/variant', body: (e) => ({ namespaceKey: 'bench', flagKey: 'variant-7', entityId: e, context: CONTEXT }) },
  'batch-50': {
    path: '/evaluate/v1/batch',
    body: (e) => ({ requests: Array.from({ length: 50 }, (_, i) => ({ namespaceKey: 'bench', flagKey: i % 2 ? `boolean-${i}` : `variant-${i}`, entityId: e, context: CONTEXT })) }),
  },
  // OFREP: the same flag and context as `variant`, the namespace in a header.
  ofrep: { path: '/ofrep/v1/evaluate/flags/variant-7', headers: { 'x-flipt-namespace': 'bench' }, body: (e) => ({ context: { targetingKey: e, ...CONTEXT } }) },
  // Every flag of the namespace (100) for one context, without If-None-Match: every call evaluates.
  'ofrep-bulk': { path: '/ofrep/v1/evaluate/flags', headers: { 'x-flipt-namespace': 'bench' }, body: (e) => ({ context: { targetingKey: e, ...CONTEXT } }) },
  // A client polling with its ETag while nothing changed: one context, a 304 before any evaluation. At 1,000 req/s
  // its latency would only repeat bare's (and paced.js counts 200s alone), so full speed only.
  'ofrep-304': {
    path: '/ofrep/v1/evaluate/flags',
    headers: { 'x-flipt-namespace': 'bench' },
    body: () => ({ context: { targetingKey: 'poller', ...CONTEXT } }),
    revalidate: true,
    expect: 304,
    fullSpeedOnly: true,
  },
};

/**
 * The ETag Flagpole gives a case's (fixed) bulk request, and the case with it as If-None-Match; checked to get a 304.
 * The bare server answers this tag with a 304 too.
 */
async function revalidating(url, c) {
  const ask = (headers) => fetch(url + c.path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(c.body()) });
  const first = await ask(c.headers);
  await first.arrayBuffer();
  const etag = first.headers.get('etag');
  const check = await ask({ ...c.headers, 'if-none-match': etag });
  if (!etag || check.status !== 304) throw new Error(`${c.path}: no 304 for If-None-Match ${etag} (${check.status})`);
  return { etag, case: { ...c, headers: { ...c.headers, 'if-none-match': etag } } };
}

/** A receiver for the tracing modes' spans, in a process of its own; resolves with it and its port. */
function startSpanReceiver() {
  const child = fork(join(__dirname, 'audit-receiver.js'), [], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('message', ({ port }) => resolve({ child, port })));
}

/**
 * The tracing modes: authentication off, tracing on at each ratio, spans to the receiver on `port`; each on a SQLite
 * file of its own, also under BENCH_DB_URL (which the `auth off` process has seeded).
 */
function tracingModes(dir, port) {
  return ['1', '0.01'].map((ratio) => ({
    name: `tracing ${ratio}`,
    env: {
      FLAGPOLE_DB_URL: `file:${join(dir, `bench-tracing-${ratio}.db`)}`,
      FLAGPOLE_TRACING_ENABLED: 'true',
      FLAGPOLE_TRACING_EXPORTER: 'otlp',
      FLAGPOLE_TRACING_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      FLAGPOLE_TRACING_SAMPLING_RATIO: ratio,
    },
    headers: {},
    tracing: true,
  }));
}

/**
 * The analytics mode: authentication off, `analytics.enabled` (evaluations counted in memory, flushed to its SQLite
 * file every 10 s), measured beside `auth off` on the cases the tracing modes run, so the CPU per request shows what
 * counting costs. Reported in the tracing modes' place in the table.
 */
function analyticsModes(dir) {
  return [{ name: 'analytics', env: { FLAGPOLE_DB_URL: `file:${join(dir, 'bench-analytics.db')}`, FLAGPOLE_ANALYTICS_ENABLED: 'true' }, headers: {}, tracing: true }];
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-bench-'));
  // BENCH_AUTHZ=0 leaves out the authorization mode, BENCH_TRACING=0 the tracing modes.
  const spanReceiver = process.env.BENCH_TRACING !== '0' ? await startSpanReceiver() : null;
  // BENCH_ANALYTICS=0 leaves out the analytics mode. BENCH_MODES (comma-separated names, e.g. `auth off,analytics`)
  // keeps only those modes; keep `auth off` first (the bare server answers its bodies).
  const modes = [
    ...(await authModes(dir, { authorization: process.env.BENCH_AUTHZ !== '0' })),
    ...(spanReceiver ? tracingModes(dir, spanReceiver.port) : []),
    ...(process.env.BENCH_ANALYTICS !== '0' ? analyticsModes(dir) : []),
  ].filter((m) => !process.env.BENCH_MODES || process.env.BENCH_MODES.split(',').includes(m.name));
  // Below the Flagpole processes' ports (18080, 18082, …: seven with every mode).
  const barePort = 18070;
  const processes = modes.map((m, i) => ({ ...m, port: 18080 + 2 * i, child: startFlagpole(dir, 18080 + 2 * i, m.env) }));
  let bare = null;
  const rows = [];
  try {
    const t0 = Date.now();
    for (const p of processes) {
      const url = `http://127.0.0.1:${p.port}`;
      await waitForHealth(`${url}/health`);
      await seed(url, 'bench', p.headers);
      if (p.evaluatorRole) {
        const made = await call(url, 'POST', '/auth/v1/method/token', { name: 'bench-evaluator', metadata: { 'io.flagpole.auth.role': p.evaluatorRole } }, p.headers);
        p.headers = { authorization: `Bearer ${made.clientToken}` };
      }
    }
    console.log(
      `seeded 100 flags, 10 segments in each of ${processes.length} Flagpole processes in ${Date.now() - t0} ms; ${cpus().length} cores, ` +
        `Node ${process.version}, ${DURATION}s runs, ${CONNECTIONS} connections, ${ROUNDS} rounds`,
    );
    // The bare server answers Flagpole's own bodies (auth off, the process every case runs on), and the ETag a
    // revalidating case holds with a 304.
    const bodies = {};
    const etags = {};
    const cases = {};
    const first = `http://127.0.0.1:${processes[0].port}`;
    // BENCH_CASES (comma-separated names) measures those cases only.
    const only = process.env.BENCH_CASES ? new Set(process.env.BENCH_CASES.split(',')) : null;
    for (const [name, c] of Object.entries(CASES)) {
      if (only && !only.has(name)) continue;
      if (c.revalidate) {
        const { etag, case: revalidatingCase } = await revalidating(first, c);
        etags[c.path] = etag;
        cases[name] = revalidatingCase;
        continue;
      }
      bodies[c.path] = await call(first, 'POST', c.path, c.body('sample'), c.headers);
      cases[name] = c;
    }
    bare = await startBare(barePort, bodies, etags);
    const flagpoles = processes.filter((p) => !p.tracing).map((p) => ({ name: p.name, url: `http://127.0.0.1:${p.port}`, pid: p.child.pid, headers: p.headers }));
    const traced = processes.filter((p) => p.tracing).map((p) => ({ name: p.name, url: `http://127.0.0.1:${p.port}`, pid: p.child.pid, headers: p.headers }));
    const bareServer = { name: 'bare', url: `http://127.0.0.1:${barePort}`, pid: bare.pid, headers: {} };
    for (const [name, c] of Object.entries(cases)) {
      const servers = [...(c.authModes ? flagpoles : flagpoles.slice(0, 1)), ...(c.tracing ? traced : []), bareServer];
      rows.push({ name, fixedRate: !c.fullSpeedOnly && process.env.BENCH_FIXED !== '0', results: await measure(servers, c) });
      // The table prints at the end; this says how far a long run has got (stderr, out of the table's way).
      console.error(`measured ${name} (${servers.length} servers) at ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    for (const p of processes) p.child.kill('SIGTERM');
    bare?.kill();
    spanReceiver?.child.kill();
  }
  const f = (n) => n.toFixed(0).padStart(7);
  const ms = (n) => `${n.toFixed(1)}`.padStart(6);
  const us = (n) => (n === null ? '     -' : `${n.toFixed(0)}`.padStart(6));
  console.log('\nfull speed (autocannon, 50 connections); ratio = req/s ÷ bare req/s (median, then each round); cpu = server CPU µs per request');
  console.log('tracing 1 / tracing 0.01 = auth off with tracing on at that sampling ratio (spans to a loopback OTLP/HTTP receiver); auth off = tracing off');
  console.log('analytics = auth off with analytics.enabled (evaluations counted per minute, flushed to the database every 10 s); auth off = analytics off');
  console.log('ofrep = OFREP, the variant flag; ofrep-bulk = OFREP bulk, all 100 flags for one context; ofrep-304 = that with a current If-None-Match');
  console.log('cpu ÷ bare = the median of each round\'s ratio (paired rounds), not the ratio of the medians');
  console.log('case       server          req/s    p50   p99  cpu µs/req  cpu ÷ bare | ratio (rounds)');
  for (const r of rows) {
    const bareRow = r.results.find((x) => x.name === 'bare');
    for (const x of r.results) {
      const rounds = x.ratios.map((v) => v.toFixed(2)).join(' ');
      const cpuRatio = x.cpuRatios ? median(x.cpuRatios).toFixed(2) : '-';
      console.log(
        `${r.name.padEnd(10)} ${x.name.padEnd(13)} ${f(x.rps)} ${ms(x.p50)}${ms(x.p99)} ${us(x.cpu)}      ${cpuRatio.padStart(5)}      | ` +
          (x.name === 'bare' ? '' : `${(x.rps / bareRow.rps).toFixed(2)} (${rounds})`) +
          (x.errors ? `   (${x.errors} errors!)` : ''),
      );
    }
  }
  // What a mode adds to `auth off` (tracing, analytics, authentication): CPU per request, paired round by round.
  const over = rows.flatMap((r) => r.results.filter((x) => x.cpuOverOff).map((x) => ({ case: r.name, ...x })));
  if (over.length) {
    console.log('\nserver CPU per request ÷ auth off\'s in the same round (median of paired rounds, then each round)');
    for (const x of over) {
      const pct = (median(x.cpuOverOff) - 1) * 100;
      console.log(`${x.case.padEnd(10)} ${x.name.padEnd(13)} ${median(x.cpuOverOff).toFixed(3)} (${pct >= 0 ? '+' : ''}${pct.toFixed(1)} %)  (${x.cpuOverOff.map((v) => v.toFixed(2)).join(' ')})`);
    }
  }
  const fixedRows = rows.filter((x) => x.fixedRate);
  if (fixedRows.length) {
    console.log('\nat 1,000 req/s, ms: steady = one request every 1 ms (bench/paced.js); burst = autocannon overallRate (1,000 requests at the start of each second)');
    console.log('case       server         steady p50   p99 (worst) | p99 ÷ bare | burst p50   p99 (worst)');
  }
  for (const r of fixedRows) {
    const bareRow = r.results.find((x) => x.name === 'bare');
    for (const x of r.results) {
      console.log(
        `${r.name.padEnd(10)} ${x.name.padEnd(13)} ${ms(x.steadyP50)}${ms(x.steadyP99)} (${x.steadyP99Worst.toFixed(1)}) | ` +
          `${(x.steadyP99 / bareRow.steadyP99).toFixed(2).padStart(10)} | ${ms(x.fixedP50)}${ms(x.fixedP99)} (${x.fixedP99Worst})` +
          (x.steadyRate < 950 ? `   (steady rate fell to ${x.steadyRate.toFixed(0)}/s)` : ''),
      );
    }
  }
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => {
    const child = fork(join(__dirname, 'snapshot-10k.js'), [], { stdio: 'inherit' });
    child.on('exit', resolve);
  });
  // A process of its own, like the snapshot: it bounds its own time and stops the servers it starts.
  if (process.env.BENCH_CHURN !== '0') await new Promise((resolve) => fork(join(__dirname, 'churn.js'), [], { stdio: 'inherit' }).on('exit', resolve));
  if (process.env.BENCH_STREAMS !== '0') await new Promise((resolve) => fork(join(__dirname, 'streams.js'), [], { stdio: 'inherit' }).on('exit', resolve));
  if (process.env.BENCH_AUDIT !== '0') await new Promise((resolve) => fork(join(__dirname, 'audit.js'), [], { stdio: 'inherit' }).on('exit', resolve));
  if (process.env.BENCH_DECLARATIVE !== '0') await new Promise((resolve) => fork(join(__dirname, 'declarative.js'), [], { stdio: 'inherit' }).on('exit', resolve));
}

module.exports = { authModes, startFlagpole, waitForHealth, cpuMicros };

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
