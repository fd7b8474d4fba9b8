/**
 * The vocabulary of the configuration schema: one descriptor per key, saying its type, default, YAML and
 * `/meta/config` names and what it means. The loader, the validator, the `/meta/config` view and the reference tables
 * of docs/configuration.md all walk the same descriptors, so a key cannot be loadable but undocumented, or shown in
 * `/meta/config` under another name than the one it is loaded from.
 */
import { parseDuration } from './duration';

/**
 * A condition on the loaded configuration: the key at `path` (property names joined by dots) is true, or equals
 * `equals`. Written as data, not as a function of the configuration, because the configuration's type is inferred
 * from the schema that holds the condition. config.schema.spec.ts checks that every path names a key of the schema.
 */
export interface Condition {
  path: string;
  equals?: string;
}

export const when = (path: string, equals?: string): Condition => (equals === undefined ? { path } : { path, equals });

export function holds(condition: Condition, config: object): boolean {
  let value: unknown = config;
  for (const property of condition.path.split('.')) value = (value as Record<string, unknown> | undefined)?.[property];
  return condition.equals === undefined ? value === true : value === condition.equals;
}

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
  defaultWhen?: Condition;
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

/** A list of objects, each described by the schema `S`. */
export interface ObjectListField<S> extends LeafCommon<ConfigOf<S>[]> {
  kind: 'objectList';
  of: S;
}

/** A nested section whose keys the schema `S` describes. */
export interface SectionField<S> extends FieldCommon {
  kind: 'section';
  fields: S;
  /** `/meta/config` shows the section only when this holds (a nil Go pointer otherwise). */
  viewIf?: Condition;
}

/** A map from names the user chooses (`<PROVIDER>`) to sections described by the schema `S`. */
export interface MapField<S> extends FieldCommon {
  kind: 'map';
  keyName: string;
  of: S;
}

/**
 * The configuration's type, read off its schema: config.types.ts is `ConfigOf<typeof CONFIG_SCHEMA>`, so a key is
 * declared once, in config.schema.ts, with its type, default, names and description.
 */
export type ValueOf<F> =
  F extends SectionField<infer S>
    ? ConfigOf<S>
    : F extends MapField<infer S>
      ? Record<string, ConfigOf<S>>
      : F extends LeafCommon<infer V>
        ? V
        : never;

export type ConfigOf<S> = { -readonly [K in keyof S]: ValueOf<S[K]> };

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

export const oneOf = <const T extends string>(
  values: readonly T[],
  def: NoInfer<T>,
  doc: string,
  extra: Extra<EnumField<T>> = {},
): EnumField<T> => ({ kind: 'enum', values, default: def, doc, ...extra });

/** A list of strings; of an enumeration's values when `extra.values` lists them. */
export const list = <T extends string = string>(def: NoInfer<T>[], doc: string, extra: Extra<ListField<T>> = {}): ListField<T> => ({
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

export const objectList = <S extends AnySchema>(of: S, doc: string, extra: Extra<ObjectListField<S>> = {}): ObjectListField<S> => ({
  kind: 'objectList',
  of,
  default: [],
  doc,
  ...extra,
});

export const section = <S extends AnySchema>(fields: S, extra: Partial<Omit<SectionField<S>, 'kind' | 'fields'>> = {}): SectionField<S> => ({
  kind: 'section',
  fields,
  doc: '',
  ...extra,
});

export const mapOf = <S extends AnySchema>(keyName: string, of: S, doc: string, extra: Partial<MapField<S>> = {}): MapField<S> => ({
  kind: 'map',
  keyName,
  of,
  doc,
  ...extra,
});
