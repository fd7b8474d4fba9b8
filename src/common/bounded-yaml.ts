/**
 * The one way Flagpole reads YAML it did not write (documents to import, declarative storage's files and index, the
 * authorization policy): the `yaml` library's parser, then one pass of our own over its nodes that resolves every
 * alias, counts what the aliases stand for and checks keys, in time proportional to the text.
 *
 * Why not the library alone: its alias resolution scans the document's anchors and aliases for each alias (a 300 KiB
 * text of anchors used 50 times each took 55 s), and `maxAliasCount` bounds each anchor's uses, not their sum. Its
 * `uniqueKeys` check compares each key with every earlier key of the mapping (20,000 keys: 7 s). So the library
 * parses with `uniqueKeys: false` and never resolves an alias; the pass below does both, and `plainValue` turns nodes
 * into plain values through the aliases it resolved.
 */
import {
  isAlias, isMap, isNode, isPair, isScalar, isSeq, parseAllDocuments, parseDocument, YAMLParseError, type Alias, type Document,
  type ErrorCode, type LineCounter, type Node, type Pair,
} from 'yaml';

/** `limits.max_yaml_alias_nodes`'s default: well above hand-written files, far below what a bomb stands for. */
export const DEFAULT_MAX_YAML_ALIAS_NODES = 10_000;

/**
 * What the aliases of one text may stand for, in nodes (mappings, lists, scalars; an alias counts the nodes of what it
 * refers to, aliases in it expanded), shared by the text's documents (and a JSON stream's objects, read one by one).
 */
export class AliasBudget {
  private used = 0;

  constructor(readonly max: number = DEFAULT_MAX_YAML_ALIAS_NODES) {}

  /** False once the aliases read so far stand for more than `max` nodes. */
  spend(nodes: number): boolean {
    this.used += nodes;
    return this.used <= this.max;
  }
}

export interface BoundedYamlOptions {
  aliasBudget?: AliasBudget;
  /** `<<: *anchor` merge keys, as Go's yaml.v3 (and so Flipt) reads them. */
  merge?: boolean;
  lineCounter?: LineCounter;
}

export interface BoundedDocument {
  /** The library's document; `errors` holds the library's problems and the pass's, in the order of the text. */
  readonly doc: Document.Parsed;
  /** Each alias and the node it stands for (refused aliases are not in it). */
  readonly aliases: ReadonlyMap<Alias, Node>;
}

const libraryOptions = (options: BoundedYamlOptions) =>
  ({ prettyErrors: false, uniqueKeys: false, merge: options.merge ?? false, lineCounter: options.lineCounter }) as const;

/** Every document of a YAML stream (`---`). The library's parser recurses per level of nesting: it may throw. */
export function parseYamlStream(text: string, options: BoundedYamlOptions = {}): BoundedDocument[] {
  const docs = parseAllDocuments(text, libraryOptions(options));
  if (!Array.isArray(docs) || docs.length === 0) {
    // An empty stream; one whose text did not parse (a broken directive) carries the errors, which are the answer.
    const [error] = (docs as { errors?: Error[] }).errors ?? [];
    if (error) throw error;
    return [];
  }
  const budget = options.aliasBudget ?? new AliasBudget();
  return (docs as Document.Parsed[]).map((doc) => ({ doc, aliases: checkDocument(doc, budget) }));
}

/** One document (a second one in the text is an error). */
export function parseYaml(text: string, options: BoundedYamlOptions = {}): BoundedDocument {
  const doc = parseDocument(text, libraryOptions(options)) as Document.Parsed;
  return { doc, aliases: checkDocument(doc, options.aliasBudget ?? new AliasBudget()) };
}

interface Frame {
  node: Node;
  children: unknown[];
  next: number;
  /** The node's size with its aliases expanded, so far. */
  size: number;
}

/**
 * One depth-first pass, without recursion (nesting is as deep as the library managed to parse): anchors as they are
 * met (an alias names the last anchor before it, as the library resolves it), each alias's target, the expanded size
 * of every anchored node once it is complete, and duplicate keys. Problems join the document's errors.
 */
