/**
 * Where each part of a read document was in its text (the non-enumerable `at` the reader puts on documents, flags,
 * segments, … for later messages), carried across a process boundary: structured cloning keeps only enumerable
 * properties, so the reading process sends the places beside the documents, by path, and the server puts
 * them back as they were. Free-form values (metadata, attachments) carry no place and are never walked into.
 */
import type { NamespaceDocument } from './document';

export type Place = [path: Array<string | number>, at: string];

/** Every `at` of the documents, each worked out now (the reader works them out lazily), with the path to its object. */
export function placesOf(documents: readonly NamespaceDocument[]): Place[] {
  const places: Place[] = [];
  const visit = (value: unknown, path: Array<string | number>): void => {
    if (value === null || typeof value !== 'object') return;
    const at = Object.getOwnPropertyDescriptor(value, 'at');
    if (at && !at.enumerable) {
      const text = (value as { at?: string }).at;
      if (text !== undefined) places.push([path, text]);
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else for (const [key, item] of Object.entries(value)) if (!FREE_FORM.has(key)) visit(item, [...path, key]);
  };
  documents.forEach((d, i) => visit(d, [i]));
  return places;
}

/** Puts the places back on the cloned documents, not enumerable, as the reader had them. */
export function withPlaces(documents: NamespaceDocument[], places: readonly Place[]): NamespaceDocument[] {
  for (const [path, at] of places) {
    let target: unknown = documents;
    for (const step of path) target = (target as Record<string | number, unknown> | undefined)?.[step];
    if (target !== null && typeof target === 'object') Object.defineProperty(target, 'at', { value: at, enumerable: false, configurable: true });
  }
  return documents;
}

/** Fields whose values are the user's own JSON. */
const FREE_FORM = new Set(['metadata', 'attachment']);
