/**
 * The shape every Flipt enum takes here: a TypeScript enum holding Flipt's numbers (what the database stores and
 * protobuf encodes) and one table from number to the name protobuf JSON writes. The reverse table, for reading
 * request bodies, is derived from it, so that each name is written once.
 */

/** Number → name. Indexable by any number: a stored value outside the enum reads as undefined. */
export type EnumNames = Readonly<Record<number, string>>;

/**
 * Name → number, in number order: the spellings a request may use, and (its keys) the `enum` list Swagger shows
 * and validation messages name.
 */
export function valuesByName(names: EnumNames): Readonly<Record<string, number>> {
  return Object.freeze(Object.fromEntries(Object.entries(names).map(([value, name]) => [name, Number(value)])));
}

/** The same table with each name's `suffix` spelled `replacement` (the snapshot document's names of some enums). */
export function respelled(names: EnumNames, suffix: string, replacement: string): EnumNames {
  return Object.freeze(Object.fromEntries(Object.entries(names).map(([value, name]) => [value, name.replace(suffix, replacement)])));
}