function checkDocument(doc: Document.Parsed, budget: AliasBudget): Map<Alias, Node> {
  const aliases = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  /** Anchored nodes being walked: an alias to one of them would contain itself. */
  const open = new Set<Node>();
  const problems: YAMLParseError[] = [];
  const problem = (node: Node, code: ErrorCode, message: string) => {
    const [start, end] = node.range ?? [0, 0];
    problems.push(new YAMLParseError([start, end], code, message));
  };
  let overspent = false;

  const aliasSize = (alias: Alias): number => {
    const target = anchors.get(alias.source);
    if (!target) {
      problem(alias, 'BAD_ALIAS', `Unresolved alias (the anchor must be set before the alias): ${alias.source}`);
      return 0;
    }
    if (open.has(target)) {
      problem(alias, 'BAD_ALIAS', `alias *${alias.source} is inside the node it refers to`);
      return 0;
    }
    aliases.set(alias, target);
    const size = sizes.get(target) ?? 1;
    if (!budget.spend(size) && !overspent) {
      overspent = true;
      problem(alias, 'RESOURCE_EXHAUSTION', `aliases stand for more than ${budget.max} nodes (limits.max_yaml_alias_nodes)`);
    }
    return size;
  };

  const stack: Frame[] = [];
  /** A leaf's size at once; a collection is pushed and counted when complete (undefined). */
  const enter = (value: unknown): number | undefined => {
    if (!isNode(value)) return 0;
    if (isAlias(value)) return aliasSize(value);
    if (value.anchor) anchors.set(value.anchor, value);
    if (isScalar(value)) {
      if (value.anchor) sizes.set(value, 1);
      return 1;
    }
    if (isMap(value)) checkKeys(value.items, problem);
    if (value.anchor) open.add(value);
    const items = (value as { items: unknown[] }).items;
    stack.push({ node: value, children: items.flatMap((item) => (isPair(item) ? [item.key, item.value] : [item])), next: 0, size: 1 });
    return undefined;
  };

  enter(doc.contents);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next < top.children.length) {
      const size = enter(top.children[top.next++]);
      if (size !== undefined) top.size += size;
      continue;
    }
    stack.pop();
    if (top.node.anchor) {
      sizes.set(top.node, top.size);
      open.delete(top.node);
    }
    if (stack.length > 0) stack[stack.length - 1].size += top.size;
  }

  if (problems.length > 0) {
    doc.errors.push(...problems);
    doc.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  }
  return aliases;
}

/** A mapping's scalar keys, each against a set of those before it (the library's check: equal values). */
function checkKeys(pairs: readonly Pair[], problem: (node: Node, code: ErrorCode, message: string) => void): void {
  const seen = new Set<unknown>();
  for (const { key } of pairs) {
    if (!isScalar(key)) continue;
    const value = key.value;
    // Merge keys (`<<`) are each a symbol of their own; NaN equals nothing.
    if (typeof value === 'symbol' || Number.isNaN(value)) continue;
    if (seen.has(value)) problem(key, 'DUPLICATE_KEY', 'Map keys must be unique');
    else seen.add(value);
  }
}

/** `<<` with the `merge` option: its key is a scalar holding a symbol. */
export const isMergeKey = (key: unknown): boolean => isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';

/**
 * A node as plain values (objects, arrays, scalars), aliases resolved through `aliases`, as the library's `toJS` would
 * give it: keys as strings, merge keys merged (keys of the mapping and earlier merges win). Its size is bounded by the
 * budget the aliases were counted against. Throws when a merge names something other than mappings.
 */
export function plainValue(node: unknown, aliases: ReadonlyMap<Alias, Node>): unknown {
  const value = (n: unknown): unknown => plainValue(n, aliases);
  if (isAlias(node)) return value(aliases.get(node) ?? null);
  if (isScalar(node)) return typeof node.value === 'symbol' ? node.value.description : node.value;
  // `[a: 1]`: a pair in a flow list is a one-key mapping.
  if (isSeq(node)) return node.items.map((item) => (isPair(item) ? { [keyText(item.key, aliases)]: value(item.value) } : value(item)));
  if (!isMap(node)) return null;
  const out: Record<string, unknown> = {};
  for (const pair of node.items) {
    if (!isMergeKey(pair.key)) {
      setOwn(out, keyText(pair.key, aliases), value(pair.value));
      continue;
    }
    for (const source of mergeSources(pair.value, aliases)) {
      for (const [k, v] of Object.entries(value(source) as Record<string, unknown>)) {
        if (!Object.prototype.hasOwnProperty.call(out, k)) setOwn(out, k, v);
      }
    }
  }
  return out;
}

function mergeSources(node: unknown, aliases: ReadonlyMap<Alias, Node>): Node[] {
  const resolved = isAlias(node) ? aliases.get(node) : node;
  const sources = isSeq(resolved) ? resolved.items.map((item) => (isAlias(item) ? aliases.get(item) : item)) : [resolved];
  if (!sources.every((s) => isMap(s))) throw new Error('Merge sources must be maps or map aliases');
  return sources as Node[];
}

function keyText(key: unknown, aliases: ReadonlyMap<Alias, Node>): string {
  const resolved = isAlias(key) ? aliases.get(key) : key;
  if (isScalar(resolved)) return resolved.value === null || resolved.value === undefined ? '' : String(resolved.value);
  if (!isNode(resolved)) return '';
  return JSON.stringify(plainValue(resolved, aliases));
}

function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  // An assignment to `__proto__` would set the object's prototype.
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}
