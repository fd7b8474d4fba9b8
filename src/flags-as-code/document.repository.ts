/**
 * Namespace documents to and from the database: free functions over the EntityManager of the caller's read or
 * write, as evaluation-source.ts's loaders are (no state to inject). Reading is a fixed handful of plain SQL reads
 * per namespace (no entity hydration: a namespace of 10,000 flags is tens of thousands of rows). Writing runs inside the caller's
 * transaction (Database.write, the namespace locked): it checks what the document needs of the database (keys
 * already taken, segments referenced but not in the document) before writing anything, then inserts in batches.
 * Rows of one import share one creation time and get time-ordered ids in document order, so that everything that
 * is listed or evaluated in creation order (variants, distributions, flags) keeps the document's order.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { InvalidError } from '../common/errors';
import { timeOrderedId } from '../common/time-ordered-id';
import { Flag } from '../flags/flag.entity';
import { FlagRepository } from '../flags/flag.repository';
import { Variant } from '../flags/variant.entity';
import { Namespace } from '../namespaces/namespace.entity';
import { RolloutSegment } from '../rollouts/rollout-segment.entity';
import { Rollout } from '../rollouts/rollout.entity';
import { Distribution } from '../rules/distribution.entity';
import { RuleSegment } from '../rules/rule-segment.entity';
import { Rule } from '../rules/rule.entity';
import { Constraint } from '../segments/constraint.entity';
import { Segment } from '../segments/segment.entity';
import { SegmentRepository } from '../segments/segment.repository';
import { now } from '../storage/columns';
import { versionOfRow } from '../storage/evaluation-source';
import { bool, groupBy, knexOf, num, read, readAll, str, type Row } from '../storage/rows';
import { RolloutType } from '../wire';
import type { DocumentFlag, DocumentRollout, DocumentRule, DocumentSegment, NamespaceDocument } from './document';
import {
  cancelOpenSchedules, documentSchedules, openSchedulesRead, writeDocumentSchedules, type ScheduleImport, type TargetPlace,
} from './document-schedules';

const byRow = (row: Row): Row => row;

/** Reads of a namespace written meanwhile are read again, at most this many times. */
const CONSISTENT_READ_ATTEMPTS = 5;

/**
 * The namespace as a document, in creation order (rules and rollouts in rank order); null when it does not exist.
 * Its tables are read side by side, each query at its own moment: when the namespace's version moved while they ran
 * (a write landed between them, and the document might hold a rule naming a segment it lacks), they are read again.
 */
export async function readNamespaceDocument(em: EntityManager, namespaceKey: string, options: ExportOptions = {}): Promise<NamespaceDocument | null> {
  const knex = knexOf(em);
  const version = async () => {
    const [row] = (await knex('namespaces').select('key', 'name', 'description', 'updated_at', 'state_modified_at').where('key', namespaceKey)) as Row[];
    return row;
  };
  for (let attempt = 1; ; attempt++) {
    const before = await version();
    if (!before) return null;
    const doc = await readOnce(knex, namespaceKey, before, options);
    const after = await version();
    if (!after) return null;
    if (versionOfRow(after) === versionOfRow(before) || attempt >= CONSISTENT_READ_ATTEMPTS) return doc;
  }
}

export interface ExportOptions {
  /** Also the namespace's open scheduled changes (`x-flagpole-schedules`, a Flagpole extension). */
  schedules?: boolean;
}

