/**
 * Flipt's flags-as-code document (the format of `flipt export` / `flipt import` and of declarative `features.yml`
 * files), as Flagpole holds it once read: one namespace's flags and segments, enums as Flipt's numbers (src/wire/),
 * references by key. Ids, timestamps and tokens are not part of it. Reading (document-reader.ts) and writing
 * (document-writer.ts) translate between this and the text; document.repository.ts between this and the database.
 */
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

export interface NamespaceDocument {
  namespace: { key: string; name: string; description: string };
  flags: DocumentFlag[];
  segments: DocumentSegment[];
  /** Where the document starts in its text; absent for what came from the database. */
  at?: string;
}
