/**
 * Snapshots kept up to date write by write must equal a snapshot loaded from scratch (issue 22). App A serves two
 * namespaces and evaluates them between a few thousand seeded-random writes of every kind (delta-writes.ts), so its
 * loaded snapshots are the ones a write changes. At each checkpoint app B starts fresh on the same database and the
 * two must agree: the snapshot document (with and without X-Flipt-Accept-Server-Version) byte for byte with the same
 * ETag, and every flag's variant, boolean and batch answers for a few hundred entities with contexts drawn from the
 * values the constraints test. Between checkpoints, quick checks (B again, the document and a few entities) catch
 * mistakes that a later write would repair.
 *
 * FLAGPOLE_DELTA_SEED replays a run (the seed is printed; random otherwise), FLAGPOLE_DELTA_WRITES sets the number of
 * writes (default 2500), FLAGPOLE_DELTA_CHECKPOINTS the number of checkpoints (default 3), FLAGPOLE_DELTA_ENTITIES the
 * entities compared at each (default 300), FLAGPOLE_DELTA_QUICK_EVERY the mean number of writes between quick checks
 * (default 50; 0: none).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/knex';
import { Database } from '../../src/storage/database.service';
import { loadFlags } from '../../src/storage/evaluation-source';
import { dialectOfKnex } from '../../src/storage/rows';
import { dropDatabase, freshDatabaseUrl, PACKING_DIALECTS, TEST_DIALECT } from '../support/databases';
import { client, http, HttpResult, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, NamespaceSpec, nsPath } from './fixtures';
import {
  chooseWrite, Entity, firstDifference, modelOf, NamespaceModel, randomContext, randomEntityId, Rng, stripVolatile, Writer,
} from './delta-writes';

const SEED = Number(process.env.FLAGPOLE_DELTA_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WRITES = Number(process.env.FLAGPOLE_DELTA_WRITES ?? 2500);
const CHECKPOINTS = Number(process.env.FLAGPOLE_DELTA_CHECKPOINTS ?? 3);
const ENTITIES = Number(process.env.FLAGPOLE_DELTA_ENTITIES ?? 300);
/**
 * Between checkpoints, on average once per this many writes, a quick check against a fresh B. A delta that goes wrong
 * for one flag is repaired by the next write to that flag (which recompiles it whole), so the mistake shows only until
 * then: checkpoints alone would see few of them.
 */
const QUICK_EVERY = Number(process.env.FLAGPOLE_DELTA_QUICK_EVERY ?? 50);
/** Of the entities, how many are also asked one flag at a time, on /evaluate/v1/variant and /evaluate/v1/boolean. */
const SINGLE_ENTITIES = Math.max(1, Math.round(ENTITIES / 25));
/** Generous: the suite aims at under a minute per dialect; a slow CI machine must not turn that into a failure. */
const PHASE_TIMEOUT = 300_000 + WRITES * 100;

/** How often, per write: it goes to the second namespace; A evaluates afterwards; evaluations race the write. */
const P_OTHER_NAMESPACE = 0.1;
const P_EVALUATE_AFTER = 0.5;
const P_RACE = 0.03;

type Versions = Array<[label: string, headers: Record<string, string>]>;
const CURRENT: Versions = [['X-Flipt-Accept-Server-Version 1.47.0', { 'x-flipt-accept-server-version': '1.47.0' }]];
const VERSIONS: Versions = [
  ['no X-Flipt-Accept-Server-Version', {}],
  ...CURRENT,
  ['X-Flipt-Accept-Server-Version 1.37.0', { 'x-flipt-accept-server-version': '1.37.0' }],
];

/** How much a comparison with B covers: at checkpoints everything, in quick checks the full document and a few entities. */
interface Depth {
  versions: Versions;
  entities: number;
  singleEntities: number;
}
const FULL: Depth = { versions: VERSIONS, entities: ENTITIES, singleEntities: SINGLE_ENTITIES };
const QUICK: Depth = { versions: CURRENT, entities: 20, singleEntities: 0 };