async function readOnce(knex: Knex, namespaceKey: string, ns: Row, options: ExportOptions): Promise<NamespaceDocument> {
  const flagIds = () => knex('flags').select('id').where('namespace_key', namespaceKey);
  const ruleIds = () => knex('rules').select('id').whereIn('flag_id', flagIds());
  const rolloutIds = () => knex('rollouts').select('id').whereIn('flag_id', flagIds());
  const creationOrder = [{ column: 'created_at' }, { column: 'id' }];
  const rankOrder = [{ column: 'rank' }, ...creationOrder];
  const [flags, variants, rules, ruleSegments, distributions, rollouts, rolloutSegments, segments, constraints, schedules] = await readAll(knex, [
    read(knex('flags').where('namespace_key', namespaceKey).orderBy(creationOrder),
      ['id', 'key', 'name', 'description', 'enabled', 'type', 'default_variant_id', 'metadata']),
    read(knex('variants').whereIn('flag_id', flagIds()).orderBy(creationOrder), ['id', 'flag_id', 'key', 'name', 'description', 'attachment']),
    read(knex('rules').whereIn('flag_id', flagIds()).orderBy(rankOrder), ['id', 'flag_id', 'rank', 'segment_operator']),
    read(knex('rule_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rule_id', ruleIds()).orderBy('rs.position'),
      ['rs.rule_id', 's.key']),
    read(knex('distributions as d').join('variants as v', 'v.id', 'd.variant_id').whereIn('d.rule_id', ruleIds())
      .orderBy([{ column: 'd.created_at' }, { column: 'd.id' }]), ['d.rule_id', 'v.key', 'd.rollout']),
    read(knex('rollouts').whereIn('flag_id', flagIds()).orderBy(rankOrder),
      ['id', 'flag_id', 'type', 'description', 'percentage', 'segment_operator', 'value']),
    read(knex('rollout_segments as rs').join('segments as s', 's.id', 'rs.segment_id').whereIn('rs.rollout_id', rolloutIds()).orderBy('rs.position'),
      ['rs.rollout_id', 's.key']),
    read(knex('segments').where('namespace_key', namespaceKey).orderBy(creationOrder), ['id', 'key', 'name', 'description', 'match_type']),
    read(knex('constraints').whereIn('segment_id', knex('segments').select('id').where('namespace_key', namespaceKey)).orderBy(creationOrder),
      ['segment_id', 'type', 'property', 'operator', 'value', 'description']),
    ...(options.schedules ? [openSchedulesRead(knex, namespaceKey)] : []),
  ]);

  const variantsOf = groupBy(variants, 'flag_id', byRow);
  const rulesOf = groupBy(rules, 'flag_id', byRow);
  const ruleSegmentsOf = groupBy(ruleSegments, 'rule_id', byRow);
  const distributionsOf = groupBy(distributions, 'rule_id', byRow);
  const rolloutsOf = groupBy(rollouts, 'flag_id', byRow);
  const rolloutSegmentsOf = groupBy(rolloutSegments, 'rollout_id', byRow);
  const constraintsOf = groupBy(constraints, 'segment_id', byRow);
  const keys = (rows: Row[] | undefined) => (rows ?? []).map((r) => str(r.key));

  const doc: NamespaceDocument = {
    namespace: { key: str(ns.key), name: str(ns.name), description: str(ns.description) },
    flags: flags.map((f): DocumentFlag => {
      const own = variantsOf.get(str(f.id)) ?? [];
      return {
        key: str(f.key),
        name: str(f.name),
        description: str(f.description),
        type: num(f.type),
        enabled: bool(f.enabled),
        metadata: f.metadata ? (JSON.parse(str(f.metadata)) as Record<string, unknown>) : null,
        variants: own.map((v) => ({ key: str(v.key), name: str(v.name), description: str(v.description), attachment: v.attachment ? str(v.attachment) : null })),
        defaultVariant: own.find((v) => str(v.id) === str(f.default_variant_id)) ? str(own.find((v) => str(v.id) === str(f.default_variant_id))!.key) : null,
        rules: (rulesOf.get(str(f.id)) ?? []).map((r): DocumentRule => ({
          segmentKeys: keys(ruleSegmentsOf.get(str(r.id))),
          segmentOperator: num(r.segment_operator),
          rank: num(r.rank),
          distributions: (distributionsOf.get(str(r.id)) ?? []).map((d) => ({ variant: str(d.key), rollout: num(d.rollout) })),
        })),
        rollouts: (rolloutsOf.get(str(f.id)) ?? []).map((r): DocumentRollout => (num(r.type) === RolloutType.THRESHOLD
          ? { description: str(r.description), threshold: { percentage: num(r.percentage ?? 0), value: bool(r.value) } }
          : {
            description: str(r.description),
            segment: { segmentKeys: keys(rolloutSegmentsOf.get(str(r.id))), segmentOperator: num(r.segment_operator), value: bool(r.value) },
          })),
      };
    }),
    segments: segments.map((s): DocumentSegment => ({
      key: str(s.key),
      name: str(s.name),
      description: str(s.description),
      matchType: num(s.match_type),
      constraints: (constraintsOf.get(str(s.id)) ?? []).map((c) => ({
        type: num(c.type), property: str(c.property), operator: str(c.operator), value: str(c.value), description: str(c.description),
      })),
    })),
  };
  if (schedules) {
    // Each rollout's and rule's place in its flag's lists, which hold them in the order read (rank order).
    const places = new Map<string, TargetPlace>();
    const flagKeys = new Map(flags.map((f) => [str(f.id), str(f.key)]));
    for (const grouped of [rulesOf, rolloutsOf]) {
      for (const [flagId, list] of grouped) list.forEach((r, index) => places.set(str(r.id), { flagKey: flagKeys.get(flagId) ?? '', index }));
    }
    doc.schedules = documentSchedules(schedules, doc.flags, places);
  }
  return doc;
}

