/**
 * The compiled form of one namespace that evaluations read. Everything that does not depend on the request is
 * settled here — rank order, segment resolution, constraint parsing, distribution bounds, the default variant — so
 * that an evaluation only hashes, compares and allocates its answer. Compiled flags and segments are immutable; the
 * snapshot holding them is brought forward by deltas (snapshot-delta.ts), which replace only what a write changed.
 */
import { FlagType } from '../wire';
import { distributionBounds } from './bucketing';
import { type CompiledSegment, compileSegment } from './constraints';
import type { NamespaceSource, SourceFlag, SourceRollout, SourceRule, SourceSegment, SourceVariant } from './source';

export interface CompiledVariant {
  readonly id: string;
  readonly key: string;
  readonly attachment: string;
}

export interface CompiledDistribution {
  readonly variantId: string;
  readonly variantKey: string;
  readonly variantAttachment: string;
  /** As stored (a percentage). */
  readonly rollout: number;
}

/**
 * A rule's or rollout's reference to a segment, by key, shared by every rule and rollout of the snapshot that names
 * it: a changed segment is put in `current` once and all of them see it. Null while no such segment exists (left
 * out, like Flipt's SQL join leaves out a missing row; foreign keys make it impossible in practice).
 */
export interface SegmentLink {
  readonly key: string;
  current: CompiledSegment | null;
}

export interface CompiledRule {
  readonly id: string;
  readonly rank: number;
  readonly segmentOperator: number;
  /** In the order the rule lists them; matched keys are reported in this order. */
  readonly segments: readonly SegmentLink[];
  /** Only distributions with rollout > 0, in created order: Flipt ignores the others. */
  readonly distributions: readonly CompiledDistribution[];
  /** Cumulative bucket bounds, parallel to `distributions`. */
  readonly bounds: readonly number[];
}

export interface CompiledThreshold {
  /** As stored, for the snapshot document. */
  readonly percentage: number;
  /** Rounded to float32: Flipt compares the bucket against a float32 percentage. */
  readonly percentage32: number;
  readonly value: boolean;
}

export interface CompiledSegmentRollout {
  readonly segmentOperator: number;
  readonly value: boolean;
  readonly segments: readonly SegmentLink[];
}

export interface CompiledRollout {
  readonly id: string;
  readonly rank: number;
  readonly type: number;
  readonly description: string;
  /** Exactly one of threshold / segment is set; Flipt checks the threshold first. */
  readonly threshold: CompiledThreshold | null;
  readonly segment: CompiledSegmentRollout | null;
}

export interface CompiledFlag {
  readonly key: string;
  /** Creation time (epoch ms) then key: the order of the snapshot's flags, as the database lists them. */
  readonly createdAtMs: number;
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly type: typeof FlagType.VARIANT | typeof FlagType.BOOLEAN;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly defaultVariant: CompiledVariant | null;
  /** Variant flags only, by rank. */
  readonly rules: readonly CompiledRule[];
  /** Boolean flags only, by rank. */
  readonly rollouts: readonly CompiledRollout[];
}

/** What evaluations and the snapshot document read. */
export interface Snapshot {
  /** Namespace key. */
  readonly key: string;
  /** The source version the snapshot reflects (opaque); it moves when a delta is applied. */
  readonly version: string;
  /** In created order (then key), as the snapshot document lists them — unless `unordered` (see orderedFlags). */
  readonly flags: ReadonlyMap<string, CompiledFlag>;
  readonly segments: ReadonlyMap<string, CompiledSegment>;
  /** A flag was added that sorts before others (created on a clock behind theirs): `flags` is not in order. */
  readonly unordered: boolean;
}

/** The snapshot as its owner (the cache) holds it: deltas change it in place (snapshot-delta.ts). */
export interface LiveSnapshot extends Snapshot {
  version: string;
  readonly flags: Map<string, CompiledFlag>;
  readonly segments: Map<string, CompiledSegment>;
  /** Segment key → the link every rule and rollout naming it holds. */
  readonly links: Map<string, SegmentLink>;
  /**
   * The last flag in order when it was added; a new flag that sorts after it keeps `flags` in order. It may since
   * have been deleted: it is only a bound.
   */
  newest: CompiledFlag | null;
  unordered: boolean;
}

/**
 * The snapshot's flags in created order (then key). A snapshot a delta left unordered is sorted here, into a copy:
 * only the document needs the order, and it is built once per version, so a write never pays for a sort.
 */
export function orderedFlags(s: Snapshot): Iterable<CompiledFlag> {
  return s.unordered ? [...s.flags.values()].sort(flagOrder) : s.flags.values();
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);
const NO_ROLLOUTS: readonly CompiledRollout[] = Object.freeze([]);

function byRank<T extends { rank: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.rank - b.rank); // Array.prototype.sort is stable
}

/** Finds (or makes) the link to the segment `key`. */
export type Linker = (key: string) => SegmentLink;

/** The linker of a snapshot: one link per segment key, pointing at the segment while it exists. */
export function linkerOf(snapshot: Pick<LiveSnapshot, 'links' | 'segments'>): Linker {
  return (key) => {
    let link = snapshot.links.get(key);
    if (!link) {
      link = { key, current: snapshot.segments.get(key) ?? null };
      snapshot.links.set(key, link);
    }
    return link;
  };
}