const str = (property: string, operator: string, value = '') => ({ type: 'STRING_COMPARISON_TYPE' as const, property, operator, value });

/** Where A starts: every constraint type, AND/OR rules, both rollout types, a default variant. */
const MAIN: NamespaceSpec = {
  key: 'delta',
  segments: [
    { key: 'seg-0', constraints: [str('plan', 'eq', 'pro'), { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
    {
      key: 'seg-1',
      matchType: 'ANY_MATCH_TYPE',
      constraints: [
        { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' },
        { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'lt', value: '2025-01-01T00:00:00Z' },
      ],
    },
    { key: 'seg-2', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'isoneof', value: '["user-1","user-2","user-3"]' }] },
    { key: 'seg-3' },
  ],
  flags: [
    {
      key: 'flag-0',
      variants: [{ key: 'red', attachment: '{"color": "red"}' }, { key: 'green' }],
      defaultVariant: 'green',
      rules: [
        { segments: ['seg-0', 'seg-1'], operator: 'AND_SEGMENT_OPERATOR', distributions: [['red', 50], ['green', 50]] },
        { segments: ['seg-2'], distributions: [['red', 100]] },
        { segments: ['seg-3'], distributions: [['green', 30]] },
      ],
    },
    {
      key: 'flag-1',
      type: 'BOOLEAN_FLAG_TYPE',
      rollouts: [{ segment: { segments: ['seg-1', 'seg-2'], value: true } }, { threshold: { percentage: 40, value: false } }],
    },
    { key: 'flag-2', enabled: false, variants: [{ key: 'blue' }] },
    { key: 'flag-3', type: 'BOOLEAN_FLAG_TYPE' },
  ],
};

/** The namespace that gets a write now and then: a write there must leave MAIN's snapshot alone, and vice versa. */
const OTHER: NamespaceSpec = {
  key: 'delta-other',
  segments: [{ key: 'seg-0', constraints: [str('region', 'prefix', 'eu')] }],
  flags: [{ key: 'flag-0', variants: [{ key: 'red' }], rules: [{ segments: ['seg-0'], distributions: [['red', 100]] }] }],
};

/** A failure that carries the seed and the last writes, so that it can be replayed and read. */
class Disagreement extends Error {}

describe(`snapshots brought forward write by write equal a fresh load (${TEST_DIALECT})`, () => {
  const rng = new Rng(SEED);
  const recent: string[] = [];
  const tally = new Map<string, { ok: number; refused: number }>();
  let dir: string;
  let dbUrl: string;
  let a: RunningFlagpole;
  let apiA: Api;
  let models: NamespaceModel[];
  let written = 0;
  let evaluated = 0;

  /** Fails with the seed and the last writes; those naming a key or id on the difference's path are marked with `*`. */
  const fail = (what: string): never => {
    const named = [...what.matchAll(/\[\d+ (?:key|id)=([\w-]+)\]/g)].map((m) => new RegExp(`(^|[^\\w-])${m[1]}([^\\w-]|$)`));
    const lines = recent.map((line) => (named.some((re) => re.test(line)) ? `* ${line}` : `  ${line}`));
    throw new Disagreement(`${what}\n\nseed ${SEED} (FLAGPOLE_DELTA_SEED=${SEED} replays it), after ${written} writes; the last ones:\n${lines.join('\n')}`);
  };
  const note = (line: string) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
  };

  beforeAll(async () => {
    console.log(`delta consistency on ${TEST_DIALECT}: seed ${SEED}, ${WRITES} writes, ${CHECKPOINTS} checkpoints, ${ENTITIES} entities`);
    dir = mkdtempSync(join(tmpdir(), 'flagpole-delta-'));
    dbUrl = await freshDatabaseUrl(dir);
    // An explicit database URL: A leaves it in place on close, B opens the same one, afterAll drops it.
    a = await startFlagpole({ FLAGPOLE_DB_URL: dbUrl });
    apiA = client(a.url);
    models = [];
    for (const spec of [MAIN, OTHER]) models.push(modelOf(spec, await buildNamespace(apiA, spec)));
    // Load both snapshots on A before the first write.
    for (const ns of models) for (const flagKey of ns.flags.keys()) await evaluateOnA(ns, flagKey);
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    if (dbUrl) await dropDatabase(dbUrl);
    if (dir) rmSync(dir, { recursive: true, force: true });
    const lines = [...tally].sort(([x], [y]) => x.localeCompare(y)).map(([kind, t]) => `${kind.padEnd(36)} ${String(t.ok).padStart(5)} ok ${String(t.refused).padStart(4)} refused`);
    console.log(`writes by kind (seed ${SEED}):\n${lines.join('\n')}\nevaluations on A between writes: ${evaluated}`);
  });

  // ---- A: writes and the evaluations between them ---------------------------------------------------------------

  /** One evaluation on A of a random flag of `ns` (or of its snapshot document); only a 5xx is wrong here. */
  async function evaluateOnA(ns: NamespaceModel, flagKey = rng.pick([...ns.flags.keys()]) ?? 'flag-0'): Promise<void> {
    // Everything random is drawn before the first await, so that racing evaluations keep the sequence replayable.
    const req = { namespaceKey: ns.key, flagKey, entityId: randomEntityId(rng), context: randomContext(rng) };
    const r = rng.next();
    // mostly the route of the flag's type; now and then the other one (answered 400)
    const asBoolean = (ns.flags.get(flagKey)?.type === 'BOOLEAN_FLAG_TYPE') === r >= 0.35;
    const batch = [req, { ...req, entityId: randomEntityId(rng) }, { ...req, flagKey: 'flag-1' }];
    let res: HttpResult;
    if (r < 0.1) res = await apiA.get(`/internal/v1/evaluation/snapshot/namespace/${ns.key}`);
    else if (r < 0.3) res = await apiA.post('/evaluate/v1/batch', { requests: batch });
    else res = await apiA.post(asBoolean ? '/evaluate/v1/boolean' : '/evaluate/v1/variant', req);
    evaluated++;
    if (res.status >= 500) fail(`evaluation on A answered ${res.status}: ${res.text}\nrequest: ${JSON.stringify(req)}`);
  }

  async function writeOnce(): Promise<void> {
    const ns = rng.chance(P_OTHER_NAMESPACE) ? models[1] : models[0];
    const kind = chooseWrite(rng, ns);
    const racing = rng.chance(P_RACE) ? [evaluateOnA(ns), evaluateOnA(ns), evaluateOnA(ns)] : [];
    const writer: Writer = {
      rng,
      ns,
      p: nsPath(ns.key),
      async send(method, path, body, onOk) {
        const res = await http(a.url, method, path, body);
        written++;
        note(`#${written} ${kind.name}: ${method} ${path} ${body === undefined ? '' : JSON.stringify(body)} → ${res.status}${res.status === 200 ? '' : ` ${res.text.slice(0, 160)}`}`);
        if (res.status >= 500) fail(`write answered ${res.status}`);
        const t = tally.get(kind.name) ?? { ok: 0, refused: 0 };
        tally.set(kind.name, t);
        if (res.status === 200) {
          t.ok++;
          onOk?.(res.body);
        } else {
          t.refused++;
        }
        return res;
      },
    };
    try {
      await kind.run(writer);
    } finally {
      await Promise.allSettled(racing);
    }
    await Promise.all(racing); // a racing evaluation's failure, if any
    if (rng.chance(P_EVALUATE_AFTER)) await evaluateOnA(ns);
    if (rng.chance(P_EVALUATE_AFTER / 5)) await evaluateOnA(models[1 - models.indexOf(ns)]);
  }

  // ---- B: a fresh load of the same database, compared with A -----------------------------------------------------

  async function compareDocuments(apiB: Api, ns: string, versions: Versions): Promise<any> {
    let current: any;
    for (const [label, headers] of versions) {
      const path = `/internal/v1/evaluation/snapshot/namespace/${ns}`;
      const [fromA, fromB] = [await apiA.get(path, undefined, headers), await apiB.get(path, undefined, headers)];
      if (fromA.status !== 200 || fromB.status !== 200) fail(`snapshot of ${ns} (${label}): A answered ${fromA.status}, B ${fromB.status}`);
      const diff = firstDifference(fromA.body, fromB.body);
      if (diff) fail(`snapshot document of ${ns} (${label}), A (written to) vs B (fresh load), first difference at\n  ${diff}`);
      if (fromA.text !== fromB.text) fail(`snapshot document of ${ns} (${label}): equal values but different text (key order?)\nA: ${fromA.text.slice(0, 400)}\nB: ${fromB.text.slice(0, 400)}`);
      const [etagA, etagB] = [fromA.headers.get('etag'), fromB.headers.get('etag')];
      if (!etagA || etagA !== etagB) fail(`ETag of ${ns} (${label}): A ${etagA}, B ${etagB}`);
      const revalidated = await apiB.get(path, undefined, { ...headers, 'if-none-match': etagA! });
      if (revalidated.status !== 304) fail(`B answered ${revalidated.status} to A's ETag for ${ns} (${label}), not 304`);
      if (headers === CURRENT[0][1]) current = fromB.body;
    }
    return current;
  }

  /** Maps with at most `limit` calls in flight. */
  async function inParallel<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return out;
  }

  /** Every flag (and one that does not exist) for every case in a batch; the first `singles` cases one by one too. */
  async function compareEvaluations(apiB: Api, ns: string, flagKeys: string[], cases: Entity[], singleEntities: number) {
    const requests = cases.flatMap((c) => [...flagKeys, 'no-such-flag'].map((flagKey) => ({ namespaceKey: ns, flagKey, ...c })));
    const chunks = Array.from({ length: Math.ceil(requests.length / 500) }, (_, i) => requests.slice(i * 500, (i + 1) * 500));
    let matched = 0;
    for (const chunk of chunks) {
      const [fromA, fromB] = [await apiA.post('/evaluate/v1/batch', { requests: chunk }), await apiB.post('/evaluate/v1/batch', { requests: chunk })];
      if (fromA.status !== 200 || fromB.status !== 200) {
        const diff = firstDifference({ status: fromA.status, body: fromA.body }, { status: fromB.status, body: fromB.body }, 'batch');
        if (diff) fail(`batch on ${ns}, A vs B (fresh): ${diff}`);
        continue; // refused alike
      }
      const [answersA, answersB] = [stripVolatile(fromA.body.responses) as any[], stripVolatile(fromB.body.responses) as any[]];
      for (let i = 0; i < chunk.length; i++) {
        const diff = firstDifference(answersA[i], answersB[i], 'answer');
        if (diff) fail(`batch answer for ${JSON.stringify(chunk[i])}, A vs B (fresh): ${diff}\nA: ${JSON.stringify(answersA[i])}\nB: ${JSON.stringify(answersB[i])}`);
        const answer = answersB[i].variantResponse ?? answersB[i].booleanResponse;
        if (answer?.reason === 'MATCH_EVALUATION_REASON') matched++;
      }
    }
    const singles = cases.slice(0, singleEntities).flatMap((c) =>
      [...flagKeys, 'no-such-flag'].flatMap((flagKey) => ['variant', 'boolean'].map((kind) => ({ kind, req: { namespaceKey: ns, flagKey, ...c } }))),
    );
    await inParallel(singles, 8, async ({ kind, req }) => {
      const [fromA, fromB] = [await apiA.post(`/evaluate/v1/${kind}`, req), await apiB.post(`/evaluate/v1/${kind}`, req)];
      const diff = firstDifference({ status: fromA.status, body: stripVolatile(fromA.body) }, { status: fromB.status, body: stripVolatile(fromB.body) }, kind);
      if (diff) fail(`/evaluate/v1/${kind} for ${JSON.stringify(req)}, A vs B (fresh): ${diff}`);
    });
    return { batch: requests.length, single: singles.length, matched };
  }

  /**
   * Starts B on A's database and compares: both namespaces' documents (in `depth.versions`), then every flag's
   * answers for `depth.entities` random entities (a tenth of them in the second namespace). Returns a summary line.
   */
  async function compareWithFreshB(depth: Depth): Promise<string> {
    const b = await startFlagpole({ FLAGPOLE_DB_URL: dbUrl });
    try {
      const apiB = client(b.url);
      const summary: string[] = [];
      for (const ns of models) {
        const doc = await compareDocuments(apiB, ns.key, depth.versions);
        const flagKeys: string[] = doc.flags.map((f: any) => f.key);
        const entities = ns === models[0] ? depth.entities : Math.ceil(depth.entities / 10);
        const cases: Entity[] = Array.from({ length: entities }, () => ({ entityId: randomEntityId(rng), context: randomContext(rng) }));
        const { batch, single, matched } = await compareEvaluations(apiB, ns.key, flagKeys, cases, depth.singleEntities);
        const rules = doc.flags.reduce((n: number, f: any) => n + f.rules.length, 0);
        const rollouts = doc.flags.reduce((n: number, f: any) => n + f.rollouts.length, 0);
        summary.push(`${ns.key}: ${flagKeys.length} flags, ${rules} rules, ${rollouts} rollouts; ${batch} batch + ${single} single answers equal, ${matched} of the batch ones matched`);
      }
      return summary.join('\n  ');
    } finally {
      await b.close();
    }
  }

  /**
   * Where the dialect packs a page of flags into one JSON text (SQLite, PostgreSQL: storage/flag-tree.ts), A and B both read
   * that way; here the packed flags must equal those read row by row (the other dialects' way), field by field.
   */
  async function comparePackedWithRows(): Promise<void> {
    await a.app.get(Database).read(async (em) => {
      const knex = (em as SqlEntityManager).getKnex();
      expect(dialectOfKnex(knex)?.packedFlags !== undefined).toBe(PACKING_DIALECTS.includes(TEST_DIALECT));
      for (const ns of models) {
        const [packed, rows] = [await loadFlags(knex, ns.key), await loadFlags(knex, ns.key, undefined, { rows: true })];
        expect(packed.length).toBeGreaterThan(0);
        const diff = firstDifference(rows, packed);
        if (diff) fail(`flags of ${ns.key} read packed vs row by row, first difference at\n  ${diff}`);
      }
    });
  }

  for (let c = 1; c <= CHECKPOINTS; c++) {
    const upTo = Math.round((WRITES * c) / CHECKPOINTS);
    it(`checkpoint ${c}/${CHECKPOINTS}: after ${upTo} random writes with evaluations between them, A agrees with a fresh load`, async () => {
      const started = Date.now();
      const writesBefore = written;
      let [quickChecks, quickMs] = [0, 0];
      while (written < upTo) {
        await writeOnce();
        if (QUICK_EVERY > 0 && written < upTo && rng.chance(1 / QUICK_EVERY)) {
          const t = Date.now();
          await compareWithFreshB(QUICK);
          [quickChecks, quickMs] = [quickChecks + 1, quickMs + Date.now() - t];
        }
      }
      const writesMs = Date.now() - started - quickMs;
      const t = Date.now();
      const summary = await compareWithFreshB(FULL);
      await comparePackedWithRows();
      console.log(
        `checkpoint ${c}/${CHECKPOINTS} (${TEST_DIALECT}, seed ${SEED}): ${written - writesBefore} writes with their evaluations in ${writesMs} ms; ` +
          `${quickChecks} quick checks in ${quickMs} ms; A agrees with a fresh B in ${Date.now() - t} ms\n  ${summary}`,
      );
    }, PHASE_TIMEOUT);
  }
});
