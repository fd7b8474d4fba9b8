/**
 * The vocabulary of the configuration schema: one descriptor per key, saying its type, default, YAML and
 * `/meta/config` names and what it means. The loader, the validator, the `/meta/config` view and the reference tables
 * of docs/configuration.md all walk the same descriptors, so a key cannot be loadable but undocumented, or shown in
 * `/meta/config` under another name than the one it is loaded from.
 */
import { parseDuration } from './duration';
import type { FlagpoleConfig } from './config.types';

interface FieldCommon {
  /** What the key does, one sentence for docs/configuration.md. */
  doc: string;
  /** YAML key, when the snake_case of the property name is not it. */
  yaml?: string;
  /** Name in `/meta/config`; `false` = a secret or a path, never shown. Defaults to the property name. */
  json?: string | false;
  /** Shown in `/meta/config` even when empty/zero/false (a Go field without `omitempty`). */
  keepEmpty?: boolean;
  /** Accepted so Flipt configuration files load, but Flagpole does not act on it yet. */
  inert?: boolean;
}

interface LeafCommon<T> extends FieldCommon {
  default: T;
  /** The default applies only when this holds for the loaded configuration (else the zero value), as in Flipt. */
  defaultWhen?: (config: FlagpoleConfig) => boolean;
  /** How docs show the default when the value itself would mislead (computed defaults). */
  defaultDoc?: string;
}

export interface StringField extends LeafCommon<string> {
  kind: 'string';
  /** Extra check of a non-empty value: returns the reason it is invalid. */
  check?: (value: string) => string | undefined;
  /** Text for a YAML number given to this string key (`version: 1.0` is read as the number 1). */
  fromNumber?: (value: number) => string;
}

export interface EnumField<T extends string> extends LeafCommon<T> {
  kind: 'enum';
  values: readonly T[];
}

export interface IntField extends LeafCommon<number> {
  kind: 'int';
  min?: number;
  max?: number;
}

export interface FloatField extends LeafCommon<number> {
  kind: 'float';
  min?: number;
  max?: number;
}

/** Milliseconds; written in Go syntax. min/max in milliseconds. */
export interface DurationField extends LeafCommon<number> {
  kind: 'duration';
  min?: number;
  max?: number;
}

export interface BoolField extends LeafCommon<boolean> {
  kind: 'bool';
}

export interface ListField<T extends string = string> extends LeafCommon<T[]> {
  kind: 'list';
  /** Allowed items, when the list is of an enumeration. */
  values?: readonly T[];
  /** Extra check per item: returns the reason it is invalid. */
  checkItem?: (item: string) => string | undefined;
}

export interface StringMapField extends LeafCommon<Record<string, string>> {
  kind: 'stringMap';
  /** Placeholder for the key in docs and `FLAGPOLE_` names, e.g. `<KEY>`. */
  keyName: string;
}

export interface ListMapField extends LeafCommon<Record<string, string[]>> {
  kind: 'listMap';
  keyName: string;
}

export interface ObjectListField<T> extends LeafCommon<T[]> {
  kind: 'objectList';
  of: Schema<T>;
}

export interface SectionField<T> extends FieldCommon {
  kind: 'section';
  fields: Schema<T>;
  /** `/meta/config` shows the section only when this holds (a nil Go pointer otherwise). */
  viewIf?: (config: FlagpoleConfig) => boolean;
}

export interface MapField<T> extends FieldCommon {
  kind: 'map';
  keyName: string;
  of: Schema<T>;
}

/** The descriptor a property of type V must have: the compiler checks the schema against config.types.ts. */
export type FieldFor<V> = [V] extends [boolean]
  ? BoolField
  : [V] extends [number]
    ? IntField | FloatField | DurationField
    : [V] extends [string]
      ? string extends V
        ? StringField
        : EnumField<V>
      : [V] extends [string[]]
        ? ListField<V[number]>
        : [V] extends [Array<infer E>]
          ? ObjectListField<E>
          : string extends keyof V
            ? [V[keyof V]] extends [string]
              ? StringMapField
              : [V[keyof V]] extends [string[]]
                ? ListMapField
                : MapField<V[keyof V]>
            : SectionField<V>;

