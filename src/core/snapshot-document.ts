/**
 * The body of `GET /internal/v1/evaluation/snapshot/namespace/{key}`: the namespace in the shape Flipt's
 * client-side engines (@flipt-io/flipt-client-js and friends) deserialise and evaluate locally. Field names, field
 * order and enum spellings follow Flipt v1's protojson output (facts §12.1, clients.md A3).
 *
 * Deliberate differences from Flipt v1.61.1, each so that client-side evaluation agrees with server-side evaluation:
 * - Each rule is emitted once with all its segments (decisions.md item 1); Flipt repeats a rule with N segments N
 *   times, together with N copies of its distributions, which moves the clients' bucket boundaries.
 * - Only distributions with rollout > 0 are emitted — exactly those the server buckets over. A 0% distribution never
 *   wins on the server. @flipt-io/flipt-client-js 0.5.1 skips them too (checked: a rule whose distributions are all
 *   0% answers like one without distributions, a match on both sides), so for it nothing changes; leaving them out
 *   protects any engine that does not skip them, where normalising shares by their sum (as 0.5.1 does, clients.md
 *   A3.7) would divide by zero. Stored rollout values are emitted unchanged, so clients still disagree with the
 *   server when a rule's rollouts add up to less than 100%: the server leaves the remaining buckets unmatched, the
 *   engine stretches the shares over them.
 * - Operators are emitted lower-cased, the form Flagpole matches on and the engines compare against.
 * - Segments carry their real name and description (Flipt leaves both empty) and constraints always carry their id.
 */
import {
  ComparisonType,
  CONSTRAINT_COMPARISON_TYPE_NAMES,
  FLAG_TYPE_NAMES,
  FlagType,
  MatchType,
  ROLLOUT_TYPE_NAMES,
  RolloutType,
  SEGMENT_MATCH_TYPE_NAMES,
  SEGMENT_OPERATOR_NAMES,
  SegmentOperator,
} from '../wire';
import type { CompiledSegment } from './constraints';
import { goTrimSpace } from './go-parsing';
import { type CompiledFlag, type CompiledRollout, type CompiledRule, orderedFlags, type SegmentLink, type Snapshot } from './snapshot';

export interface SnapshotConstraintDocument {
  id: string;
  type: string;
  property: string;
  operator: string;
  value: string;
}

export interface SnapshotSegmentDocument {
  key: string;
  name: string;
  description: string;
  matchType: string;
  constraints: SnapshotConstraintDocument[];
}

export interface SnapshotDistributionDocument {
  id: string;
  ruleId: string;
  variantId: string;
  variantKey: string;
  variantAttachment: string;
  rollout: number;
}

export interface SnapshotRuleDocument {
  id: string;
  segments: SnapshotSegmentDocument[];
  rank: number;
  segmentOperator: string;
  distributions: SnapshotDistributionDocument[];
}

export interface SnapshotRolloutDocument {
  type: string;
  rank: number;
  segment?: { value: boolean; segmentOperator: string; segments: SnapshotSegmentDocument[] };
  threshold?: { percentage: number; value: boolean };
}

export interface SnapshotFlagDocument {
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  type: string;
  createdAt: string;
  updatedAt: string;
  rules: SnapshotRuleDocument[];
  rollouts: SnapshotRolloutDocument[];
  defaultVariant?: { id: string; key: string; attachment: string };
}

export interface SnapshotDocument {
  namespace: { key: string };
  flags: SnapshotFlagDocument[];
}

/** A client that sends no `X-Flipt-Accept-Server-Version` predates the header, which arrived after 1.37.1. */
export const DEFAULT_ACCEPT_SERVER_VERSION = '1.37.1';

/** [major, minor, patch, isPrerelease] */
export type Version = readonly [number, number, number, boolean];

const ENTITY_ID_MIN_VERSION: Version = [1, 38, 0, false];
const DEFAULT_VARIANT_MIN_VERSION: Version = [1, 47, 0, false];
const FALLBACK_VERSION: Version = [1, 37, 1, false];

const UNKNOWN_CONSTRAINT_TYPE = CONSTRAINT_COMPARISON_TYPE_NAMES[ComparisonType.UNKNOWN];

const NUMERIC = /^[0-9]+$/;
const ALPHANUMERIC = /^[0-9A-Za-z-]+$/;

function parseNumericPart(part: string): number | null {
  if (!NUMERIC.test(part) || (part.length > 1 && part.startsWith('0'))) return null;
  return Number(part);
}

