/**
 * Which namespaces a flags-as-code document names, and the same text made about another namespace: the import dialog
 * offers to import a document exported from one namespace into another, as Flipt's `import --namespace` does. Only
 * each `namespace:` value is replaced, by the key alone (a 1.4 document's name and description would otherwise name a
 * new namespace after the old one); everything else stays as written, and the server still reads and checks all of it.
 * The YAML library (which reads JSON too) is loaded the first time a document is looked at.
 */

export interface DocumentNamespaces {
  /** The namespace keys the documents name, without repeats, in order; a document that names none is left out. */
  named: string[];
  /** The text with each document's namespace replaced by `target`. */
  into(target: string): string;
}

/** Past this, the text is not read here (the main thread would stall): the server's refusal still says whose it is. */
const MAX_LOOKED_AT = 2 * 1024 * 1024;

/** Undefined when the text cannot be read here, or names a namespace in a way not understood: the server will say. */
export async function readDocumentNamespaces(text: string): Promise<DocumentNamespaces | undefined> {
  if (!text.trim() || text.length > MAX_LOOKED_AT) return undefined;
  const { parseAllDocuments, isMap, isScalar } = await import('yaml');
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return undefined;
  const named: string[] = [];
  /** Where each named namespace's value is: from the end of the `namespace` key to the end of its value. */
  const places: Array<[number, number]> = [];
  for (const d of documents) {
    if (d.errors.length) return undefined;
    if (!isMap(d.contents)) continue;
    const pair = d.contents.items.find((p) => isScalar(p.key) && p.key.value === 'namespace');
    if (!pair) continue;
    const { key, value } = pair;
    const ns = isScalar(value) ? value.value : isMap(value) ? value.get('key') : undefined;
    if (typeof ns !== 'string' || !isScalar(key) || !key.range || !value || !('range' in value) || !value.range) return undefined;
    if (!named.includes(ns)) named.push(ns);
    places.push([key.range[1], value.range[1]]);
  }
  return {
    named,
    into: (target) =>
      places.reduceRight((out, [from, to]) => {
        // A block mapping's value ends after its last line's line break: keep one.
        const end = text.slice(from, to).endsWith('\n') ? '\n' : '';
        return `${out.slice(0, from)}: ${JSON.stringify(target)}${end}${out.slice(to)}`;
      }, text),
  };
}
