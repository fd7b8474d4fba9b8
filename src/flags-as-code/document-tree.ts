/**
 * The text of a flags-as-code input as trees of values for the reader (document-reader.ts) to walk, one per document,
 * two ways:
 *
 * - careful (`carefulTrees`): the `yaml` library's node tree, which knows the line and column of every node, read
 *   through common/bounded-yaml.ts (aliases resolved in one pass, what they stand for bounded by
 *   `limits.max_yaml_alias_nodes`). Every error names its place. About 0.6 MB/s.
 * - quick (`quickTrees`): js-yaml's plain values, about 15× faster, with numbers kept as written (a string field
 *   reads `value: 1.50` as "1.50", as Go's decoder does). Used only for text without anchors or aliases that js-yaml
 *   reads without complaint. Places are found on demand, by reading the text carefully, when something asks for one
 *   (a caller's later message about a flag); the reader itself, on any problem, reads the whole text again carefully
 *   so that its message is the careful one, word for word.
 *
 * Both resolve scalars by YAML 1.2's core schema (what `yaml` does and what Go's yaml.v3 mostly does).
 */
import { load as loadYaml, loadAll as loadAllYaml, CORE_SCHEMA, Type } from 'js-yaml';
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Alias, type Document, type Node } from 'yaml';
import { AliasBudget, isMergeKey, parseYamlStream, plainValue, type BoundedDocument } from '../common/bounded-yaml';
import { InvalidError } from '../common/errors';

/** A document that cannot be read or is not valid: InvalidArgument (400) over HTTP. */
export class DocumentError extends InvalidError {}

export type PathItem = string | number;
export type Kind = 'map' | 'seq' | 'scalar' | 'null';

/** One document's values, whichever way they were read. Nodes are opaque to the reader. */
export interface Tree {
  readonly root: unknown;
  kind(node: unknown): Kind;
  /** A mapping's keys as written (not always strings), each with the node to name in a message about it. */
  keys(node: unknown): Array<{ name: unknown; node: unknown }>;
  /** A mapping's value for `name` (aliases resolved); undefined when there is none. */
  get(node: unknown, name: string): unknown;
  /** A list's items (aliases resolved). */
  items(node: unknown): unknown[];
  /** A scalar's value, and its text as written when it is not a string. */
  scalar(node: unknown): { value: unknown; source?: string };
  /** The node as plain JSON data. */
  toJS(node: unknown): unknown;
  /** "file: document 2, line 7, column 5, flags[0].key" (without "file: " when `withSource` is false). */
  describe(node: unknown, path: readonly PathItem[], withSource: boolean): string;
}

export interface TreeOptions {
  source?: string;
  /** Most nodes the text's aliases may stand for (`limits.max_yaml_alias_nodes`; its default when absent). */
  maxAliasNodes?: number;
}

export const prefix = (source: string | undefined): string => (source ? `${source}: ` : '');
const firstLine = (message: string): string => message.split('\n')[0];

export function formatPath(path: readonly PathItem[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

interface Chunk {
  text: string;
  /** Where the chunk starts in the whole text (JSON objects are read one at a time). */
  lineOffset: number;
  colOffset: number;
}

function chunksOf(text: string): Chunk[] {
  const body = text.replace(/^\uFEFF/, '');
  return looksLikeJson(body) ? jsonChunks(body) : [{ text: body, lineOffset: 0, colOffset: 0 }];
}

/** JSON text, possibly after a `# exported by …` header line (Flipt writes one even into .json files). */
function looksLikeJson(text: string): boolean {
  return /^(\s*#[^\n]*\n)*\s*\{/.test(text);
}

/**
 * Concatenated JSON objects (Flipt's JSON export writes one per line) split into one text each, with where each
 * starts. YAML does not read two flow mappings without `---` between them; each JSON object is valid YAML alone.
 * The scan only tracks strings and brace depth; the YAML parser validates each piece.
 */
function jsonChunks(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let line = 0;
  let lineStart = 0;
  let startLine = 0;
  let startCol = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
    }
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0 && c === '#' && start === -1) {
      // A comment line between objects (the export header).
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end - 1;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) {
        start = i;
        startLine = line;
        startCol = i - lineStart;
      }
    } else if (c === '}' || c === ']') {
      if (--depth === 0) {
        chunks.push({ text: text.slice(start, i + 1), lineOffset: startLine, colOffset: startCol });
        start = -1;
      }
    } else if (depth === 0 && !/\s/.test(c)) {
      // Text between objects: let the YAML parser name it, with everything from here on.
      chunks.push({ text: text.slice(i), lineOffset: line, colOffset: i - lineStart });
      return chunks;
    }
  }
  if (start !== -1) chunks.push({ text: text.slice(start), lineOffset: startLine, colOffset: startCol });
  return chunks;
}

// ---- careful: the `yaml` library's nodes ---------------------------------------------------------------------------

interface NodePair {
  key: unknown;
  value: unknown;
}

const pairsOf = (node: unknown): NodePair[] => (node as { items: NodePair[] }).items;

