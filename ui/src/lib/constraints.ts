/**
 * What the constraint form offers for each comparison type: the operators the API accepts for it (facts §4.3) in
 * words, and what kind of value each operator takes, so that the value input fits (a number box, a date picker,
 * a list, or nothing).
 */
import type { ComparisonType } from '../api/types';
import type { TimeZone } from '../session/time-zone';
import { formatDate, inputOfInstant, instantOfInput } from './format';

export const COMPARISON_TYPES: Array<{ type: ComparisonType; label: string }> = [
  { type: 'STRING_COMPARISON_TYPE', label: 'String' },
  { type: 'NUMBER_COMPARISON_TYPE', label: 'Number' },
  { type: 'BOOLEAN_COMPARISON_TYPE', label: 'Boolean' },
  { type: 'DATETIME_COMPARISON_TYPE', label: 'Date and time' },
  { type: 'ENTITY_ID_COMPARISON_TYPE', label: 'Entity ID' },
];

export type ValueKind = 'none' | 'text' | 'number' | 'datetime' | 'list';

interface Operator {
  op: string;
  label: string;
}

const NUMBER_LIKE: Operator[] = [
  { op: 'eq', label: '==' },
  { op: 'neq', label: '!=' },
  { op: 'lt', label: '<' },
  { op: 'lte', label: '<=' },
  { op: 'gt', label: '>' },
  { op: 'gte', label: '>=' },
  { op: 'present', label: 'is present' },
  { op: 'notpresent', label: 'is not present' },
];

export const OPERATORS: Record<ComparisonType, Operator[]> = {
  STRING_COMPARISON_TYPE: [
    { op: 'eq', label: '==' },
    { op: 'neq', label: '!=' },
    { op: 'empty', label: 'is empty' },
    { op: 'notempty', label: 'is not empty' },
    { op: 'prefix', label: 'has prefix' },
    { op: 'suffix', label: 'has suffix' },
    { op: 'contains', label: 'contains' },
    { op: 'notcontains', label: 'does not contain' },
    { op: 'isoneof', label: 'is one of' },
    { op: 'isnotoneof', label: 'is not one of' },
  ],
  NUMBER_COMPARISON_TYPE: [...NUMBER_LIKE, { op: 'isoneof', label: 'is one of' }, { op: 'isnotoneof', label: 'is not one of' }],
  BOOLEAN_COMPARISON_TYPE: [
    { op: 'true', label: 'is true' },
    { op: 'false', label: 'is false' },
    { op: 'present', label: 'is present' },
    { op: 'notpresent', label: 'is not present' },
  ],
  // The API also accepts isoneof/isnotoneof here, but a list never parses as a date, so it is not offered.
  DATETIME_COMPARISON_TYPE: [
    { op: 'eq', label: '==' },
    { op: 'neq', label: '!=' },
    { op: 'lt', label: 'is before' },
    { op: 'lte', label: 'is at or before' },
    { op: 'gt', label: 'is after' },
    { op: 'gte', label: 'is at or after' },
    { op: 'present', label: 'is present' },
    { op: 'notpresent', label: 'is not present' },
  ],
  ENTITY_ID_COMPARISON_TYPE: [
    { op: 'eq', label: '==' },
    { op: 'neq', label: '!=' },
    { op: 'contains', label: 'contains' },
    { op: 'notcontains', label: 'does not contain' },
    { op: 'isoneof', label: 'is one of' },
    { op: 'isnotoneof', label: 'is not one of' },
  ],
};

const NO_VALUE = new Set(['empty', 'notempty', 'present', 'notpresent', 'true', 'false']);

export function valueKind(type: ComparisonType, operator: string): ValueKind {
  if (NO_VALUE.has(operator)) return 'none';
  if (operator === 'isoneof' || operator === 'isnotoneof') return 'list';
  if (type === 'NUMBER_COMPARISON_TYPE') return 'number';
  if (type === 'DATETIME_COMPARISON_TYPE') return 'datetime';
  return 'text';
}

export function typeLabel(type: ComparisonType): string {
  return COMPARISON_TYPES.find((t) => t.type === type)?.label ?? type;
}

export function operatorLabel(type: ComparisonType, operator: string): string {
  return OPERATORS[type]?.find((o) => o.op === operator)?.label ?? operator;
}

/** A list value as the API stores it (a JSON array), from one item per line; numbers for NUMBER constraints. */
export function listToValue(type: ComparisonType, text: string): { value?: string; problem?: string } {
  const items = text.split('\n').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) return { problem: 'Enter at least one value, one per line.' };
  if (items.length > 100) return { problem: `At most 100 values (${items.length} entered).` };
  if (type !== 'NUMBER_COMPARISON_TYPE') return { value: JSON.stringify(items) };
  const numbers = items.map(Number);
  const bad = items.find((_, i) => !Number.isFinite(numbers[i]));
  return bad !== undefined ? { problem: `"${bad}" is not a number.` } : { value: JSON.stringify(numbers) };
}

/** The items of a stored list value (a JSON array), or undefined when it is not one. */
export function listItems(value: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // not a list
  }
  return undefined;
}

/** The stored JSON array back as lines; anything else as it is. */
export function valueToList(value: string): string {
  return listItems(value)?.join('\n') ?? value;
}

/**
 * How a constraint's value reads as text: a date-time in the zone chosen, named; a list as its items (the page
 * shows those as separate items, ConstraintValue: a comma may be part of one).
 */
export function displayValue(type: ComparisonType, operator: string, value: string, zone?: TimeZone): string {
  const kind = valueKind(type, operator);
  if (kind === 'none') return '';
  if (kind === 'list') return (listItems(value) ?? [value]).map((v) => JSON.stringify(v)).join(' ');
  if (kind === 'datetime' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value, value, zone);
  return value;
}

/**
 * Date values: the form edits a time in the zone chosen (`<input type="datetime-local">`, Times in the navigation)
 * or a plain date; the API stores UTC RFC 3339 without fractions (`2025-06-01T08:00:00Z`) or `2025-06-01`.
 */
export function localToStored(local: string, dateOnly: boolean, zone: TimeZone): string {
  if (!local) return '';
  if (dateOnly) return local;
  const d = instantOfInput(local, zone);
  return d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : local;
}

export function storedToLocal(stored: string, zone: TimeZone): { local: string; dateOnly: boolean } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(stored)) return { local: stored, dateOnly: true };
  const d = new Date(stored);
  if (!stored || Number.isNaN(d.getTime())) return { local: '', dateOnly: false };
  return { local: inputOfInstant(d, zone), dateOnly: false };
}
