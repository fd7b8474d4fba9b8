/**
 * The vocabulary of evaluation.schemas.ts: JSON schemas written as plain `as const` objects in the dialect both
 * readers take as-is (OpenAPI for Swagger, JSON Schema for Fastify's compiled serialiser), and the TypeScript type
 * each one describes, derived from the literal.
 *
 * Plain schemas rather than @sinclair/typebox (present only as a test tool's dependency): TypeBox 0.27 spells a
 * string map as `patternProperties` and a name list as `anyOf` of `const`s, neither of which Swagger shows as the
 * `additionalProperties`/`enum` it documents today, so most fields would have been `Type.Unsafe`; and a parsed request
 * is a protobuf message, every field present (absent is its zero value), which TypeBox's `Static` (optional = may be
 * missing) does not say. `Parsed<S>` and `Answer<S>` below are the whole type-level part.
 */

/** A field the parser does not read: documented for clients, ignored like any unknown field. */
export const UNREAD = Symbol('unread');

export type FieldSchema =
  | { readonly type: 'string'; readonly maxLength?: number; readonly enum?: readonly string[]; readonly [UNREAD]?: true }
  | { readonly type: 'number' | 'boolean' }
  | { readonly type: 'array'; readonly items: FieldSchema }
  | { readonly type: 'object'; readonly additionalProperties: { readonly type: 'string' } }
  | MessageSchema;

export interface MessageSchema<P extends Record<string, FieldSchema> = Record<string, FieldSchema>> {
  readonly type: 'object';
  readonly properties: P;
  readonly required: readonly (keyof P & string)[];
}

/** A message; its `required` list (what Swagger marks required) defaults to every field. */
export function message<const P extends Record<string, FieldSchema>, const R extends keyof P & string = keyof P & string>(
  properties: P,
  required?: readonly R[],
): MessageSchema<P> & { readonly required: readonly R[] } {
  return { type: 'object', properties, required: required ?? (Object.keys(properties) as R[]) };
}

export function isMessage(s: FieldSchema): s is MessageSchema {
  return s.type === 'object' && 'properties' in s;
}

type Value<S, AllPresent extends boolean> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly type: 'string' }
    ? string
    : S extends { readonly type: 'number' }
      ? number
      : S extends { readonly type: 'boolean' }
        ? boolean
        : S extends { readonly type: 'array'; readonly items: infer I }
          ? Value<I, AllPresent>[]
          : S extends MessageSchema<infer P> & { readonly required: readonly (infer R)[] }
            ? Fields<P, AllPresent extends true ? keyof P : R & keyof P, AllPresent>
            : S extends { readonly additionalProperties: infer V }
              ? Record<string, Value<V, AllPresent>>
              : never;

type Read<P> = { [K in keyof P]: P[K] extends { readonly [UNREAD]: true } ? never : K }[keyof P];

type Fields<P, R extends keyof P, AllPresent extends boolean> = {
  -readonly [K in R & Read<P>]: Value<P[K], AllPresent>;
} & { -readonly [K in Exclude<Read<P>, R>]?: Value<P[K], AllPresent> };

/** A request as parsed: every read field present, an absent one as its zero value ('' , false, [], {}). */
export type Parsed<S> = Flat<Value<S, true>>;
/** An answer as written: the fields the schema requires, the others optional (a batch item's one-of). */
export type Answer<S> = Flat<Value<S, false>>;

type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;
