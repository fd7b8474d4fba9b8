/**
 * The flag state that a set of files describes: their documents, read and checked, merged per namespace. Several
 * documents (in one file or several) may describe one namespace; a flag or segment key defined twice in a namespace
 * is refused, naming both places (Flipt keeps the last one silently). Rules and rollouts may name only segments of
 * their namespace's documents. The `default` namespace always exists, empty when no file describes it. Pure.
 */
import { createHash } from 'node:crypto';
import { InvalidError } from '../common/errors';
import { DEFAULT_NAMESPACE, type NamespaceDocument } from '../flags-as-code/document';
import { readDocuments } from '../flags-as-code/document-reader';
import type { StateFile } from './state-files';

export interface DeclarativeState {
  /** By namespace key, in the order first described (`default` first). */
  namespaces: Map<string, NamespaceDocument>;
  /** Per namespace: a digest of what describes it, to write only the namespaces that changed. */
  digests: Map<string, string>;
}

export function buildState(files: readonly StateFile[], read: (file: StateFile) => NamespaceDocument[] = readFile): DeclarativeState {
  const namespaces = new Map<string, NamespaceDocument>([[DEFAULT_NAMESPACE, emptyNamespace()]]);
  const described = new Set<string>();
  const seen = new Map<string, Map<string, { at?: string }>>();
  for (const file of files) {
    for (const doc of read(file)) {
      const key = doc.namespace.key;
      if (!described.has(key)) {
        // The first document to describe a namespace gives its name and description.
        namespaces.set(key, { ...doc, flags: [], segments: [] });
        described.add(key);
      }
      merge(namespaces.get(key)!, doc, seen);
    }
  }
  for (const doc of namespaces.values()) checkReferences(doc);
  const digests = new Map([...namespaces].map(([key, doc]) => [key, digest(doc)]));
  return { namespaces, digests };
}

function readFile(file: StateFile): NamespaceDocument[] {
  return readDocuments(file.text, { source: file.path });
}

function emptyNamespace(): NamespaceDocument {
  return { namespace: { key: DEFAULT_NAMESPACE, name: 'Default', description: 'Default namespace' }, flags: [], segments: [] };
}

/** `seen`: each `<namespace>/<noun>/<key>`'s first definition, so that a key defined twice is found at once. */
function merge(into: NamespaceDocument, doc: NamespaceDocument, seen: Map<string, Map<string, { at?: string }>>): void {
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

/** Flipt's message for a reference to a segment the namespace's files do not define. */
function checkReferences(doc: NamespaceDocument): void {
  const segments = new Set(doc.segments.map((s) => s.key));
  for (const flag of doc.flags) {
    for (const list of [flag.rules, flag.rollouts]) {
      list.forEach((rule, i) => {
        const keys = 'segmentKeys' in rule ? rule.segmentKeys : (rule.segment?.segmentKeys ?? []);
        const missing = keys.find((k) => !segments.has(k));
        if (missing !== undefined) {
          throw new InvalidError(`${rule.at}: flag ${doc.namespace.key}/${flag.key} rule ${i + 1} references unknown segment "${missing}"`);
        }
      });
    }
  }
}

/** What decides the namespace's stored state (not where in the files it was written). */
function digest(doc: NamespaceDocument): string {
  return createHash('sha256').update(JSON.stringify(doc, (k, v) => (k === 'at' ? undefined : v))).digest('base64url');
}
