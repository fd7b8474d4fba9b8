/**
 * Audit payloads name rules, variants and segments by id, and a rule's segments by their keys joined with commas
 * (Flipt's shape), although a key may hold a comma. What a person reads instead: the variant's key, a rule as its
 * segments ("internal-staff and premium"), a list as a list (ItemsLeaf). The names come from the flag as it is now
 * (pages/history/use-audit-names.ts); what it no longer has is "a rule since deleted".
 */
import type { AuditPayload, AuditType } from '../api/audit';
import type { Rollout, Rule } from '../api/types';
import { segmentKeysOf } from '../api/types';
import { listItems } from './constraints';
import { ItemsLeaf } from './payload-diff';

export interface AuditNames {
  /** The flag's variants, rules and rollouts and the namespace's segments are known: a missing id was deleted. */
  known: boolean;
  variants: ReadonlyMap<string, string>;
  rules: ReadonlyMap<string, Rule>;
  rollouts: ReadonlyMap<string, Rollout>;
  segmentKeys: ReadonlySet<string>;
}

export const NO_NAMES: AuditNames = { known: false, variants: new Map(), rules: new Map(), rollouts: new Map(), segmentKeys: new Set() };

/** Ids are UUIDs: eight characters tell them apart on one screen. */
export function shortId(id: unknown): string | undefined {
  return typeof id === 'string' ? id.slice(0, 8) : undefined;
}

function joinSegments(keys: string[], operator: string | undefined): string {
  return keys.join(operator === 'AND_SEGMENT_OPERATOR' ? ' and ' : ' or ');
}

/** "internal-staff and premium"; "a rule since deleted"; the short id when the rules cannot be read. */
export function ruleName(id: unknown, names: AuditNames): string {
  const rule = typeof id === 'string' ? names.rules.get(id) : undefined;
  if (rule) return joinSegments(segmentKeysOf(rule), rule.segmentOperator);
  return names.known ? 'a rule since deleted' : shortId(id) ?? '?';
}

export function rolloutName(id: unknown, names: AuditNames): string {
  const rollout = typeof id === 'string' ? names.rollouts.get(id) : undefined;
  if (rollout?.threshold) return `${rollout.threshold.percentage}% of entities`;
  if (rollout?.segment) return joinSegments(segmentKeysOf(rollout.segment), rollout.segment.segmentOperator);
  return names.known ? 'a rollout since deleted' : shortId(id) ?? '?';
}

export function variantName(id: unknown, names: AuditNames): string {
  const key = typeof id === 'string' ? names.variants.get(id) : undefined;
  return key ?? (names.known ? 'a variant since deleted' : shortId(id) ?? '?');
}

/**
 * The segment keys of a rule or rollout whose payload joined them with commas: from the rule itself when it still
 * exists, else the one way to cut `joined` into segments the namespace has, else `joined` as one.
 */
export function segmentsOf(joined: string, segments: string[] | undefined, names: AuditNames): string[] {
  if (segments && segments.join(',') === joined) return segments;
  return splitIntoKnown(joined, names.segmentKeys) ?? [joined];
}

function splitIntoKnown(joined: string, known: ReadonlySet<string>): string[] | undefined {
  const ways: string[][] = [];
  const walk = (rest: string, taken: string[]) => {
    if (ways.length > 1) return;
    if (known.has(rest)) ways.push([...taken, rest]);
    for (let i = rest.indexOf(','); i > 0; i = rest.indexOf(',', i + 1)) {
      if (known.has(rest.slice(0, i))) walk(rest.slice(i + 1), [...taken, rest.slice(0, i)]);
    }
  };
  walk(joined, []);
  return ways.length === 1 ? ways[0] : undefined;
}

const OPERATOR_WORDS: Record<string, string> = { AND_SEGMENT_OPERATOR: 'all segments (AND)', OR_SEGMENT_OPERATOR: 'any segment (OR)' };

const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A payload with ids replaced by names and lists by ItemsLeaf; empty distributions left out. */
export function readablePayload(type: AuditType, payload: AuditPayload | null, names: AuditNames): AuditPayload | null {
  if (!payload) return payload;
  const known = (id: unknown) => (typeof id === 'string' ? names.rules.get(id) ?? names.rollouts.get(id) : undefined);
  const out: AuditPayload = {};
  for (const [field, value] of Object.entries(payload)) {
    if (field === 'distributions' && Array.isArray(value)) {
      if (value.length > 0) out.distributions = new ItemsLeaf(value.map((d) => `${variantName(asObject(d).variant_id, names)} ${String(asObject(d).rollout)}%`));
    } else if (field === 'variant_id') {
      out.variant = variantName(value, names);
    } else if (field === 'rule_id' && type === 'distribution') {
      out.rule = ruleName(value, names);
    } else if (type === 'rule' && field === 'segment_key' && typeof value === 'string' && payload.segment_operator) {
      const rule = known(payload.id) as Rule | undefined;
      out.segments = new ItemsLeaf(segmentsOf(value, rule && segmentKeysOf(rule), names));
    } else if (field === 'segment_operator' && typeof value === 'string') {
      out.segment_operator = OPERATOR_WORDS[value] ?? value;
    } else if (type === 'rollout' && field === 'segment' && typeof asObject(value).key === 'string' && asObject(value).operator) {
      const segment = (known(payload.id) as Rollout | undefined)?.segment;
      const { key, ...rest } = asObject(value);
      out.segment = { segments: new ItemsLeaf(segmentsOf(key as string, segment && segmentKeysOf(segment), names)), ...rest };
    } else if (type === 'constraint' && field === 'value' && typeof value === 'string' && /^(isoneof|isnotoneof)$/.test(String(payload.operator))) {
      const items = listItems(value);
      out.value = items ? new ItemsLeaf(items) : value;
    } else {
      out[field] = value;
    }
  }
  return out;
}

/** A reorder's ids (`rule_ids`, `rollout_ids`), or undefined when the event is no reorder. */
export function reorderedIds(payload: AuditPayload | null): { what: 'rules' | 'rollouts'; ids: unknown[] } | undefined {
  if (!payload || payload.id !== undefined) return undefined;
  if (Array.isArray(payload.rule_ids)) return { what: 'rules', ids: payload.rule_ids };
  if (Array.isArray(payload.rollout_ids)) return { what: 'rollouts', ids: payload.rollout_ids };
  return undefined;
}