/** Strict semver 2.0 (what blang/semver's Parse accepts). */
function parseStrictSemver(s: string): Version | null {
  const parts = s.split('.');
  if (parts.length < 3) return null;
  const major = parseNumericPart(parts[0]);
  const minor = parseNumericPart(parts[1]);
  let rest = parts.slice(2).join('.');
  if (major === null || minor === null) return null;

  const plus = rest.indexOf('+');
  if (plus >= 0) {
    if (!rest.slice(plus + 1).split('.').every((id) => ALPHANUMERIC.test(id))) return null;
    rest = rest.slice(0, plus);
  }
  let prerelease = false;
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    const ids = rest.slice(dash + 1).split('.');
    const valid = ids.every((id) => ALPHANUMERIC.test(id) && !(NUMERIC.test(id) && id.length > 1 && id.startsWith('0')));
    if (!valid) return null;
    prerelease = true;
    rest = rest.slice(0, dash);
  }
  const patch = parseNumericPart(rest);
  return patch === null ? null : [major, minor, patch, prerelease];
}

/**
 * blang/semver's ParseTolerant, which Flipt applies to `X-Flipt-Accept-Server-Version`: trims spaces, drops a
 * leading `v` and leading zeros, and completes `1.47` to `1.47.0`. Anything unparsable counts as 1.37.1.
 */
export function parseAcceptServerVersion(header: string | undefined): Version {
  if (header === undefined || header === '') return FALLBACK_VERSION;
  let s = goTrimSpace(header);
  if (s.startsWith('v')) s = s.slice(1);
  const first = s.indexOf('.');
  const second = first < 0 ? -1 : s.indexOf('.', first + 1);
  const parts = first < 0 ? [s] : second < 0 ? [s.slice(0, first), s.slice(first + 1)] : [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].length > 1) {
      let p = parts[i].replace(/^0+/, '');
      if (p === '' || !(p.charCodeAt(0) >= 0x30 && p.charCodeAt(0) <= 0x39)) p = '0' + p;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) return FALLBACK_VERSION;
    while (parts.length < 3) parts.push('0');
  }
  return parseStrictSemver(parts.join('.')) ?? FALLBACK_VERSION;
}

function isBefore(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) {
    if (v[i] !== min[i]) return (v[i] as number) < (min[i] as number);
  }
  // 1.47.0-rc.1 precedes 1.47.0
  return v[3] && !min[3];
}

/**
 * Which of the distinct documents a client sending `acceptServerVersion` gets: 0 before 1.38.0 (and for an absent
 * or unparsable header), 1 from 1.38.0 (ENTITY_ID constraints), 2 from 1.47.0 (default variants too).
 */
export function documentVariant(acceptServerVersion: string | undefined): 0 | 1 | 2 {
  const version = parseAcceptServerVersion(acceptServerVersion);
  if (!isBefore(version, DEFAULT_VARIANT_MIN_VERSION)) return 2;
  return isBefore(version, ENTITY_ID_MIN_VERSION) ? 0 : 1;
}

interface DocumentOptions {
  entityIdConstraints: boolean;
  defaultVariants: boolean;
}

class DocumentBuilder {
  /** Segments shared by several rules/rollouts are built once, as Flipt does (and kept while the segment lives). */
  private readonly segments = new WeakMap<CompiledSegment, SnapshotSegmentDocument>();

  constructor(private readonly options: DocumentOptions) {}

  flag(flag: CompiledFlag): SnapshotFlagDocument {
    const doc: SnapshotFlagDocument = {
      key: flag.key,
      name: flag.name,
      description: flag.description,
      enabled: flag.enabled,
      type: FLAG_TYPE_NAMES[flag.type === FlagType.BOOLEAN ? FlagType.BOOLEAN : FlagType.VARIANT],
      createdAt: flag.createdAt,
      updatedAt: flag.updatedAt,
      rules: flag.rules.map((r) => this.rule(r)),
      rollouts: flag.rollouts.map((r) => this.rollout(r)),
    };
    if (flag.defaultVariant && this.options.defaultVariants) {
      const { id, key, attachment } = flag.defaultVariant;
      doc.defaultVariant = { id, key, attachment };
    }
    return doc;
  }

  private rule(rule: CompiledRule): SnapshotRuleDocument {
    return {
      id: rule.id,
      segments: this.linked(rule.segments),
      rank: rule.rank,
      segmentOperator: segmentOperatorName(rule.segmentOperator),
      distributions: rule.distributions.map((d) => ({
        id: '',
        ruleId: '',
        variantId: d.variantId,
        variantKey: d.variantKey,
        variantAttachment: d.variantAttachment,
        rollout: d.rollout,
      })),
    };
  }

  private rollout(rollout: CompiledRollout): SnapshotRolloutDocument {
    const doc: SnapshotRolloutDocument = { type: rolloutTypeName(rollout.type), rank: rollout.rank };
    if (rollout.threshold) {
      doc.threshold = { percentage: rollout.threshold.percentage, value: rollout.threshold.value };
    } else if (rollout.segment) {
      doc.segment = {
        value: rollout.segment.value,
        segmentOperator: segmentOperatorName(rollout.segment.segmentOperator),
        segments: this.linked(rollout.segment.segments),
      };
    }
    return doc;
  }