/** How many flags and segments the database holds, in all namespaces. */
export async function flagStateCount(em: EntityManager): Promise<number> {
  const knex = knexOf(em);
  const [flags] = (await knex('flags').count({ n: '*' })) as Row[];
  const [segments] = (await knex('segments').count({ n: '*' })) as Row[];
  return num(flags.n) + num(segments.n);
}

/** The keys of all namespaces, in creation order. */
export async function namespaceKeys(em: EntityManager): Promise<string[]> {
  const rows = (await knexOf(em)('namespaces').select('key').orderBy([{ column: 'created_at' }, { column: 'key' }])) as Row[];
  return rows.map((r) => str(r.key));
}

export interface ImportOptions {
  /** Keep flags and segments whose keys the namespace already has (and skip the document's), as Flipt's `--skip-existing`. */
  skipExisting?: boolean;
  /** Delete the namespace's flags and segments first: the namespace becomes the document. */
  drop?: boolean;
  /** An existing namespace takes the document's name and description too (declarative storage mirroring files). */
  renameNamespace?: boolean;
  /** How the document's scheduled changes are created; a document with some is refused without it. */
  schedules?: ScheduleImport;
}

export interface ImportSummary {
  namespaceKey: string;
  namespaceCreated: boolean;
  flagsCreated: number;
  flagsSkipped: number;
  flagsDeleted: number;
  segmentsCreated: number;
  segmentsSkipped: number;
  segmentsDeleted: number;
  /** Only when the document had `x-flagpole-schedules`: schedules created, and skipped with their flag (skipExisting). */
  schedulesCreated?: number;
  schedulesSkipped?: number;
  /** Only when `drop` cancelled any: the namespace's open schedules, whose flags it deleted. */
  schedulesCancelled?: number;
}

/** Rows per INSERT: well inside every driver's limit on bound parameters (SQLite's 32,766 among them). */
const BATCH = 500;

/** The API's repositories of the two aggregates a namespace holds by key: an import decides uniqueness as they do. */
const FLAGS = new FlagRepository();
const SEGMENTS = new SegmentRepository();

/**
 * Writes `doc` into its namespace, inside the caller's transaction; `locked` is the namespace's row (null: it does
 * not exist and is created). Throws InvalidError naming the place in the document, before anything is written,
 * when a key is taken (without skipExisting or drop) or a rule or rollout names a segment that neither the document
 * nor the namespace has.
 */
