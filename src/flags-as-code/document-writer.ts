/**
 * Writes namespace documents in Flipt's export format, version 1.4: what `flipt export` writes, field for field
 * (order, omitted empty fields, enum names, attachments as values), so that Flipt and Flagpole read each other's
 * exports. YAML: documents separated by `---`, `version` on the first only. JSON: one compact object per line.
 */
import { Document, type ToStringOptions } from 'yaml';
import { formatTimestamp } from '../common/timestamps';
import type { StoredStep } from '../schedules/schedule-steps';
import { COMPARISON_TYPE_NAMES, FLAG_TYPE_NAMES, MATCH_TYPE_NAMES, SEGMENT_OPERATOR_NAMES, SegmentOperator } from '../wire';
import { LATEST_DOCUMENT_VERSION, SCHEDULES_KEY, type DocumentFlag, type DocumentSchedule, type DocumentSegment, type NamespaceDocument } from './document';
import { byteOrder, sortKeys } from './document-reader';

export type DocumentFormat = 'yaml' | 'json';

export interface WriteOptions {
  /** Flags, segments and each flag's variants by key (byte order), as Flipt's `--sort-by-key`; rules and rollouts keep rank order. */
  sortByKey?: boolean;
  /** A comment line at the top of YAML output (JSON has no comments). */
  header?: string;
}

/** Flipt's YAML layout: list items at their parent key's indentation. */
const YAML_LAYOUT: ToStringOptions = { indentSeq: false, lineWidth: 0 };

export function writeDocuments(documents: readonly NamespaceDocument[], format: DocumentFormat, options: WriteOptions = {}): string {
  const plain = documents.map((d, i) => toPlain(options.sortByKey ? sorted(d) : d, i === 0));
  if (format === 'json') return plain.map((p) => `${JSON.stringify(p)}\n`).join('');
  const header = options.header ? `# ${options.header}\n\n` : '';
  return header + plain.map((p, i) => (i > 0 ? '---\n' : '') + new Document(p).toString(YAML_LAYOUT)).join('');
}

const byKey = <T extends { key: string }>(a: T, b: T): number => byteOrder(a.key, b.key);

function sorted(d: NamespaceDocument): NamespaceDocument {
  return {
    ...d,
    flags: [...d.flags].sort(byKey).map((f) => ({ ...f, variants: [...f.variants].sort(byKey) })),
    segments: [...d.segments].sort(byKey),
  };
}

/** The document as Flipt's exporter lays it out; empty fields left out (`enabled` and `type` always written). */
function toPlain(d: NamespaceDocument, first: boolean): Record<string, unknown> {
  const namespace = compact({ key: d.namespace.key, name: d.namespace.name, description: d.namespace.description });
  return compact({
    version: first ? LATEST_DOCUMENT_VERSION : undefined,
    namespace,
    flags: d.flags.map(plainFlag),
    segments: d.segments.map(plainSegment),
    // Flagpole's extension, after Flipt's keys (which Flipt reads, ignoring this one); only when asked for and any are open.
    [SCHEDULES_KEY]: d.schedules?.map((s) => plainSchedule(s, d.flags.find((f) => f.key === s.flag))),
  });
}

/** Rollouts and rules by rank as a reader of this text sees them: their positions, since ranks are not written. */
function plainSchedule(s: DocumentSchedule, flag: DocumentFlag | undefined): Record<string, unknown> {
  const rule = s.ruleIndex === undefined ? undefined : flag?.rules[s.ruleIndex];
  return compact({
    flag: s.flag,
    type: s.type,
    rollout: s.rolloutIndex === undefined ? undefined : s.rolloutIndex + 1,
    rule: rule && rulesInRankOrder(flag!).indexOf(rule) + 1,
    description: s.description,
    paused: s.paused || undefined,
    steps: s.steps.map(plainStep),
  });
}

/** A pending step: its times in UTC, and its value as it is (`false` and `0` are values). */
function plainStep(step: StoredStep): Record<string, unknown> {
  const out: Record<string, unknown> = { at: formatTimestamp(new Date(step.at)) };
  if (step.deadline) out.deadline = formatTimestamp(new Date(step.deadline));
  if (step.enabled !== undefined) out.enabled = step.enabled;
  if (step.percentage !== undefined) out.percentage = step.percentage;
  if (step.value !== undefined) out.value = step.value;
  if (step.distributions) out.distributions = step.distributions.map((d) => ({ variant: d.variantKey, rollout: d.rollout }));
  return out;
}

function plainFlag(f: DocumentFlag): Record<string, unknown> {
  return compact({
    key: f.key,
    name: f.name,
    type: FLAG_TYPE_NAMES[f.type],
    description: f.description,
    enabled: f.enabled,
    // Map keys sorted, as Go's encoders write them.
    metadata: f.metadata ? sortKeys(f.metadata) : undefined,
    variants: f.variants.map((v) => ({
      ...compact({ default: v.key === f.defaultVariant || undefined, key: v.key, name: v.name, description: v.description }),
      // Any value, `[]` and `""` included: only a variant without one leaves it out.
      ...(v.attachment === null ? {} : { attachment: sortKeys(JSON.parse(v.attachment)) }),
    })),
    // Ranks are not written (Flipt's exporter): the order carries them, so it must be rank order (stable for ties).
    rules: rulesInRankOrder(f).map((r) => compact({
      segment: r.segmentKeys.length === 1 ? r.segmentKeys[0] : { keys: r.segmentKeys, operator: SEGMENT_OPERATOR_NAMES[r.segmentOperator] },
      distributions: r.distributions.map((x) => compact({ variant: x.variant, rollout: x.rollout || undefined })),
    })),
    rollouts: f.rollouts.map((r) => compact({
      description: r.description,
      segment: r.segment && compact({
        key: r.segment.segmentKeys.length === 1 ? r.segment.segmentKeys[0] : undefined,
        keys: r.segment.segmentKeys.length === 1 ? undefined : r.segment.segmentKeys,
        operator: r.segment.segmentOperator === SegmentOperator.AND ? SEGMENT_OPERATOR_NAMES[SegmentOperator.AND] : undefined,
        value: r.segment.value || undefined,
      }),
      threshold: r.threshold && compact({ percentage: r.threshold.percentage || undefined, value: r.threshold.value || undefined }),
    })),
  });
}

function plainSegment(s: DocumentSegment): Record<string, unknown> {
  return compact({
    key: s.key,
    name: s.name,
    description: s.description,
    constraints: s.constraints.map((c) => compact({
      type: COMPARISON_TYPE_NAMES[c.type],
      property: c.property,
      operator: c.operator,
      value: c.value,
      description: c.description,
    })),
    match_type: MATCH_TYPE_NAMES[s.matchType],
  });
}

/** A stable sort: rules of equal rank keep their order. */
function rulesInRankOrder(f: DocumentFlag): DocumentFlag['rules'] {
  return [...f.rules].sort((a, b) => a.rank - b.rank);
}

/** Drops undefined, '' and empty lists (Go's `omitempty`). */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}