export type Schema<T> = { [K in keyof T]-?: FieldFor<T[K]> };

// The walkers see the descriptors untyped.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type LeafField =
  | StringField
  | EnumField<string>
  | IntField
  | FloatField
  | DurationField
  | BoolField
  | ListField
  | StringMapField
  | ListMapField
  | ObjectListField<any>;
export type AnyField = LeafField | SectionField<any> | MapField<any>;
export type AnySchema = Record<string, AnyField>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export function isLeaf(field: AnyField): field is LeafField {
  return field.kind !== 'section' && field.kind !== 'map';
}

/** `httpPort` → `http_port`, `requireTLS` → `require_tls`, `issuerURL` → `issuer_url`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

export function yamlKey(property: string, field: AnyField): string {
  return field.yaml ?? snakeCase(property);
}

export function jsonKey(property: string, field: AnyField): string | false {
  return field.json ?? property;
}

// ---- constructors (keep config.schema.ts one line per key) -----------------------------------------------------------

type Extra<F> = Partial<Omit<F, 'kind' | 'doc' | 'default'>>;

export const str = (def: string, doc: string, extra: Extra<StringField> = {}): StringField => ({
  kind: 'string',
  default: def,
  doc,
  ...extra,
});

/** A credential, path or URL that `/meta/config` never shows. */
export const secret = (doc: string, extra: Extra<StringField> = {}): StringField => str('', doc, { json: false, ...extra });

export const bool = (def: boolean, doc: string, extra: Extra<BoolField> = {}): BoolField => ({
  kind: 'bool',
  default: def,
  doc,
  ...extra,
});

export const int = (def: number, doc: string, extra: Extra<IntField> = {}): IntField => ({
  kind: 'int',
  default: def,
  doc,
  min: 0,
  ...extra,
});

export const port = (def: number, doc: string, extra: Extra<IntField> = {}): IntField =>
  int(def, doc, { min: 0, max: 65535, ...extra });

export const float = (def: number, doc: string, extra: Extra<FloatField> = {}): FloatField => ({
  kind: 'float',
  default: def,
  doc,
  ...extra,
});

/** `def` in Go syntax (`'1m'`); stored in milliseconds. */
export const duration = (def: string, doc: string, extra: Extra<DurationField> = {}): DurationField => {
  const ms = parseDuration(def);
  if (ms === undefined) throw new Error(`schema: bad default duration ${def}`);
  return { kind: 'duration', default: ms, doc, min: 0, ...extra };
};

export const oneOf = <T extends string>(
  values: readonly T[],
  def: T,
  doc: string,
  extra: Extra<EnumField<T>> = {},
): EnumField<T> => ({ kind: 'enum', values, default: def, doc, ...extra });

export const list = <T extends string = string>(def: T[], doc: string, extra: Extra<ListField<T>> = {}): ListField<T> => ({
  kind: 'list',
  default: def,
  doc,
  ...extra,
});

export const stringMap = (keyName: string, doc: string, extra: Extra<StringMapField> = {}): StringMapField => ({
  kind: 'stringMap',
  keyName,
  default: {},
  doc,
  ...extra,
});

export const listMap = (keyName: string, doc: string, extra: Extra<ListMapField> = {}): ListMapField => ({
  kind: 'listMap',
  keyName,
  default: {},
  doc,
  ...extra,
});

export const objectList = <T>(of: Schema<NoInfer<T>>, doc: string, extra: Extra<ObjectListField<T>> = {}): ObjectListField<T> => ({
  kind: 'objectList',
  of,
  default: [],
  doc,
  ...extra,
});

export const section = <T>(fields: Schema<NoInfer<T>>, extra: Partial<Omit<SectionField<T>, 'kind' | 'fields'>> = {}): SectionField<T> => ({
  kind: 'section',
  fields,
  doc: '',
  ...extra,
});

export const mapOf = <T>(keyName: string, of: Schema<NoInfer<T>>, doc: string, extra: Partial<MapField<T>> = {}): MapField<T> => ({
  kind: 'map',
  keyName,
  of,
  doc,
  ...extra,
});
