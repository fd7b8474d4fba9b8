/**
 * Field-by-field differences between two audit payloads. Nested objects and arrays are flattened to paths
 * (`threshold.percentage`, `distributions[0].rollout`), so a change deep inside a rule reads as one line rather than
 * two whole JSON documents to compare by eye.
 */

/** A list shown as separate items (lib/audit-names.ts): one leaf, compared whole, never flattened to `[0]`, `[1]`. */
export class ItemsLeaf {
  constructor(readonly items: readonly string[]) {}
}

export type DiffRow =
  | { kind: 'changed'; field: string; before: unknown; after: unknown }
  | { kind: 'added'; field: string; after: unknown }
  | { kind: 'removed'; field: string; before: unknown };

/** Every leaf of `value` by its path; empty objects and arrays are leaves themselves (`[]`, `{}`). */
export function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value instanceof ItemsLeaf) {
    out.set(prefix, value);
  } else if (Array.isArray(value) && value.length > 0) {
    value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  } else if (isObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** The fields that differ, in the order the new payload lists them, then the ones it no longer has. */
export function diffPayloads(before: unknown, after: unknown): DiffRow[] {
  const old = flatten(before ?? {});
  const now = flatten(after ?? {});
  const rows: DiffRow[] = [];
  for (const [field, value] of now) {
    if (!old.has(field)) rows.push({ kind: 'added', field, after: value });
    else if (!sameLeaf(old.get(field), value)) rows.push({ kind: 'changed', field, before: old.get(field), after: value });
  }
  for (const [field, value] of old) if (!now.has(field)) rows.push({ kind: 'removed', field, before: value });
  return rows;
}

/**
 * A payload's fields as they stand, for a create (what it was made with) or a delete (what it was), without the
 * names in `skip` at any depth (`id` leaves out `distributions[0].id` too).
 */
export function fieldsOf(payload: unknown, skip: readonly string[] = []): Array<[string, unknown]> {
  return [...flatten(payload ?? {})].filter(([field]) => !skip.includes(lastName(field)));
}

/** `distributions[0].rule_id` → `rule_id`. */
function lastName(field: string): string {
  return field.replace(/^.*[.\]]/, '');
}

/** A leaf as the diff shows it: strings in quotes but unescaped (an attachment's JSON stays legible), null as none. */
export function formatLeaf(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return `"${value}"`;
  if (value instanceof ItemsLeaf) return value.items.map((i) => JSON.stringify(i)).join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function sameLeaf(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