function compileRule(rule: SourceRule, variants: ReadonlyMap<string, SourceVariant>, link: Linker): CompiledRule {
  const distributions: CompiledDistribution[] = [];
  for (const d of rule.distributions) {
    const variant = variants.get(d.variantId);
    if (!variant || !(d.rollout > 0)) continue;
    distributions.push(
      Object.freeze({
        variantId: variant.id,
        variantKey: variant.key,
        variantAttachment: variant.attachment,
        rollout: d.rollout,
      }),
    );
  }
  return Object.freeze({
    id: rule.id,
    rank: rule.rank,
    segmentOperator: rule.segmentOperator,
    segments: Object.freeze(rule.segmentKeys.map(link)),
    distributions: Object.freeze(distributions),
    bounds: Object.freeze(distributionBounds(distributions.map((d) => d.rollout))),
  });
}

function compileRollout(rollout: SourceRollout, link: Linker): CompiledRollout {
  let threshold: CompiledThreshold | null = null;
  let segment: CompiledSegmentRollout | null = null;
  if (rollout.threshold) {
    threshold = Object.freeze({
      percentage: rollout.threshold.percentage,
      percentage32: Math.fround(rollout.threshold.percentage),
      value: rollout.threshold.value,
    });
  } else if (rollout.segment) {
    segment = Object.freeze({
      segmentOperator: rollout.segment.segmentOperator,
      value: rollout.segment.value,
      segments: Object.freeze(rollout.segment.segmentKeys.map(link)),
    });
  }
  return Object.freeze({
    id: rollout.id,
    rank: rollout.rank,
    type: rollout.type,
    description: rollout.description,
    threshold,
    segment,
  });
}

export function compileFlag(flag: SourceFlag, link: Linker): CompiledFlag {
  const isBoolean = flag.type === FlagType.BOOLEAN;
  let defaultVariant: CompiledVariant | null = null;
  let rules = NO_RULES;
  let rollouts = NO_ROLLOUTS;
  if (isBoolean) {
    rollouts = Object.freeze(byRank(flag.rollouts).map((r) => compileRollout(r, link)));
  } else {
    const variants = new Map(flag.variants.map((v) => [v.id, v]));
    // A dangling default variant id (impossible with foreign keys) is treated as no default variant.
    const dv = flag.defaultVariantId === null ? undefined : variants.get(flag.defaultVariantId);
    if (dv) defaultVariant = Object.freeze({ id: dv.id, key: dv.key, attachment: dv.attachment });
    rules = Object.freeze(byRank(flag.rules).map((r) => compileRule(r, variants, link)));
  }
  return Object.freeze({
    key: flag.key,
    createdAtMs: Date.parse(flag.createdAt),
    name: flag.name,
    description: flag.description,
    enabled: flag.enabled,
    type: isBoolean ? FlagType.BOOLEAN : FlagType.VARIANT,
    createdAt: flag.createdAt,
    updatedAt: flag.updatedAt,
    defaultVariant,
    rules,
    rollouts,
  });
}

/** Orders flags as the database lists them: creation time, then key. */
export function flagOrder(a: CompiledFlag, b: CompiledFlag): number {
  return a.createdAtMs - b.createdAtMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Gives the event loop back between slices of a long compile: the caller's `pause` (a setImmediate) runs whenever
 * `sliceMs` have passed since the last one. Without a pause the compile runs in one go.
 */
export interface CompilePacing {
  pause: () => Promise<void>;
  sliceMs: number;
  now: () => number;
}

/** Compiles one namespace's rows. Pure: the same source always yields an equivalent snapshot. */
export function compileSnapshot(src: NamespaceSource): LiveSnapshot {
  const snapshot = startSnapshot(src.key, src.version, src.segments);
  const link = linkerOf(snapshot);
  for (const f of src.flags) addCompiled(snapshot, compileFlag(f, link));
  return snapshot;
}

/** As compileSnapshot, in slices of at most about `pacing.sliceMs`, so that other work runs in between. */
export async function compileSnapshotPaced(src: NamespaceSource, pacing: CompilePacing): Promise<LiveSnapshot> {
  const snapshot = startSnapshot(src.key, src.version, src.segments);
  await addFlagsPaced(snapshot, src.flags, pacing);
  return snapshot;
}

/**
 * A snapshot with the namespace's segments and no flags yet: a load that reads the flags page by page adds them
 * with addFlagsPaced, in order.
 */
export function startSnapshot(key: string, version: string, segments: readonly SourceSegment[]): LiveSnapshot {
  const compiled = new Map<string, CompiledSegment>();
  for (const s of segments) compiled.set(s.key, compileSegment(s));
  return { key, version, flags: new Map(), segments: compiled, links: new Map(), newest: null, unordered: false };
}

/** Compiles and adds `flags`, giving the event loop back (pacing.pause) every `pacing.sliceMs` or so. */
export async function addFlagsPaced(snapshot: LiveSnapshot, flags: readonly SourceFlag[], pacing: CompilePacing): Promise<void> {
  const link = linkerOf(snapshot);
  let sliceStart = pacing.now();
  for (let i = 0; i < flags.length; i++) {
    addCompiled(snapshot, compileFlag(flags[i], link));
    if ((i & 63) === 63 && pacing.now() - sliceStart >= pacing.sliceMs) {
      await pacing.pause();
      sliceStart = pacing.now();
    }
  }
}

/** Flags come in order (the loader reads them so); one that does not leaves the snapshot unordered (orderedFlags). */
function addCompiled(snapshot: LiveSnapshot, flag: CompiledFlag): void {
  snapshot.flags.set(flag.key, flag);
  if (snapshot.newest !== null && flagOrder(snapshot.newest, flag) > 0) snapshot.unordered = true;
  else snapshot.newest = flag;
}
