/**
 * The flag state that a set of files describes: their documents, read and checked, merged per namespace
 * (flags-as-code/document-merge.ts: a key defined twice is refused). Rules and rollouts may name only segments of
 * their namespace's documents. The `default` namespace always exists, empty when no file describes it. Pure.
 */
import { createHash } from 'node:crypto';
import { InvalidError } from '../common/errors';
import { DEFAULT_NAMESPACE, type NamespaceDocument } from '../flags-as-code/document';
import { mergeDocuments } from '../flags-as-code/document-merge';
import { readDocuments } from '../flags-as-code/document-reader';
import type { StateFile } from './state-files';

export interface DeclarativeState {
  /** By namespace key, in the order first described (`default` first). */
  namespaces: Map<string, NamespaceDocument>;
  /** Per namespace: a digest of what describes it, to write only the namespaces that changed. */
  digests: Map<string, string>;
}

export function buildState(files: readonly StateFile[], read: (file: StateFile) => NamespaceDocument[] = readFile): DeclarativeState {
  const namespaces = mergeDocuments(files.flatMap((file) => read(file)), new Map([[DEFAULT_NAMESPACE, emptyNamespace()]]));
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
