// Declarative storage with 10,000 flags in files (storage.type local): the built server started on a directory holding
// one `features.yml` of 10,000 flags (8,000 variant flags with 3 variants, a rule and distributions; 2,000 boolean
// flags with two rollouts; 200 segments), as an operator runs it. Prints the time to healthy (start-up, which mirrors
// the files), RSS, then for a one-line change to the file (BENCH_DECLARATIVE_ROUNDS times, default 3): the time until
// the management API shows it and until an evaluation answers with it, and RSS after. Numbers, not assertions.
'use strict';
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const FLAGS = Number(process.env.BENCH_DECLARATIVE_FLAGS || 10000);
const ROUNDS = Number(process.env.BENCH_DECLARATIVE_ROUNDS || 3);

function document(flags, marker) {
  const lines = ['version: "1.4"', 'namespace: big', 'segments:'];
  for (let s = 0; s < 200; s++) {
    lines.push(`- key: seg-${s}`, `  name: Segment ${s}`, '  match_type: ALL_MATCH_TYPE', '  constraints:',
      '  - type: STRING_COMPARISON_TYPE', '    property: plan', '    operator: eq', `    value: plan-${s % 7}`,
      '  - type: NUMBER_COMPARISON_TYPE', '    property: age', '    operator: gte', `    value: "${s % 60}"`);
  }
  lines.push('flags:');
  const variantFlags = Math.round(flags * 0.8);
  for (let f = 0; f < flags; f++) {
    const name = f === 0 ? `First ${marker}` : `Flag ${f}`;
    if (f < variantFlags) {
      lines.push(`- key: flag-${f}`, `  name: ${name}`, '  type: VARIANT_FLAG_TYPE', '  enabled: true', '  variants:',
        '  - key: a', '  - key: b', '    attachment: {color: blue}', '  - key: c', '  rules:',
        `  - segment: seg-${f % 200}`, '    distributions:', '    - variant: a', '      rollout: 50', '    - variant: b', '      rollout: 50');
    } else {
      lines.push(`- key: flag-${f}`, `  name: ${name}`, '  type: BOOLEAN_FLAG_TYPE', '  enabled: true', '  rollouts:',
        '  - segment:', `      key: seg-${f % 200}`, '      value: true', '  - threshold:', '      percentage: 30', '      value: true');
    }
  }
  return `${lines.join('\n')}\n`;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMiB = (pid) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);

async function until(probe, ms = 120000) {
  const started = Date.now();
  for (;;) {
    try {
      if (await probe()) return Date.now() - started;
    } catch {
      // not up yet
    }
    if (Date.now() - started > ms) throw new Error('timed out');
    await sleep(10);
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-bench-declarative-'));
  const files = join(dir, 'flags');
  require('node:fs').mkdirSync(files);
  const file = join(files, 'features.yml');
  writeFileSync(file, document(FLAGS, 0));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const child = spawn('node', ['dist/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH, FLAGPOLE_LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'WARN', FLAGPOLE_SERVER_HOST: '127.0.0.1', FLAGPOLE_SERVER_HTTP_PORT: String(port),
      FLAGPOLE_SERVER_GRPC_PORT: '0', FLAGPOLE_DATA_DIR: join(dir, 'data'), FLAGPOLE_STORAGE_TYPE: 'local', FLAGPOLE_STORAGE_LOCAL_PATH: files,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const healthy = await until(async () => (await fetch(`${url}/health`)).ok);
    const evaluate = () => fetch(`${url}/evaluate/v1/variant`, {
      method: 'POST', body: JSON.stringify({ namespaceKey: 'big', flagKey: 'flag-1', entityId: 'u', context: { plan: 'plan-1', age: '40' } }),
    }).then((r) => r.json());
    await until(async () => (await evaluate()).flagKey === 'flag-1');
    console.log(`\n## Declarative storage: ${FLAGS.toLocaleString('en')} flags in one file (storage.type local, SQLite mirror)`);
    console.log(`size of features.yml: ${(readFileSync(file).length / 1048576).toFixed(1)} MiB`);
    console.log(`start to healthy (mirrors the files): ${((Date.now() - started) / 1000).toFixed(2)} s (health answered after ${healthy} ms of polling)`);
    console.log(`RSS after start and the first evaluation: ${rssMiB(child.pid)} MiB`);
    const api = [];
    const evaluation = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const t0 = Date.now();
      writeFileSync(file, document(FLAGS, round));
      api.push(await until(async () => (await (await fetch(`${url}/api/v1/namespaces/big/flags/flag-0`)).json()).name === `First ${round}`) + 0);
      // The change renamed a flag; its evaluation snapshot reloads with it: a variant flag's answer must come back.
      await until(async () => (await evaluate()).flagKey === 'flag-1');
      evaluation.push(Date.now() - t0);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`a one-line change, until the API shows it: median ${median(api)} ms (${api.join(', ')})`);
    console.log(`the same, until evaluations answer from the reloaded namespace: median ${median(evaluation)} ms (${evaluation.join(', ')})`);
    console.log(`RSS after ${ROUNDS} reloads: ${rssMiB(child.pid)} MiB`);
    // A small namespace in a file of its own beside the big one: what a typical change costs.
    const small = join(files, 'small.features.yml');
    const smallDoc = (n) => `namespace: small\nflags:\n${Array.from({ length: 20 }, (_, i) => `- key: s${i}\n  name: ${i === 0 ? `Small ${n}` : `S${i}`}\n`).join('')}`;
    writeFileSync(small, smallDoc(0));
    await until(async () => (await fetch(`${url}/api/v1/namespaces/small/flags/s0`)).ok);
    const picked = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const t0 = Date.now();
      writeFileSync(small, smallDoc(round));
      await until(async () => (await (await fetch(`${url}/api/v1/namespaces/small/flags/s0`)).json()).name === `Small ${round}`);
      picked.push(Date.now() - t0);
    }
    console.log(`a change to a 20-flag file beside it, until the API shows it: median ${median(picked)} ms (${picked.join(', ')})`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
