/**
 * Reads one namespace's evaluation state from storage into the core's plain sources: whole (page by page of flags),
 * or the flags and segments a write names (its delta). It runs a fixed set of plain SQL reads per page (never one
 * per flag) and does not hydrate ORM entities: a namespace of 10,000 flags is about 60,000 rows, and entity
 * hydration would cost seconds and hundreds of MiB.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { formatTimestamp } from '../common/timestamps';
import { isValidKey } from '../common/validation';
import { toDate } from './columns';
import { bool, groupBy, num, read, readAll, str, type Row } from './rows';
import type { NamespaceSource, SourceFlag, SourceRollout, SourceRule, SourceSegment } from '../core';
import { FlagType, RolloutType } from '../wire';


/** A namespace's version: its last write time (Database.write bumps state_modified_at). */
export function versionOfRow(ns: Row): string {
  return String(toDate(ns.state_modified_at ?? ns.updated_at).getTime());
}

/** The namespace's version, or null when it does not exist. */
export async function loadNamespaceVersion(em: EntityManager, namespaceKey: string): Promise<string | null> {
  // A key no namespace can have needs no query; and MySQL's PAD SPACE collation would match `"default   "` to
  // `default`, giving every such spelling a snapshot of its own.
  if (!isValidKey(namespaceKey)) return null;
  const [ns] = (await (em as SqlEntityManager).getKnex()('namespaces').select('updated_at', 'state_modified_at').where('key', namespaceKey)) as Row[];
  return ns ? versionOfRow(ns) : null;
}

/** Null when the namespace does not exist. */
export async function loadNamespaceSource(em: EntityManager, namespaceKey: string): Promise<NamespaceSource | null> {
  const version = await loadNamespaceVersion(em, namespaceKey);
  if (version === null) return null;
  const knex = (em as SqlEntityManager).getKnex();
  const [flags, segments] = await Promise.all([loadFlags(knex, namespaceKey), loadSegments(knex, namespaceKey)]);
  return { key: namespaceKey, version, flags, segments };
}

/**
 * Flags per page of a full load: bounds each query's rows and the work between two turns of the event loop. Measured
 * on 10,000 flags (SQLite, 2 cores): 1,000 a page held the loop up to 22–27 ms at a time while a page's rows became
 * flags, 500 up to 15 ms, 250 up to 11 ms; the whole load took 440–600, 510–615 and 620–710 ms. Since then a page's
 * row work is split over turns (withChildren's `pause`): a 20-flag namespace's p99 during a 10,000-flag first load
 * fell from 11–12 ms to 8 ms, the load itself took 530–550 ms instead of 450–490 (docs/deployment.md).
 */
export const FLAGS_PER_PAGE = 500;