export async function writeNamespaceDocument(
  em: EntityManager, doc: NamespaceDocument, locked: Namespace | null, options: ImportOptions,
): Promise<ImportSummary> {
  const knex = knexOf(em);
  const ns = doc.namespace.key;
  const t = now();
  const summary: ImportSummary = {
    namespaceKey: ns, namespaceCreated: locked === null, flagsCreated: 0, flagsSkipped: 0, flagsDeleted: 0, segmentsCreated: 0, segmentsSkipped: 0, segmentsDeleted: 0,
  };
  if (locked === null) {
    em.create(Namespace, { key: ns, name: doc.namespace.name, description: doc.namespace.description, protected: false, createdAt: t, updatedAt: t, stateModifiedAt: t });
    await em.flush();
  } else {
    if (options.renameNamespace) await em.nativeUpdate(Namespace, { key: ns }, { name: doc.namespace.name, description: doc.namespace.description, updatedAt: t });
    if (options.drop) {
      Object.assign(summary, await deleteNamespaceState(em, ns));
      const cancelled = await cancelOpenSchedules(em, knex, ns, t);
      if (cancelled > 0) summary.schedulesCancelled = cancelled;
    }
  }
  if (doc.schedules && !options.schedules) {
    throw new InvalidError(`${doc.at ? `${doc.at}: ` : ''}scheduled changes cannot be imported here`);
  }

  // Uniqueness as the API's creates decide it (storage/keyed-in-namespace.ts), for every key of the document at once.
  const takenFlags = await FLAGS.idsOf(em, ns, doc.flags.map((f) => f.key));
  const takenSegments = await SEGMENTS.idsOf(em, ns, doc.segments.map((s) => s.key));
  if (!options.skipExisting) {
    const flag = doc.flags.find((f) => takenFlags.has(f.key));
    if (flag) throw taken(flag.at, 'flag', ns, flag.key);
    const segment = doc.segments.find((s) => takenSegments.has(s.key));
    if (segment) throw taken(segment.at, 'segment', ns, segment.key);
  }
  const flags = doc.flags.filter((f) => !takenFlags.has(f.key));
  const segments = doc.segments.filter((s) => !takenSegments.has(s.key));
  summary.flagsSkipped = doc.flags.length - flags.length;
  summary.segmentsSkipped = doc.segments.length - segments.length;

  // Segment ids for references: the document's new segments, then those the namespace already has.
  const segmentIds = new Map<string, string>(segments.map((s) => [s.key, timeOrderedId(t.getTime())]));
  const referenced = new Set<string>();
  for (const f of flags) for (const r of [...f.rules, ...f.rollouts]) for (const k of segmentKeysOf(r)) if (!segmentIds.has(k)) referenced.add(k);
  for (const [key, id] of await SEGMENTS.idsOf(em, ns, [...referenced])) segmentIds.set(key, id);
  for (const f of flags) {
    for (const r of [...f.rules, ...f.rollouts]) {
      const missing = segmentKeysOf(r).find((k) => !segmentIds.has(k));
      if (missing !== undefined) {
        throw new InvalidError(`${r.at ?? `flag ${JSON.stringify(f.key)}`}: segment ${JSON.stringify(missing)} is neither in the document nor in namespace ${JSON.stringify(ns)}`);
      }
    }
  }

  const targetIds = new Map<DocumentRule | DocumentRollout, string>();
  const rows = buildRows(ns, flags, segments, segmentIds, t, targetIds);
  for (const [entity, list] of rows) {
    for (let i = 0; i < list.length; i += BATCH) await em.insertMany(entity, list.slice(i, i + BATCH));
  }
  summary.flagsCreated = flags.length;
  summary.segmentsCreated = segments.length;
  if (doc.schedules && options.schedules) {
    const written = await writeDocumentSchedules(em, knex, doc, new Set(flags.map((f) => f.key)), targetIds, options.schedules, t);
    summary.schedulesCreated = written.created;
    summary.schedulesSkipped = written.skipped;
  }
  return summary;
}

