/**
 * The compiled, immutable form of one namespace that evaluations read. Everything that does not depend on the
 * request is settled here once per namespace version — rank order, segment resolution, constraint parsing,
 * distribution bounds, the default variant — so that an evaluation only hashes, compares and allocates its answer.
 */
import { FlagType } from '../wire';
import { distributionBounds } from './bucketing';
import { type CompiledSegment, compileSegment } from './constraints';
import type { NamespaceSource, SourceFlag, SourceRollout, SourceRule, SourceVariant } from './source';

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

export interface CompiledRule {
  readonly id: string;
  readonly rank: number;
  readonly segmentOperator: number;
  /** In the order the rule lists them; matched keys are reported in this order. */
  readonly segments: readonly CompiledSegment[];
  readonly hasUnknownConstraintType: boolean;
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
  readonly segments: readonly CompiledSegment[];
  readonly hasUnknownConstraintType: boolean;
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

export interface Snapshot {
  /** Namespace key. */
  readonly key: string;
  /** The source version this snapshot was compiled from (opaque). */
  readonly version: string;
  readonly flags: ReadonlyMap<string, CompiledFlag>;
  /** The same flags in created order, as the snapshot document lists them. */
  readonly flagsInOrder: readonly CompiledFlag[];
  readonly segments: ReadonlyMap<string, CompiledSegment>;
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);
const NO_ROLLOUTS: readonly CompiledRollout[] = Object.freeze([]);

function byRank<T extends { rank: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.rank - b.rank); // Array.prototype.sort is stable
}

/**
 * Segment references resolve like Flipt's SQL join: a key without a segment is left out rather than failing the
 * whole namespace (it cannot happen with foreign keys in place).
 */
function resolveSegments(keys: readonly string[], segments: ReadonlyMap<string, CompiledSegment>): CompiledSegment[] {
  const resolved: CompiledSegment[] = [];
  for (const key of keys) {
    const segment = segments.get(key);
    if (segment) resolved.push(segment);
  }
  return resolved;
}

function compileRule(
  rule: SourceRule,
  variants: ReadonlyMap<string, SourceVariant>,
  segments: ReadonlyMap<string, CompiledSegment>,
): CompiledRule {
  const ruleSegments = resolveSegments(rule.segmentKeys, segments);
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
    segments: Object.freeze(ruleSegments),
    hasUnknownConstraintType: ruleSegments.some((s) => s.hasUnknownType),
    distributions: Object.freeze(distributions),
    bounds: Object.freeze(distributionBounds(distributions.map((d) => d.rollout))),
  });
}

function compileRollout(rollout: SourceRollout, segments: ReadonlyMap<string, CompiledSegment>): CompiledRollout {
  let threshold: CompiledThreshold | null = null;
  let segment: CompiledSegmentRollout | null = null;
  if (rollout.threshold) {
    threshold = Object.freeze({
      percentage: rollout.threshold.percentage,
      percentage32: Math.fround(rollout.threshold.percentage),
      value: rollout.threshold.value,
    });
  } else if (rollout.segment) {
    const rolloutSegments = resolveSegments(rollout.segment.segmentKeys, segments);
    segment = Object.freeze({
      segmentOperator: rollout.segment.segmentOperator,
      value: rollout.segment.value,
      segments: Object.freeze(rolloutSegments),
      hasUnknownConstraintType: rolloutSegments.some((s) => s.hasUnknownType),
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

function compileFlag(flag: SourceFlag, segments: ReadonlyMap<string, CompiledSegment>): CompiledFlag {
  const isBoolean = flag.type === FlagType.BOOLEAN;
  let defaultVariant: CompiledVariant | null = null;
  let rules = NO_RULES;
  let rollouts = NO_ROLLOUTS;
  if (isBoolean) {
    rollouts = Object.freeze(byRank(flag.rollouts).map((r) => compileRollout(r, segments)));
  } else {
    const variants = new Map(flag.variants.map((v) => [v.id, v]));
    // A dangling default variant id (impossible with foreign keys) is treated as no default variant.
    const dv = flag.defaultVariantId === null ? undefined : variants.get(flag.defaultVariantId);
    if (dv) defaultVariant = Object.freeze({ id: dv.id, key: dv.key, attachment: dv.attachment });
    rules = Object.freeze(byRank(flag.rules).map((r) => compileRule(r, variants, segments)));
  }
  return Object.freeze({
    key: flag.key,
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

/** Compiles one namespace's rows. Pure: the same source always yields an equivalent snapshot. */
export function compileSnapshot(src: NamespaceSource): Snapshot {
  const segments = new Map<string, CompiledSegment>();
  for (const s of src.segments) segments.set(s.key, compileSegment(s));

  const flags = new Map<string, CompiledFlag>();
  const flagsInOrder: CompiledFlag[] = [];
  for (const f of src.flags) {
    const compiled = compileFlag(f, segments);
    flags.set(compiled.key, compiled);
    flagsInOrder.push(compiled);
  }
  return Object.freeze({
    key: src.key,
    version: src.version,
    flags,
    flagsInOrder: Object.freeze(flagsInOrder),
    segments,
  });
}
