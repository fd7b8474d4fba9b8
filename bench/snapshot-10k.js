// Time to load and compile one namespace of 10,000 flags from the database into an evaluation snapshot, and the
// process RSS with it loaded. Seeds a temporary SQLite file through the built application, then measures in a fresh
// process (a server as it runs: started, then loading the namespace), so the seeding's own memory is not counted.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const { performance } = require('node:perf_hooks');

const { fork } = require('node:child_process');
const { loadConfig } = require('../dist/config/config.loader');
const { createApp } = require('../dist/app');

async function startApp(dbFile) {
  const config = loadConfig({ argv: [], env: { FLAGPOLE_DB_URL: `file:${dbFile}`, FLAGPOLE_LOG_LEVEL: 'ERROR' } });
  const app = await createApp(config);
  await app.init();
  return app;
}

async function measure(dbFile) {
  const app = await startApp(dbFile);
  const { SnapshotCache } = require('../dist/evaluation/snapshot-cache.service');
  global.gc && global.gc();
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const snapshot = await app.get(SnapshotCache).get('default');
  const took = performance.now() - start;
  global.gc && global.gc();
  const rss = process.memoryUsage().rss;
  console.log(`\nsnapshot of ${snapshot.flags.size} flags (10,000 rules, 20,000 distributions): loaded + compiled in ${took.toFixed(0)} ms; RSS ${(rss / 2 ** 20).toFixed(0)} MiB with it loaded (${(before / 2 ** 20).toFixed(0)} MiB started, before loading)`);
  await app.close();
}

async function main() {
  if (process.env.SNAPSHOT_DB) return measure(process.env.SNAPSHOT_DB);
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-10k-'));
  const { MikroORM } = require('@mikro-orm/core');
  const { Flag } = require('../dist/flags/flag.entity');
  const { Variant } = require('../dist/flags/variant.entity');
  const { Rule } = require('../dist/rules/rule.entity');
  const { Distribution } = require('../dist/rules/distribution.entity');
  const { RuleSegment } = require('../dist/rules/rule-segment.entity');
  const { Segment } = require('../dist/segments/segment.entity');
  const { Constraint } = require('../dist/segments/constraint.entity');
  const app = await startApp(join(dir, 'big.db'));
  const orm = app.get(MikroORM);
  const em = orm.em.fork();
  const t = new Date();
  const ns = em.getReference('Namespace', 'default');
  const segments = Array.from({ length: 50 }, (_, i) => em.create(Segment, { id: randomUUID(), namespace: ns, key: `s${i}`, name: `s${i}`, description: '', matchType: 0, createdAt: t, updatedAt: t }));
  segments.forEach((segment) => em.create(Constraint, { id: randomUUID(), segment, type: 1, property: 'plan', operator: 'eq', value: 'pro', description: '', createdAt: t, updatedAt: t }));
  await em.flush();
  const segmentIds = segments.map((x) => x.id);
  em.clear();
  for (let i = 0; i < 10000; i++) {
    const flag = em.create(Flag, { id: randomUUID(), namespace: em.getReference('Namespace', 'default'), key: `f${i}`, name: `f${i}`, description: '', enabled: true, type: 0, defaultVariantId: null, metadata: null, createdAt: new Date(t.getTime() + i), updatedAt: t });
    const a = em.create(Variant, { id: randomUUID(), flag, key: 'a', name: '', description: '', attachment: null, createdAt: t, updatedAt: t });
    const b = em.create(Variant, { id: randomUUID(), flag, key: 'b', name: '', description: '', attachment: '{"x":1}', createdAt: t, updatedAt: t });
    const rule = em.create(Rule, { id: randomUUID(), flag, rank: 1, segmentOperator: 0, createdAt: t, updatedAt: t });
    em.create(RuleSegment, { rule, segment: em.getReference(Segment, segmentIds[i % 50]), position: 0 });
    em.create(Distribution, { id: randomUUID(), rule, variant: a, rollout: 50, createdAt: t, updatedAt: t });
    em.create(Distribution, { id: randomUUID(), rule, variant: b, rollout: 50, createdAt: t, updatedAt: t });
    if (i % 1000 === 999) {
      await em.flush();
      em.clear();
    }
  }
  await em.flush();
  em.clear();
  await app.close();
  await new Promise((resolve, reject) =>
    fork(__filename, [], { env: { ...process.env, SNAPSHOT_DB: join(dir, 'big.db') }, execArgv: ['--expose-gc'], stdio: 'inherit' })
      .on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`measuring exited with ${code}`)))),
  );
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
