/**
 * Reads one namespace's evaluation state from storage into the core's plain NamespaceSource. It runs a fixed set
 * of plain SQL reads per namespace (never one per flag) and does not hydrate ORM entities: a namespace of 10,000
 * flags is about 60,000 rows, and entity hydration would cost seconds and hundreds of MiB.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager, Knex } from '@mikro-orm/knex';
import { formatTimestamp } from '../common/timestamps';
import { isValidKey } from '../common/validation';
import { toDate } from '../storage/columns';
import type { NamespaceSource, SourceFlag, SourceRollout, SourceRule, SourceSegment } from '../core';
import { RolloutType } from '../wire';

type Row = Record<string, unknown>;

/** Drivers return booleans as true/1/'1', numbers sometimes as text; these read them all. */
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** A namespace's version: its last write time (Database.write bumps state_modified_at). */
export function versionOfRow(ns: Row): string {
  return String(toDate(ns.state_modified_at ?? ns.updated_at).getTime());
}

/** The namespace's version, or null when it does not exist. */
export async function loadNamespaceVersion(em: EntityManager, namespaceKey: string): Promise<string | null> {
  const [ns] = (await (em as SqlEntityManager).getKnex()('namespaces').select('updated_at', 'state_modified_at').where('key', namespaceKey)) as Row[];
  return ns ? versionOfRow(ns) : null;
}

/** Null when the namespace does not exist. */
export async function loadNamespaceSource(em: EntityManager, namespaceKey: string): Promise<NamespaceSource | null> {
  // A key no namespace can have needs no query; and MySQL's PAD SPACE collation would match `"default   "` to
  // `default`, giving every such spelling a snapshot of its own.
  if (!isValidKey(namespaceKey)) return null;
  const version = await loadNamespaceVersion(em, namespaceKey);
  if (version === null) return null;
  const knex = (em as SqlEntityManager).getKnex();
  const [flags, segments] = await Promise.all([loadFlags(knex, namespaceKey), loadSegments(knex, namespaceKey)]);
  return { key: namespaceKey, version, flags, segments };
}

/**
 * The namespace's flags (only those named in `keys`, when given) with their variants, rules and rollouts, in order
 * (creation time, then key, compared as the core does: databases' collations order keys differently).
 * `knex` may be a transaction's, to read what the transaction wrote.
 */
export async function loadFlags(knex: Knex, namespaceKey: string, keys?: readonly string[]): Promise<SourceFlag[]> {
  if (keys?.length === 0) return [];
  const inNamespace = (q: Knex.QueryBuilder) => (keys ? q.where('namespace_key', namespaceKey).whereIn('key', keys) : q.where('namespace_key', namespaceKey));
  const inFlags = () => inNamespace(knex('flags').select('id'));
  const inRules = () => knex('rules').select('id').whereIn('flag_id', inFlags());
  const inRollouts = () => knex('rollouts').select('id').whereIn('flag_id', inFlags());
  const [flags, variants, rules, ruleSegments, distributions, rollouts, rolloutSegments] = (await Promise.all([
    inNamespace(knex('flags').select('id', 'key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'created_at', 'updated_at'))
      .orderBy([{ column: 'created_at' }, { column: 'key' }]),
    knex('variants').select('id', 'flag_id', 'key', 'attachment').whereIn('flag_id', inFlags()).orderBy([{ column: 'created_at' }, { column: 'id' }]),
    knex('rules').select('id', 'flag_id', 'rank', 'segment_operator').whereIn('flag_id', inFlags())
      .orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
    knex('rule_segments as rs').join('segments as s', 's.id', 'rs.segment_id').select('rs.rule_id', 's.key')
      .whereIn('rs.rule_id', inRules()).orderBy('rs.position'),
    knex('distributions').select('id', 'rule_id', 'variant_id', 'rollout').whereIn('rule_id', inRules())
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
    knex('rollouts').select('id', 'flag_id', 'type', 'rank', 'description', 'percentage', 'segment_operator', 'value')
      .whereIn('flag_id', inFlags()).orderBy([{ column: 'rank' }, { column: 'created_at' }, { column: 'id' }]),
    knex('rollout_segments as rs').join('segments as s', 's.id', 'rs.segment_id').select('rs.rollout_id', 's.key')
      .whereIn('rs.rollout_id', inRollouts()).orderBy('rs.position'),
  ])) as Row[][];

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
  const [segments, constraints] = (await Promise.all([
    inNamespace(knex('segments').select('id', 'key', 'name', 'description', 'match_type')).orderBy([{ column: 'created_at' }, { column: 'key' }]),
    knex('constraints').select('id', 'segment_id', 'type', 'property', 'operator', 'value').whereIn('segment_id', inNamespace(knex('segments').select('id')))
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
  ])) as Row[][];
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

function groupBy<T>(rows: Row[], key: string, map: (row: Row) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = str(row[key]);
    const list = out.get(k);
    if (list) list.push(map(row));
    else out.set(k, [map(row)]);
  }
  return out;
}
