// Seeds a SQLite file for bench/churn.js with namespaces of any size, fast: creating 50,000 flags through the API
// would take longer than the whole bench. The built application creates the schema (`node dist/main.js migrate`,
// a process of its own), then plain batched INSERTs through the same sqlite3 driver MikroORM uses, one transaction
// per table, fill it in seconds.
//
// Every flag has the same shape: variant type, enabled, variants `a` and `b`, one rule on one segment (one
// `plan isoneof` constraint, matched by `plan=pro`), two 50/50 distributions. The flags of a namespace share its
// few segments. Ids are UUID-shaped and derived from (kind, namespace, index), so the bench can address any flag's
// rule, distribution or segment constraint without reading them back.
'use strict';
const { execFile } = require('node:child_process');
const { join } = require('node:path');
const sqlite3 = require('sqlite3');

const ROOT = join(__dirname, '..');
const SEGMENTS = 8;
/** The constraint value the seed writes; the bench alternates it with the other one, which matches `pro` too. */
const PLANS = ['["pro","team"]', '["pro","enterprise"]'];

const KINDS = { flag: 1, variantA: 2, variantB: 3, rule: 4, distributionA: 5, distributionB: 6, segment: 7, constraint: 8 };
/** A UUID-shaped id, the same every time for the same (kind, namespace position, index). */
function idOf(kind, nsIndex, i) {
  return `${KINDS[kind]}${String(nsIndex).padStart(7, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

/** Where a namespace's rows are, for the writes: the flag's key and ids, a segment's key and constraint id. */
function addresses(nsIndex) {
  return {
    flag: (i) => ({
      key: `f${i}`,
      ruleId: idOf('rule', nsIndex, i),
      distributionId: idOf('distributionA', nsIndex, i),
      variantId: idOf('variantA', nsIndex, i),
    }),
    segment: (j) => ({ key: `s${j}`, constraintId: idOf('constraint', nsIndex, j) }),
    segments: SEGMENTS,
  };
}

function migrate(dbFile, timeoutMs = 60000) {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [join(ROOT, 'dist/main.js'), 'migrate'],
      { env: { ...process.env, FLAGPOLE_DB_URL: `file:${dbFile}`, FLAGPOLE_LOG_LEVEL: 'ERROR' }, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => (err ? reject(new Error(`migrate: ${err.message} ${stderr}`)) : resolve()),
    ),
  );
}

function open(file) {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(db)));
  });
}

const run = (db, sql, params = []) => new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));

/** Inserts the rows a generator yields, many per statement, in one transaction. */
async function insertAll(db, table, columns, rows) {
  const perStatement = Math.min(500, Math.floor(30000 / columns.length));
  const one = `(${columns.map(() => '?').join(',')})`;
  const head = `insert into \`${table}\` (${columns.map((c) => `\`${c}\``).join(',')}) values `;
  await run(db, 'begin');
  try {
    let batch = [];
    let count = 0;
    const flush = async () => {
      await run(db, head + Array(count).fill(one).join(','), batch);
      batch = [];
      count = 0;
    };
    for (const row of rows) {
      batch.push(...row);
      if (++count === perStatement) await flush();
    }
    if (count) await flush();
    await run(db, 'commit');
  } catch (e) {
    await run(db, 'rollback').catch(() => {});
    throw e;
  }
}

function* range(n, f) {
  for (let i = 0; i < n; i++) yield f(i);
}

/**
 * Creates `dbFile` with the schema and the given namespaces, e.g. [{ key: 'churn', flags: 10000 }, { key: 'small',
 * flags: 20 }]; returns each namespace's addresses (see `addresses`) by key.
 */
async function seedChurnDb(dbFile, namespaces) {
  await migrate(dbFile);
  const db = await open(dbFile);
  try {
    await run(db, 'pragma synchronous = off');
    const t = Date.now();
    await insertAll(db, 'namespaces', ['key', 'name', 'description', 'protected', 'created_at', 'updated_at', 'state_modified_at'],
      namespaces.map((ns) => [ns.key, ns.key, '', 0, t, t, t]));
    const each = (f) => (function* () {
      for (const [n, ns] of namespaces.entries()) yield* f(n, ns);
    })();
    await insertAll(db, 'segments', ['id', 'namespace_key', 'key', 'name', 'description', 'match_type', 'created_at', 'updated_at'],
      each((n, ns) => range(SEGMENTS, (j) => [idOf('segment', n, j), ns.key, `s${j}`, `s${j}`, '', 0, t + j, t])));
    await insertAll(db, 'constraints', ['id', 'segment_id', 'type', 'property', 'operator', 'value', 'description', 'created_at', 'updated_at'],
      each((n) => range(SEGMENTS, (j) => [idOf('constraint', n, j), idOf('segment', n, j), 1, 'plan', 'isoneof', PLANS[0], '', t, t])));
    await insertAll(db, 'flags', ['id', 'namespace_key', 'key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'metadata', 'created_at', 'updated_at'],
      each((n, ns) => range(ns.flags, (i) => [idOf('flag', n, i), ns.key, `f${i}`, `f${i}`, '', 1, 0, null, null, t + i, t])));
    await insertAll(db, 'variants', ['id', 'flag_id', 'key', 'name', 'description', 'attachment', 'created_at', 'updated_at'],
      each((n, ns) => (function* () {
        for (let i = 0; i < ns.flags; i++) {
          yield [idOf('variantA', n, i), idOf('flag', n, i), 'a', '', '', null, t, t];
          yield [idOf('variantB', n, i), idOf('flag', n, i), 'b', '', '', '{"x":1}', t + 1, t];
        }
      })()));
    await insertAll(db, 'rules', ['id', 'flag_id', 'rank', 'segment_operator', 'created_at', 'updated_at'],
      each((n, ns) => range(ns.flags, (i) => [idOf('rule', n, i), idOf('flag', n, i), 1, 0, t, t])));
    await insertAll(db, 'rule_segments', ['rule_id', 'segment_id', 'position'],
      each((n, ns) => range(ns.flags, (i) => [idOf('rule', n, i), idOf('segment', n, i % SEGMENTS), 0])));
    await insertAll(db, 'distributions', ['id', 'rule_id', 'variant_id', 'rollout', 'created_at', 'updated_at'],
      each((n, ns) => (function* () {
        for (let i = 0; i < ns.flags; i++) {
          yield [idOf('distributionA', n, i), idOf('rule', n, i), idOf('variantA', n, i), 50, t, t];
          yield [idOf('distributionB', n, i), idOf('rule', n, i), idOf('variantB', n, i), 50, t + 1, t];
        }
      })()));
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
  return Object.fromEntries(namespaces.map((ns, n) => [ns.key, addresses(n)]));
}

module.exports = { seedChurnDb, PLANS };