/** Deletes the namespace's flags and segments (flags first: their rules and rollouts hold references to segments). */
export async function deleteNamespaceState(em: EntityManager, ns: string): Promise<{ flagsDeleted: number; segmentsDeleted: number }> {
  const flagsDeleted = await em.nativeDelete(Flag, { namespace: ns });
  const segmentsDeleted = await em.nativeDelete(Segment, { namespace: ns });
  return { flagsDeleted, segmentsDeleted };
}

function segmentKeysOf(r: DocumentRule | DocumentRollout): string[] {
  return 'segmentKeys' in r ? r.segmentKeys : (r.segment?.segmentKeys ?? []);
}

function taken(at: string | undefined, noun: string, ns: string, key: string): InvalidError {
  return new InvalidError(`${at ? `${at}: ` : ''}${noun} "${ns}/${key}" already exists (import with skipExisting to keep it, or drop to replace the namespace's flags and segments)`);
}

type EntityRows = Array<[Function, Row[]]>;

/** Insert order follows the foreign keys. `targetIds` gets the id each rule and rollout is written under. */
function buildRows(
  ns: string, flags: DocumentFlag[], segments: DocumentSegment[], segmentIds: Map<string, string>, t: Date, targetIds: Map<DocumentRule | DocumentRollout, string>,
): EntityRows {
  const id = () => timeOrderedId(t.getTime());
  const times = { createdAt: t, updatedAt: t };
  const segmentRows: Row[] = [];
  const constraintRows: Row[] = [];
  for (const s of segments) {
    const segment = segmentIds.get(s.key)!;
    segmentRows.push({ id: segment, namespace: ns, key: s.key, name: s.name, description: s.description, matchType: s.matchType, ...times });
    for (const c of s.constraints) constraintRows.push({ id: id(), segment, ...c, ...times });
  }
  const flagRows: Row[] = [];
  const variantRows: Row[] = [];
  const ruleRows: Row[] = [];
  const ruleSegmentRows: Row[] = [];
  const distributionRows: Row[] = [];
  const rolloutRows: Row[] = [];
  const rolloutSegmentRows: Row[] = [];
  for (const f of flags) {
    const flag = id();
    const variantIds = new Map(f.variants.map((v) => [v.key, id()]));
    flagRows.push({
      id: flag, namespace: ns, key: f.key, name: f.name, description: f.description, enabled: f.enabled, type: f.type,
      defaultVariantId: f.defaultVariant === null ? null : variantIds.get(f.defaultVariant), metadata: f.metadata ? JSON.stringify(f.metadata) : null, ...times,
    });
    for (const v of f.variants) variantRows.push({ id: variantIds.get(v.key), flag, ...v, ...times });
    for (const r of f.rules) {
      const rule = id();
      targetIds.set(r, rule);
      ruleRows.push({ id: rule, flag, rank: r.rank, segmentOperator: r.segmentOperator, ...times });
      r.segmentKeys.forEach((k, position) => ruleSegmentRows.push({ rule, segment: segmentIds.get(k), position }));
      for (const d of r.distributions) distributionRows.push({ id: id(), rule, variant: variantIds.get(d.variant), rollout: d.rollout, ...times });
    }
    f.rollouts.forEach((r, i) => {
      const rollout = id();
      targetIds.set(r, rollout);
      const common = { id: rollout, flag, rank: i + 1, description: r.description, ...times };
      if (r.threshold) {
        rolloutRows.push({ ...common, type: RolloutType.THRESHOLD, percentage: r.threshold.percentage, value: r.threshold.value });
      } else {
        const s = r.segment!;
        rolloutRows.push({ ...common, type: RolloutType.SEGMENT, segmentOperator: s.segmentOperator, value: s.value });
        s.segmentKeys.forEach((k, position) => rolloutSegmentRows.push({ rollout, segment: segmentIds.get(k), position }));
      }
    });
  }
  return [
    [Segment, segmentRows], [Constraint, constraintRows], [Flag, flagRows], [Variant, variantRows], [Rule, ruleRows],
    [RuleSegment, ruleSegmentRows], [Distribution, distributionRows], [Rollout, rolloutRows], [RolloutSegment, rolloutSegmentRows],
  ];
}
