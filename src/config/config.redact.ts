/**
 * The `/meta/config` body: the configuration as Flipt's Go encoding/json shows it (flipt-v1-facts §8.2) — its camelCase
 * names, secrets and paths left out, durations as integer nanoseconds (Go's time.Duration has no JSON form of its own),
 * `omitempty` fields dropped when zero, sections always present except optional ones (nil pointers in Go), map keys
 * sorted. Driven by the schema: a key marked `json: false` there can never appear here.
 */
import { AnySchema, holds, isLeaf, jsonKey } from './config.fields';
import { CONFIG_SCHEMA } from './config.schema';
import type { FlagpoleConfig } from './config.types';
import { toNanoseconds } from './duration';

export type ConfigView = { [key: string]: unknown };

export function redactConfig(config: FlagpoleConfig): ConfigView {
  const view = viewOf(CONFIG_SCHEMA as unknown as AnySchema, config as unknown as Record<string, unknown>, config);
  if (config.version === '') delete view.version;
  return view;
}

function viewOf(schema: AnySchema, values: Record<string, unknown>, root: FlagpoleConfig): ConfigView {
  const out: ConfigView = {};
  for (const [property, field] of Object.entries(schema)) {
    const name = jsonKey(property, field);
    if (name === false) continue;
    const value = values[property];
    if (field.kind === 'section') {
      if (field.viewIf && !holds(field.viewIf, root)) continue;
      out[name] = viewOf(field.fields, value as Record<string, unknown>, root);
    } else if (field.kind === 'map') {
      const entries = Object.entries(value as Record<string, Record<string, unknown>>).sort(([a], [b]) => (a < b ? -1 : 1));
      if (entries.length === 0 && !field.keepEmpty) continue;
      out[name] = Object.fromEntries(entries.map(([key, entry]) => [key, viewOf(field.of, entry, root)]));
    } else if (isLeaf(field)) {
      if (isEmpty(value) && !field.keepEmpty) continue;
      if (field.kind === 'duration') out[name] = toNanoseconds(value as number);
      else if (field.kind === 'objectList') {
        out[name] = (value as Array<Record<string, unknown>>).map((item) => viewOf(field.of, item, root));
      } else if (field.kind === 'stringMap' || field.kind === 'listMap') out[name] = sortedKeys(value as Record<string, unknown>);
      else out[name] = structuredClone(value);
    }
  }
  return out;
}

/** Go's omitempty: false, 0, "", and empty slices and maps. */
function isEmpty(value: unknown): boolean {
  if (value === false || value === 0 || value === '' || value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

function sortedKeys(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1)));
}
