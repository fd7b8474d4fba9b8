/**
 * Documents about the same namespace merged into one, in order: its flags and segments side by side, the first
 * document's name and description. A flag or segment key defined twice in a namespace is refused, naming both places
 * (Flipt keeps the last one silently). Imports merge before writing, so that each namespace is written in one
 * transaction; declarative storage merges all its files. Pure.
 */
import { InvalidError } from '../common/errors';
import type { NamespaceDocument } from './document';

/** By namespace key, in the order first described. `into` may hold namespaces already (declarative `default`). */
export function mergeDocuments(documents: Iterable<NamespaceDocument>, into = new Map<string, NamespaceDocument>()): Map<string, NamespaceDocument> {
  const described = new Set<string>();
  const seen = new Map<string, Map<string, { at?: string }>>();
  for (const doc of documents) {
    const key = doc.namespace.key;
    if (!described.has(key)) {
      // The first document to describe a namespace gives its name and description (and its place).
      const { schedules: _theirs, ...own } = doc;
      const first: NamespaceDocument = { ...own, flags: [], segments: [] };
      Object.defineProperty(first, 'at', { get: () => doc.at, enumerable: false, configurable: true });
      into.set(key, first);
      described.add(key);
    }
    const merged = into.get(key)!;
    add(merged, doc, seen);
    // Each document's schedules name flags of that document, which the merged one holds too.
    if (doc.schedules) merged.schedules = [...(merged.schedules ?? []), ...doc.schedules];
  }
  return into;
}

/** `seen`: each `<namespace>/<noun>/<key>`'s first definition, so that a key defined twice is found at once. */
function add(into: NamespaceDocument, doc: NamespaceDocument, seen: Map<string, Map<string, { at?: string }>>): void {
  for (const [list, items, noun] of [[into.flags, doc.flags, 'flag'], [into.segments, doc.segments, 'segment']] as const) {
    const where = `${into.namespace.key}\u0000${noun}`;
    let defined = seen.get(where);
    if (!defined) seen.set(where, (defined = new Map()));
    for (const item of items) {
      const earlier = defined.get(item.key);
      // Places only on the way out: a quick reading finds them by reading the text again.
      if (earlier) throw new InvalidError(`${item.at}: ${noun} "${into.namespace.key}/${item.key}" is also defined at ${earlier.at}`);
      defined.set(item.key, item);
      (list as unknown[]).push(item);
    }
  }
}
