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
import { bool, dialectOfKnex, groupBy, num, read, readAll, str, type Row } from './rows';
import { DISTRIBUTION_COLUMNS, FLAG_COLUMNS, ROLLOUT_COLUMNS, RULE_COLUMNS, VARIANT_COLUMNS, type FlagTree } from './flag-tree';
import type { NamespaceSource, SourceDistribution, SourceFlag, SourceRollout, SourceRule, SourceSegment, SourceVariant } from '../core';
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
 * row work is split over turns (FlagRead's `pause`): a 20-flag namespace's p99 during a 10,000-flag first load
 * fell from 11–12 ms to 8 ms, the load itself took 530–550 ms instead of 450–490 (docs/deployment.md). A packed page
 * (SQLite, PostgreSQL) is one JSON.parse of about 220 KB, then TREES_PER_TURN flags at a time.
 */
export const FLAGS_PER_PAGE = 500;

/**
 * The namespace's flags (only those named in `keys`, when given) with their variants, rules and rollouts, in order
 * (creation time, then key, compared as the core does: databases' collations order keys differently).
 * `knex` may be a transaction's, to read what the transaction wrote.
 */
export async function loadFlags(knex: Knex, namespaceKey: string, keys?: readonly string[], how: ReadHow = {}): Promise<SourceFlag[]> {
  if (keys === undefined) {
    const all: SourceFlag[] = [];
    for await (const page of flagPages(knex, namespaceKey, FLAGS_PER_PAGE, how)) all.push(...page);
    return all;
  }
  if (keys.length === 0) return [];
  const page = await readFlags(knex, knex('flags').where('namespace_key', namespaceKey).whereIn('key', keys), how);
  return page.flags();
}

export interface ReadHow {
  /** Read flag rows and their children's rows even where the dialect packs flags (packedFlags): tests compare the two. */
  rows?: boolean;
}

/** One read of flags: how many, the last in the database's order (the next page starts after it), and the flags. */
interface FlagRead {
  count: number;
  last: Row | undefined;
  /** The flags with their children, in the core's order; `pause` gives the event loop back between steps. */
  flags(pause?: () => Promise<unknown>): Promise<SourceFlag[]>;
}

/**
 * The flags `query` (on `flags`) selects. Where the dialect builds nested JSON (packedFlags) that is one query
 * whose text JSON.parse reads; elsewhere the flag rows, then their children (readChildren), grouped here.
 */
async function readFlags(knex: Knex, query: Knex.QueryBuilder, how: ReadHow): Promise<FlagRead> {
  const dialect = dialectOfKnex(knex);
  const packed = how.rows ? undefined : dialect?.packedFlags;
  if (packed) {
    // knex's own placeholders: knex.raw turns them into the driver's.
    const { sql, bindings } = query.clone().select([...FLAG_COLUMNS]).toSQL();
    try {
      const trees = JSON.parse(packed.text(await knex.raw(packed.select(sql), bindings as Knex.RawBinding[]))) as FlagTree[];
      const header = trees[trees.length - 1]?.[0];
      const last = header && { id: header[FLAG_COLUMNS.indexOf('id')], created_at: header[FLAG_COLUMNS.indexOf('created_at')] };
      return { count: trees.length, last, flags: (pause) => flagsOfTrees(trees, pause) };
    } catch (error) {
      // A page too large for one text (huge attachments) is read the other way.
      if (!dialect?.packedRows?.tooLarge(error)) throw error;
    }
  }
  const [rows] = await readAll(knex, [read(query, FLAG_COLUMNS)]);
  const children = readChildren(knex, rows);
  // Awaited on a later turn (or never, if the caller stops first): must not count as unhandled meanwhile.
  children.catch(() => undefined);
  return { count: rows.length, last: rows[rows.length - 1], flags: async (pause) => assembleFlags(rows, await children, pause) };
}

/**
 * The namespace's flags, whole, `perPage` at a time in creation order (by id within one creation time, which no
 * collation reorders; each page is put in the core's order, and one that does not follow on leaves the snapshot to
 * sort for its document). Each page is one query (packedFlags) or a fixed handful of bounded size, so a namespace of
 * 50,000 flags never hands the event loop hundreds of thousands of rows at once, and writes get the database between
 * pages.
 */
export async function* flagPages(knex: Knex, namespaceKey: string, perPage = FLAGS_PER_PAGE, how: ReadHow = {}): AsyncGenerator<SourceFlag[]> {
  const readPage = (after: Row | undefined): Promise<FlagRead> => {
    const query = knex('flags').where('namespace_key', namespaceKey).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(perPage);
    if (after) {
      const createdAt = after.created_at as Knex.Value;
      // After (created_at, id). The leading `>=` is the index range: with only the OR, SQLite scans the namespace's
      // index from its start on every page (measured: a page near the end of 50,000 flags 10 ms, not 0.6).
      query.andWhere('created_at', '>=', createdAt).andWhere((q) => q.where('created_at', '>', createdAt).orWhere('id', '>', after.id as Knex.Value));
    }
    const page = readFlags(knex, query, how);
    page.catch(() => undefined);
    return page;
  };
  let page: FlagRead | null = await readPage(undefined);
  while (page) {
    // The reads run a page ahead of the row work and the caller's compile: the next page is asked for as soon as
    // this one has come. The database's one connection (SQLite) is then never left waiting for the event loop.
    const next: Promise<FlagRead> | null = page.count === perPage ? readPage(page.last) : null;
    const flags = await page.flags(nextTurn);
    // The caller's compile starts on a turn of its own, not after this page's row work.
    await nextTurn();
    if (flags.length > 0) yield flags;
    page = next && (await next);
  }
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

/** The reads of the row path: the variants, rules and rollouts of these flag rows, and what those name. */
async function readChildren(knex: Knex, flags: Row[]): Promise<ChildRows> {
  const ids = (boolean: boolean) => flags.filter((f) => (num(f.type) === FlagType.BOOLEAN) === boolean).map((f) => str(f.id));
  const [variantIds, booleanIds] = [ids(false), ids(true)];
  const inRules = () => knex('rules').select('id').whereIn('flag_id', variantIds);
  const inRollouts = () => knex('rollouts').select('id').whereIn('flag_id', booleanIds);
  const ofVariantFlags = variantIds.length === 0 ? [] : [
    read(knex('variants').whereIn('flag_id', variantIds).orderBy([{ column: 'created_at' }, { column: 'id' }]), ['id', 'flag_id', ...VARIANT_COLUMNS.slice(1)]),
    read(knex('rules').whereIn('flag_id', variantIds).orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
      ['flag_id', ...RULE_COLUMNS]),
    read(knex('rule_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rule_id', inRules()).orderBy('rs.position'),
      ['rs.rule_id', 's.key']),
    read(knex('distributions').whereIn('rule_id', inRules()).orderBy([{ column: 'created_at' }, { column: 'id' }]),
      ['id', 'rule_id', ...DISTRIBUTION_COLUMNS.slice(1)]),
  ];
  const ofBooleanFlags = booleanIds.length === 0 ? [] : [
    read(knex('rollouts').whereIn('flag_id', booleanIds).orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
      ['flag_id', ...ROLLOUT_COLUMNS]),
    read(knex('rollout_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rollout_id', inRollouts()).orderBy('rs.position'),
      ['rs.rollout_id', 's.key']),
  ];
  const results = await readAll(knex, [...ofVariantFlags, ...ofBooleanFlags]);
  const [variants, rules, ruleSegments, distributions] = ofVariantFlags.length === 0 ? [[], [], [], []] : results.slice(0, 4);
  const [rollouts, rolloutSegments] = ofBooleanFlags.length === 0 ? [[], []] : results.slice(ofVariantFlags.length);
  return { variants, rules, ruleSegments, distributions, rollouts, rolloutSegments };
}

/** The flags of these rows from the rows readChildren read; `pause` as FlagRead's. */
async function assembleFlags(flags: Row[], children: ChildRows, pause?: () => Promise<unknown>): Promise<SourceFlag[]> {
  if (flags.length === 0) return [];
  await pause?.();
  const { variants, rules, ruleSegments, distributions, rollouts, rolloutSegments } = children;

  const segmentKeysOfRule = groupBy(ruleSegments, 'rule_id', (r) => str(r.key));
  const segmentKeysOfRollout = groupBy(rolloutSegments, 'rollout_id', (r) => str(r.key));
  const distributionsOfRule = groupBy(distributions, 'rule_id', toSourceDistribution);
  const variantsOfFlag = groupBy(variants, 'flag_id', toSourceVariant);
  const rulesOfFlag = groupBy(rules, 'flag_id', (r) => toSourceRule(r, segmentKeysOfRule.get(str(r.id)) ?? [], distributionsOfRule.get(str(r.id)) ?? []));
  const rolloutsOfFlag = groupBy(rollouts, 'flag_id', (r) => toSourceRollout(r, segmentKeysOfRollout.get(str(r.id)) ?? []));
  await pause?.();
  return inCoreOrder(flags.map((row) => {
    const id = str(row.id);
    return { row, variants: variantsOfFlag.get(id) ?? [], rules: rulesOfFlag.get(id) ?? [], rollouts: rolloutsOfFlag.get(id) ?? [] };
  }));
}

/** Trees mapped between two of `pause`'s turns: a page's 500 took about 6 ms in one turn on a slow 2-core VM. */
const TREES_PER_TURN = 125;

/** The flags of packedFlags' trees; `pause` as FlagRead's. */
async function flagsOfTrees(trees: FlagTree[], pause?: () => Promise<unknown>): Promise<SourceFlag[]> {
  const parts: FlagParts[] = [];
  for (let i = 0; i < trees.length; i += TREES_PER_TURN) {
    await pause?.();
    for (const [flag, variants, rules, rollouts] of trees.slice(i, i + TREES_PER_TURN)) {
      parts.push({
        row: rowOf(FLAG_COLUMNS, flag),
        variants: variants.map((v) => toSourceVariant(rowOf(VARIANT_COLUMNS, v))),
        rules: rules.map(([rule, segmentKeys, distributions]) =>
          toSourceRule(rowOf(RULE_COLUMNS, rule), segmentKeys.map(str), distributions.map((d) => toSourceDistribution(rowOf(DISTRIBUTION_COLUMNS, d))))),
        rollouts: rollouts.map(([rollout, segmentKeys]) => toSourceRollout(rowOf(ROLLOUT_COLUMNS, rollout), segmentKeys.map(str))),
      });
    }
  }
  return inCoreOrder(parts);
}

function rowOf(columns: readonly string[], values: readonly unknown[]): Row {
  const row: Row = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
  return row;
}

/** A flag's row (FLAG_COLUMNS) and its children, read either way. */
interface FlagParts {
  row: Row;
  variants: SourceVariant[];
  rules: SourceRule[];
  rollouts: SourceRollout[];
}

/** The flags in the core's order: creation time, then key (the database's order, unless its collation differs). */
function inCoreOrder(parts: FlagParts[]): SourceFlag[] {
  const ordered = parts.map((p) => ({ ...p, createdMs: toDate(p.row.created_at).getTime(), key: str(p.row.key) }));
  if (!inOrder(ordered)) ordered.sort(byCreationThenKey);
  return ordered.map(({ row: f, createdMs, variants, rules, rollouts }): SourceFlag => ({
    key: str(f.key),
    name: str(f.name),
    description: str(f.description),
    enabled: bool(f.enabled),
    type: num(f.type),
    createdAt: formatTimestamp(new Date(createdMs)),
    updatedAt: formatTimestamp(toDate(f.updated_at)),
    defaultVariantId: f.default_variant_id ? str(f.default_variant_id) : null,
    variants,
    rules,
    rollouts,
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

function toSourceRollout(r: Row, segmentKeys: string[]): SourceRollout {
  const base = { id: str(r.id), rank: num(r.rank), type: num(r.type), description: str(r.description) };
  if (num(r.type) === RolloutType.THRESHOLD) return { ...base, threshold: { percentage: num(r.percentage ?? 0), value: bool(r.value) } };
  return { ...base, segment: { segmentKeys, segmentOperator: num(r.segment_operator), value: bool(r.value) } };
}

function toSourceRule(r: Row, segmentKeys: string[], distributions: SourceDistribution[]): SourceRule {
  return { id: str(r.id), rank: num(r.rank), segmentKeys, segmentOperator: num(r.segment_operator), distributions };
}

const toSourceVariant = (v: Row): SourceVariant => ({ id: str(v.id), key: str(v.key), attachment: str(v.attachment) });
const toSourceDistribution = (d: Row): SourceDistribution => ({ id: str(d.id), variantId: str(d.variant_id), rollout: num(d.rollout) });