const isMergePair = (pair: NodePair): boolean => isMergeKey(pair.key);

class NodeTree implements Tree {
  readonly root: unknown;

  constructor(
    doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly offset: { line: number; col: number },
    private readonly source: string | undefined,
    private readonly index: number,
    private readonly aliases: ReadonlyMap<Alias, Node>,
  ) {
    this.root = this.resolve(doc.contents as Node | null);
  }

  private resolve(node: unknown): unknown {
    return isAlias(node) ? (this.aliases.get(node) ?? null) : node;
  }

  kind(node: unknown): Kind {
    if (node === null || node === undefined || (isScalar(node) && node.value === null)) return 'null';
    if (isMap(node)) return 'map';
    if (isSeq(node)) return 'seq';
    return 'scalar';
  }

  /** The mapping's own keys, then those it merges in (`<<: *anchor`) that it does not have itself. */
  keys(node: unknown): Array<{ name: unknown; node: unknown }> {
    const own = pairsOf(node).filter((p) => !isMergePair(p)).map((p) => ({ name: isScalar(p.key) ? p.key.value : String(p.key), node: p.key }));
    const names = new Set(own.map((k) => k.name));
    for (const merged of this.merged(node)) {
      for (const key of this.keys(merged)) {
        if (!names.has(key.name)) {
          names.add(key.name);
          own.push(key);
        }
      }
    }
    return own;
  }

  /** A key's value: the mapping's own, else the first merged mapping's that has it (YAML's merge rules). */
  get(node: unknown, name: string): unknown {
    const pair = pairsOf(node).find((p) => !isMergePair(p) && isScalar(p.key) && p.key.value === name);
    if (pair) return this.resolve(pair.value);
    for (const merged of this.merged(node)) {
      const value = this.get(merged, name);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** The mappings a mapping merges in, in order. */
  private merged(node: unknown): unknown[] {
    return pairsOf(node).filter(isMergePair).flatMap((p) => {
      const value = this.resolve(p.value);
      return (isSeq(value) ? value.items.map((i) => this.resolve(i)) : [value]).filter((m) => isMap(m));
    });
  }

  items(node: unknown): unknown[] {
    return (node as { items: unknown[] }).items.map((item) => this.resolve(item));
  }

  scalar(node: unknown) {
    const s = node as { value: unknown; source?: string };
    return { value: s.value, source: s.source };
  }

  toJS(node: unknown): unknown {
    return plainValue(node, this.aliases);
  }

  /** The node at `path` from the root (for a quick tree's places). */
  at(path: readonly PathItem[]): unknown {
    let node: unknown = this.root;
    for (const step of path) {
      if (node === null || node === undefined) return undefined;
      node = typeof step === 'number' ? (isSeq(node) ? this.items(node)[step] : undefined) : isMap(node) ? this.get(node, step) : undefined;
    }
    return node;
  }

  describe(node: unknown, path: readonly PathItem[], withSource: boolean): string {
    const parts: string[] = [];
    if (this.index > 1) parts.push(`document ${this.index}`);
    const start = (node as Node | null | undefined)?.range?.[0];
    if (start !== undefined) {
      const { line, col } = this.lines.linePos(start);
      parts.push(`line ${line + this.offset.line}, column ${line === 1 ? col + this.offset.col : col}`);
    }
    if (path.length > 0) parts.push(formatPath(path));
    return (withSource ? prefix(this.source) : '') + parts.join(', ');
  }
}

/** Every document of the text, read carefully; a text that does not parse is a DocumentError naming its place. */
export function carefulTrees(text: string, options: TreeOptions): NodeTree[] {
  const out: NodeTree[] = [];
  const aliasBudget = new AliasBudget(options.maxAliasNodes);
  for (const chunk of chunksOf(text)) {
    const lines = new LineCounter();
    let docs: BoundedDocument[];
    try {
      docs = parseYamlStream(chunk.text, { lineCounter: lines, merge: true, aliasBudget });
    } catch (e) {
      // A text with no document whose errors are the answer (the error knows its place); or absurd nesting, which
      // overflows the stack of the composer (it recurses per level).
      const at = (e as { pos?: [number, number] }).pos;
      if (at) {
        const { line, col } = lines.linePos(at[0]);
        throw new DocumentError(`${prefix(options.source)}line ${line + chunk.lineOffset}, column ${line === 1 ? col + chunk.colOffset : col}: ${firstLine((e as Error).message)}`);
      }
      throw new DocumentError(`${prefix(options.source)}cannot be read: ${(e as Error).message}`);
    }
    for (const { doc, aliases } of docs) {
      const error = doc.errors[0];
      if (error) {
        const { line, col } = lines.linePos(error.pos[0]);
        throw new DocumentError(`${prefix(options.source)}line ${line + chunk.lineOffset}, column ${line === 1 ? col + chunk.colOffset : col}: ${firstLine(error.message)}`);
      }
      out.push(new NodeTree(doc, lines, { line: chunk.lineOffset, col: chunk.colOffset }, options.source, out.length + 1, aliases));
    }
  }
  return out;
}

// ---- quick: js-yaml's plain values ---------------------------------------------------------------------------------

/** A number as written: its value, and its text for string fields. */
class WrittenNumber {
  constructor(
    readonly value: number,
    readonly source: string,
  ) {}

  /**
   * As a mapping's key, js-yaml names a number by this (an object without its own tag it would name
   * `[object Object]`): its value, as the careful reading's keys do (`{2024: x}`, `{1.50: x}` → `1.5`).
   */
  get [Symbol.toStringTag](): string {
    return 'WrittenNumber';
  }

  toString(): string {
    return String(this.value);
  }
}

/** YAML 1.2 core schema's numbers, as `yaml` resolves them (js-yaml's own also take `1_000` and `0b1`). */
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

function toNumber(text: string): number {
  if (text.startsWith('0o')) return parseInt(text.slice(2), 8);
  if (text.startsWith('0x')) return parseInt(text.slice(2), 16);
  if (/\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  return Number(text);
}

const numberType = (tag: string, pattern: RegExp) =>
  new Type(tag, {
    kind: 'scalar',
    resolve: (data: string | null) => data !== null && pattern.test(data),
    construct: (data: string) => new WrittenNumber(toNumber(data), data),
    instanceOf: WrittenNumber,
  });

const SCHEMA = CORE_SCHEMA.extend({ implicit: [numberType('tag:yaml.org,2002:int', INT), numberType('tag:yaml.org,2002:float', FLOAT)] });

/** Anchors and aliases are left to the careful reading, which bounds their expansion. */
const ANCHOR_OR_ALIAS = /[&*][^\s,[\]{}'"]/;
/**
 * Keys that are not text where js-yaml and the careful reading name them differently: a collection (`[1, 2]: x`,
 * `{a: 1}: y`), a complex key (`? …`), a null or empty key (`~: x`, `{: x}`). Such text is read carefully. Quoted
 * text that looks like one only costs the quick reading. No two quantifiers here can take the same characters: the
 * text is hostile, and an ambiguous pattern backtracks without end on a long run of spaces.
 */
const ODD_KEYS = /[\]}][ \t]*:(?:\s|$)|(?:^|[\s{,[])\?(?:\s|$)|(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)(?:(?:~|null|Null|NULL)[ \t]*)?:(?:\s|$)/m;

class PlainTree implements Tree {
  constructor(
    readonly root: unknown,
    private readonly index: number,
    private readonly careful: () => NodeTree[],
  ) {}

  kind(node: unknown): Kind {
    if (node === null || node === undefined) return 'null';
    if (Array.isArray(node)) return 'seq';
    if (typeof node === 'object' && !(node instanceof WrittenNumber)) return 'map';
    return 'scalar';
  }

  keys(node: unknown) {
    return Object.keys(node as object).map((name) => ({ name, node: (node as Record<string, unknown>)[name] }));
  }

  get(node: unknown, name: string): unknown {
    return Object.prototype.hasOwnProperty.call(node, name) ? (node as Record<string, unknown>)[name] : undefined;
  }

  items(node: unknown): unknown[] {
    return node as unknown[];
  }

  scalar(node: unknown) {
    return node instanceof WrittenNumber ? { value: node.value, source: node.source } : { value: node };
  }

  toJS(node: unknown): unknown {
    if (node instanceof WrittenNumber) return node.value;
    if (Array.isArray(node)) return node.map((n) => this.toJS(n));
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, this.toJS(v)]));
    }
    return node;
  }