const FLAG_COLUMNS = ['id', 'key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'created_at', 'updated_at'];

/**
 * The namespace's flags (only those named in `keys`, when given) with their variants, rules and rollouts, in order
 * (creation time, then key, compared as the core does: databases' collations order keys differently).
 * `knex` may be a transaction's, to read what the transaction wrote.
 */
export async function loadFlags(knex: Knex, namespaceKey: string, keys?: readonly string[]): Promise<SourceFlag[]> {
  if (keys === undefined) {
    const all: SourceFlag[] = [];
    for await (const page of flagPages(knex, namespaceKey)) all.push(...page);
    return all;
  }
  if (keys.length === 0) return [];
  const [rows] = await readAll(knex, [read(knex('flags').where('namespace_key', namespaceKey).whereIn('key', keys), FLAG_COLUMNS)]);
  return withChildren(knex, rows);
}

/**
 * The namespace's flags, whole, `perPage` at a time in creation order (by id within one creation time, which no
 * collation reorders; each page is put in the core's order, and one that does not follow on leaves the snapshot to
 * sort for its document). Each page is a fixed handful of queries of bounded size, so a namespace of 50,000 flags
 * never hands the event loop hundreds of thousands of rows at once, and writes get the database between pages.
 */
export async function* flagPages(knex: Knex, namespaceKey: string, perPage = FLAGS_PER_PAGE): AsyncGenerator<SourceFlag[]> {
  interface PageReads {
    rows: Promise<Row[]>;
    children: Promise<ChildRows>;
  }
  const readPage = (after: Row | null): PageReads => {
    const query = knex('flags').where('namespace_key', namespaceKey).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(perPage);
    if (after) {
      const { created_at: createdAt, id } = after;
      query.andWhere((q) => q.where('created_at', '>', createdAt as Knex.Value).orWhere((q2) => q2.where('created_at', createdAt as Knex.Value).andWhere('id', '>', id as Knex.Value)));
    }
    const rows = readAll(knex, [read(query, FLAG_COLUMNS)]).then(([r]) => r);
    const children = rows.then((r) => readChildren(knex, r));
    // Awaited on a later turn; must not count as unhandled if the caller stops first.
    children.catch(() => undefined);
    return { rows, children };
  };
  let pending: PageReads | null = readPage(null);
  while (pending) {
    const rows: Row[] = await pending.rows;
    // The reads run a page ahead of the row work and the caller's compile: the next page's flags are asked for as
    // soon as this page's have come (they start after its last row), its children as soon as those have come. The
    // database's one connection (SQLite) is then never left waiting for the event loop to turn rows into flags.
    const next: PageReads | null = rows.length === perPage ? readPage(rows[rows.length - 1]) : null;
    const flags = await assembleFlags(rows, await pending.children, nextTurn);
    pending = next;
    // The caller's compile starts on a turn of its own, not after this page's row work.
    await nextTurn();
    if (flags.length > 0) yield flags;
  }
}

/**
 * The flags of these rows, with their variants and rules (variant flags) or rollouts (boolean flags): evaluation
 * reads nothing else of either kind, so a write's delta of one flag is three or five queries. A full load's page is
 * read (readChildren) and assembled (assembleFlags) in two steps, so that its reads run ahead (flagPages), and passes
 * `pause`, which gives the event loop back between the steps of turning its rows into flags (the grouping and the
 * mapping would otherwise run in one turn); a write's delta is small and does not.
 */
async function withChildren(knex: Knex, flags: Row[]): Promise<SourceFlag[]> {
  return assembleFlags(flags, await readChildren(knex, flags));
}

/** What readChildren reads for a page of flag rows: each kind's rows, empty where the page has no flag of that kind. */
interface ChildRows {
  variants: Row[];
  rules: Row[];
  ruleSegments: Row[];
  distributions: Row[];
  rollouts: Row[];
  rolloutSegments: Row[];
}

/** The reads of withChildren: the variants, rules and rollouts of these flag rows, and what those name. */
async function readChildren(knex: Knex, flags: Row[]): Promise<ChildRows> {
  const ids = (boolean: boolean) => flags.filter((f) => (num(f.type) === FlagType.BOOLEAN) === boolean).map((f) => str(f.id));
  const [variantIds, booleanIds] = [ids(false), ids(true)];
  const inRules = () => knex('rules').select('id').whereIn('flag_id', variantIds);
  const inRollouts = () => knex('rollouts').select('id').whereIn('flag_id', booleanIds);
  const ofVariantFlags = variantIds.length === 0 ? [] : [
    read(knex('variants').whereIn('flag_id', variantIds).orderBy([{ column: 'created_at' }, { column: 'id' }]), ['id', 'flag_id', 'key', 'attachment']),
    read(knex('rules').whereIn('flag_id', variantIds).orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
      ['id', 'flag_id', 'rank', 'segment_operator']),
    read(knex('rule_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rule_id', inRules()).orderBy('rs.position'),
      ['rs.rule_id', 's.key']),
    read(knex('distributions').whereIn('rule_id', inRules()).orderBy([{ column: 'created_at' }, { column: 'id' }]),
      ['id', 'rule_id', 'variant_id', 'rollout']),
  ];
  const ofBooleanFlags = booleanIds.length === 0 ? [] : [
    read(knex('rollouts').whereIn('flag_id', booleanIds).orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
      ['id', 'flag_id', 'type', 'rank', 'description', 'percentage', 'segment_operator', 'value']),
    read(knex('rollout_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rollout_id', inRollouts()).orderBy('rs.position'),
      ['rs.rollout_id', 's.key']),
  ];
  const results = await readAll(knex, [...ofVariantFlags, ...ofBooleanFlags]);
  const [variants, rules, ruleSegments, distributions] = ofVariantFlags.length === 0 ? [[], [], [], []] : results.slice(0, 4);
  const [rollouts, rolloutSegments] = ofBooleanFlags.length === 0 ? [[], []] : results.slice(ofVariantFlags.length);
  return { variants, rules, ruleSegments, distributions, rollouts, rolloutSegments };
}

/** withChildren's flags from the rows readChildren read; `pause` as withChildren's. */
async function assembleFlags(flags: Row[], children: ChildRows, pause?: () => Promise<unknown>): Promise<SourceFlag[]> {
  if (flags.length === 0) return [];
  await pause?.();
  const { variants, rules, ruleSegments, distributions, rollouts, rolloutSegments } = children;

  const segmentKeysOfRule = groupBy(ruleSegments, 'rule_id', (r) => str(r.key));
  const segmentKeysOfRollout = groupBy(rolloutSegments, 'rollout_id', (r) => str(r.key));
  const distributionsOfRule = groupBy(distributions, 'rule_id', (d) => ({ id: str(d.id), variantId: str(d.variant_id), rollout: num(d.rollout) }));
  const variantsOfFlag = groupBy(variants, 'flag_id', (v) => ({ id: str(v.id), key: str(v.key), attachment: str(v.attachment) }));
  const rulesOfFlag = groupBy(rules, 'flag_id', (r): SourceRule => ({
    id: str(r.id),
    rank: num(r.rank),
    segmentKeys: segmentKeysOfRule.get(str(r.id)) ?? [],
    segmentOperator: num(r.segment_operator),
    distributions: distributionsOfRule.get(str(r.id)) ?? [],
  }));
  const rolloutsOfFlag = groupBy(rollouts, 'flag_id', toSourceRollout(segmentKeysOfRollout));
  await pause?.();

  const ordered = flags.map((f) => ({ row: f, createdMs: toDate(f.created_at).getTime(), key: str(f.key) }));
  if (!inOrder(ordered)) ordered.sort(byCreationThenKey);
  return ordered.map(({ row: f, createdMs }): SourceFlag => ({
    key: str(f.key),
    name: str(f.name),
    description: str(f.description),
    enabled: bool(f.enabled),
    type: num(f.type),
    createdAt: formatTimestamp(new Date(createdMs)),
    updatedAt: formatTimestamp(toDate(f.updated_at)),
    defaultVariantId: f.default_variant_id ? str(f.default_variant_id) : null,
    variants: variantsOfFlag.get(str(f.id)) ?? [],
    rules: rulesOfFlag.get(str(f.id)) ?? [],
    rollouts: rolloutsOfFlag.get(str(f.id)) ?? [],
  }));
}

/** The namespace's segments (only those named in `keys`, when given) with their constraints, in created order. */
export async function loadSegments(knex: Knex, namespaceKey: string, keys?: readonly string[]): Promise<SourceSegment[]> {
  if (keys?.length === 0) return [];
  const inNamespace = (q: Knex.QueryBuilder) => (keys ? q.where('namespace_key', namespaceKey).whereIn('key', keys) : q.where('namespace_key', namespaceKey));
  const [segments, constraints] = await readAll(knex, [
    read(inNamespace(knex('segments')).orderBy([{ column: 'created_at' }, { column: 'key' }]), ['id', 'key', 'name', 'description', 'match_type']),
    read(knex('constraints').whereIn('segment_id', inNamespace(knex('segments').select('id'))).orderBy([{ column: 'created_at' }, { column: 'id' }]),
      ['id', 'segment_id', 'type', 'property', 'operator', 'value']),
  ]);
  const constraintsOfSegment = groupBy(constraints, 'segment_id', (c) => ({
    id: str(c.id), type: num(c.type), property: str(c.property), operator: str(c.operator), value: str(c.value),
  }));
  return segments.map((s): SourceSegment => ({
    key: str(s.key),
    name: str(s.name),
    description: str(s.description),
    matchType: num(s.match_type),
    constraints: constraintsOfSegment.get(str(s.id)) ?? [],
  }));
}

interface Ordered {
  createdMs: number;
  key: string;
}

function byCreationThenKey(a: Ordered, b: Ordered): number {
  return a.createdMs - b.createdMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function inOrder(items: readonly Ordered[]): boolean {
  for (let i = 1; i < items.length; i++) if (byCreationThenKey(items[i - 1], items[i]) > 0) return false;
  return true;
}

function toSourceRollout(segmentKeys: Map<string, string[]>) {
  return (r: Row): SourceRollout => {
    const base = { id: str(r.id), rank: num(r.rank), type: num(r.type), description: str(r.description) };
    if (num(r.type) === RolloutType.THRESHOLD) return { ...base, threshold: { percentage: num(r.percentage ?? 0), value: bool(r.value) } };
    return { ...base, segment: { segmentKeys: segmentKeys.get(str(r.id)) ?? [], segmentOperator: num(r.segment_operator), value: bool(r.value) } };
  };
}

