/**
 * Flipt's flags-as-code document (the format of `flipt export` / `flipt import` and of declarative `features.yml`
 * files), as Flagpole holds it once read: one namespace's flags and segments, enums as Flipt's numbers (src/wire/),
 * references by key. Ids, timestamps and tokens are not part of it. Reading (document-reader.ts) and writing
 * (document-writer.ts) translate between this and the text; document.repository.ts between this and the database.
 */
import type { ScheduleType, StoredStep } from '../schedules/schedule-steps';
import type { ComparisonType, FlagType, MatchType, SegmentOperator } from '../wire';

/** Versions read; the last is written. */
export const DOCUMENT_VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4'] as const;
export type DocumentVersion = (typeof DOCUMENT_VERSIONS)[number];
export const LATEST_DOCUMENT_VERSION: DocumentVersion = '1.4';

/** The namespace a document without one is about. */
export const DEFAULT_NAMESPACE = 'default';

export interface DocumentConstraint {
  type: ComparisonType;
  property: string;
  /** Lower-cased, as stored. */
  operator: string;
  value: string;
  description: string;
}

export interface DocumentSegment {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
  constraints: DocumentConstraint[];
  /** Where the segment is written in its text (for messages about it); absent for what came from the database. */
  at?: string;
}

export interface DocumentVariant {
  key: string;
  name: string;
  description: string;
  /** Compact JSON text, or null when the variant has none. */
  attachment: string | null;
}

export interface DocumentDistribution {
  variant: string;
  rollout: number;
}

export interface DocumentRule {
  segmentKeys: string[];
  segmentOperator: SegmentOperator;
  /** Greater than 0; a rule written without one ranks by its position (1-based). */
  rank: number;
  /** In order: the order decides which variant owns which buckets. */
  distributions: DocumentDistribution[];
  at?: string;
}

export interface DocumentRollout {
  description: string;
  threshold?: { percentage: number; value: boolean };
  segment?: { segmentKeys: string[]; segmentOperator: SegmentOperator; value: boolean };
  at?: string;
}

export interface DocumentFlag {
  key: string;
  name: string;
  description: string;
  type: FlagType;
  enabled: boolean;
  /** A JSON object, or null when the flag has none. */
  metadata: Record<string, unknown> | null;
  /** In order (creation order: it decides bucketing). */
  variants: DocumentVariant[];
  /** Key of the default variant, or null. */
  defaultVariant: string | null;
  /** In rank order. */
  rules: DocumentRule[];
  /** In rank order (rank = position). */
  rollouts: DocumentRollout[];
  at?: string;
}

/** The Flagpole extension key holding a namespace's open scheduled changes (Flipt's format has none). */
export const SCHEDULES_KEY = 'x-flagpole-schedules';

/**
 * An open scheduled change (docs/flags-as-code.md, Scheduled changes): its target named by the flag's key and the
 * place of the rollout or rule within the flag, since ids do not survive an import; its steps still to apply. The text
 * names the rollout or rule by rank (the writer writes ranks as positions); held here as an index into the flag's
 * lists, which says which one whatever ranks the text gave.
 */
export interface DocumentSchedule {
  flag: string;
  type: ScheduleType;
  /** ROLLOUT_THRESHOLD, ROLLOUT_SEGMENT: the rollout's index in the flag's `rollouts`. */
  rolloutIndex?: number;
  /** RULE_DISTRIBUTIONS: the rule's index in the flag's `rules`. */
  ruleIndex?: number;
  description: string;
  paused: boolean;
  /** PENDING steps, times increasing (UTC ISO). */
  steps: StoredStep[];
  at?: string;
}

export interface NamespaceDocument {
  namespace: { key: string; name: string; description: string };
  flags: DocumentFlag[];
  segments: DocumentSegment[];
  /** Only when the text had `x-flagpole-schedules`, or an export was asked for them: a Flipt document has none. */
  schedules?: DocumentSchedule[];
  /** Where the document starts in its text; absent for what came from the database. */
  at?: string;
}