  /** Read carefully (once, for all documents of the text) to find the place. */
  describe(_node: unknown, path: readonly PathItem[], withSource: boolean): string {
    const tree = this.careful()[this.index - 1];
    return tree.describe(tree.at(path), path, withSource);
  }
}

/**
 * Every document of the text read quickly, or null when the text is not for the quick way (anchors or aliases, or
 * anything js-yaml does not read as the careful reader would: let the careful reader say what is wrong).
 */
export function quickTrees(text: string, options: TreeOptions): PlainTree[] | null {
  if (ANCHOR_OR_ALIAS.test(text) || ODD_KEYS.test(text)) return null;
  let careful: NodeTree[] | undefined;
  const carefully = () => (careful ??= carefulTrees(text, options));
  const out: PlainTree[] = [];
  try {
    for (const chunk of chunksOf(text)) {
      const docs = chunk.lineOffset === 0 && chunk.colOffset === 0 && !looksLikeJson(chunk.text)
        ? loadAllYaml(chunk.text, undefined, { schema: SCHEMA, json: false })
        : [loadYaml(chunk.text, { schema: SCHEMA, json: false })];
      for (const doc of docs) out.push(new PlainTree(doc, out.length + 1, carefully));
    }
  } catch {
    return null;
  }
  // No document from a text that holds more than comments (a directive alone, `%YAML` without its version): the
  // careful reader says what is wrong with it, where js-yaml said nothing.
  if (out.length === 0 && /^[ \t]*[^\s#]/m.test(text)) return null;
  return out;
}