  /** The segments that exist, in the order listed. */
  private linked(links: readonly SegmentLink[]): SnapshotSegmentDocument[] {
    const docs: SnapshotSegmentDocument[] = [];
    for (const link of links) if (link.current) docs.push(this.segment(link.current));
    return docs;
  }

  private segment(segment: CompiledSegment): SnapshotSegmentDocument {
    let doc = this.segments.get(segment);
    if (!doc) {
      doc = {
        key: segment.key,
        name: segment.name,
        description: segment.description,
        // Flipt maps anything but ALL to ANY here.
        matchType: SEGMENT_MATCH_TYPE_NAMES[segment.matchType === MatchType.ALL ? MatchType.ALL : MatchType.ANY],
        constraints: segment.constraints.map((c) => ({
          id: c.id,
          type: this.constraintTypeName(c.type),
          property: c.property,
          operator: c.operator,
          value: c.value,
        })),
      };
      this.segments.set(segment, doc);
    }
    return doc;
  }

  /** Clients older than 1.38.0 cannot read ENTITY_ID; UNKNOWN makes their segment fail instead of their parse. */
  private constraintTypeName(type: number): string {
    if (type === ComparisonType.ENTITY_ID && !this.options.entityIdConstraints) return UNKNOWN_CONSTRAINT_TYPE;
    return CONSTRAINT_COMPARISON_TYPE_NAMES[type] ?? UNKNOWN_CONSTRAINT_TYPE;
  }
}

function segmentOperatorName(operator: number): string {
  return SEGMENT_OPERATOR_NAMES[operator === SegmentOperator.AND ? SegmentOperator.AND : SegmentOperator.OR];
}

function rolloutTypeName(type: number): string {
  return ROLLOUT_TYPE_NAMES[type] ?? ROLLOUT_TYPE_NAMES[RolloutType.UNKNOWN];
}

/**
 * Builds the snapshot document for a client that sent `acceptServerVersion` as its X-Flipt-Accept-Server-Version
 * header (undefined when absent): before 1.38.0 ENTITY_ID constraints read as UNKNOWN, before 1.47.0 default
 * variants are left out. Rules and rollouts appear in rank order because the engines take array order as rank.
 */
export function toSnapshotDocument(s: Snapshot, acceptServerVersion: string | undefined): SnapshotDocument {
  const version = parseAcceptServerVersion(acceptServerVersion);
  const builder = new DocumentBuilder({
    entityIdConstraints: !isBefore(version, ENTITY_ID_MIN_VERSION),
    defaultVariants: !isBefore(version, DEFAULT_VARIANT_MIN_VERSION),
  });
  return { namespace: { key: s.key }, flags: Array.from(orderedFlags(s), (f) => builder.flag(f)) };
}

/** One builder per document variant (documentVariant), index = variant. */
const VARIANT_BUILDERS = [
  new DocumentBuilder({ entityIdConstraints: false, defaultVariants: false }),
  new DocumentBuilder({ entityIdConstraints: true, defaultVariants: false }),
  new DocumentBuilder({ entityIdConstraints: true, defaultVariants: true }),
] as const;
interface FlagText {
  text: string;
  /** The segments its rules and rollouts linked to when it was serialised. */
  segments: Array<CompiledSegment | null>;
}

/**
 * Each compiled flag's part of the document, serialised once per variant. A flag a write replaced is a new object;
 * a segment a write replaced shows in its links, so the text is checked against them.
 */
const FLAG_TEXT = [new WeakMap<CompiledFlag, FlagText>(), new WeakMap<CompiledFlag, FlagText>(), new WeakMap<CompiledFlag, FlagText>()] as const;

function linkedSegments(flag: CompiledFlag): Array<CompiledSegment | null> {
  const segments: Array<CompiledSegment | null> = [];
  for (const rule of flag.rules) for (const link of rule.segments) segments.push(link.current);
  for (const rollout of flag.rollouts) if (rollout.segment) for (const link of rollout.segment.segments) segments.push(link.current);
  return segments;
}

function sameSegments(a: ReadonlyArray<CompiledSegment | null>, b: ReadonlyArray<CompiledSegment | null>): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * The document of `documentVariant` `variant` as JSON text: the same text as JSON.stringify(toSnapshotDocument(…)),
 * but each flag is serialised only once for as long as it is unchanged, so after a write only what the write changed
 * is built again and the rest is joined.
 */
export function snapshotDocumentText(s: Snapshot, variant: 0 | 1 | 2): string {
  const builder = VARIANT_BUILDERS[variant];
  const texts = FLAG_TEXT[variant];
  const parts: string[] = [];
  for (const flag of orderedFlags(s)) {
    const segments = linkedSegments(flag);
    let kept = texts.get(flag);
    if (kept === undefined || !sameSegments(kept.segments, segments)) {
      kept = { text: JSON.stringify(builder.flag(flag)), segments };
      texts.set(flag, kept);
    }
    parts.push(kept.text);
  }
  return `{"namespace":${JSON.stringify({ key: s.key })},"flags":[${parts.join(',')}]}`;
}
