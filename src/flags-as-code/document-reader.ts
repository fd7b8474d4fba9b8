/**
 * Reads Flipt's flags-as-code documents (versions 1.0 to 1.4) from YAML or JSON text: one document, a YAML stream of
 * several (`---`), or JSON objects one after another (Flipt's JSON export). Every field is checked as the API checks
 * it when the same thing is created through it, and more (unknown fields, duplicate keys, references to variants and
 * within the document); the first problem is thrown as a DocumentError naming its line, column and path, so that a
 * file in a pull request can be fixed where it is wrong. References to segments that are not in the document are
 * left to the caller, which knows what else the namespace holds.
 *
 * Differences from Flipt's reader, on purpose: an unknown enum name or field is refused (Flipt reads an unknown enum
 * name as its zero value and ignores unknown fields); every document's gates use its own `version` (or the first
 * document's when it has none); metadata and a namespace object are gated as Flipt's schema gates them (1.3, 1.4).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, visit, type Alias, type Document, type Node, type YAMLMap } from 'yaml';
import { InvalidError } from '../common/errors';
import { isValidKey, MAX_TEXT_LENGTH } from '../common/validation';
import { validateConstraint } from '../segments/constraint.validation';
import { MAX_KEY_LENGTH } from '../storage/columns';
import {
  COMPARISON_TYPES_BY_NAME, FLAG_TYPES_BY_NAME, FlagType, MATCH_TYPES_BY_NAME, MatchType, SEGMENT_OPERATORS_BY_NAME,
  SegmentOperator,
} from '../wire';
import {
  DEFAULT_NAMESPACE, DOCUMENT_VERSIONS, LATEST_DOCUMENT_VERSION, type DocumentConstraint, type DocumentFlag,
  type DocumentRollout, type DocumentRule, type DocumentSegment, type DocumentVariant, type DocumentVersion,
  type NamespaceDocument,
} from './document';

/** A document that cannot be read or is not valid: InvalidArgument (400) over HTTP. */
export class DocumentError extends InvalidError {}

export interface ReadOptions {
  /** Names the text in messages (a file name); messages say only line and column without it. */
  source?: string;
  /** Most aliases expanded per document (YAML alias bombs). */
  maxAliasCount?: number;
  /** The namespace of a document that names none (Flipt: `default`). */
  defaultNamespace?: string;
}

/** Flipt's variant attachments are bounded as the API bounds them (variants.service.ts). */
export const MAX_ATTACHMENT_BYTES = 1000 * 1024;

/** The namespace documents in `text`, in order. Empty text holds none. */
export function readDocuments(text: string, options: ReadOptions = {}): NamespaceDocument[] {
  const documents: NamespaceDocument[] = [];
  let streamVersion: DocumentVersion | undefined;
  for (const { doc, lines, lineOffset, colOffset, index } of parse(text, options)) {
    const place = new Place(doc, lines, { line: lineOffset, col: colOffset }, options.source, index, aliasTargets(doc, options, index));
    const read = readDocument(place, streamVersion, options);
    if (read === null) continue;
    streamVersion ??= read.version;
    documents.push(read.document);
  }
  return documents;
}

interface ParsedDocument {
  doc: Document.Parsed;
  lines: LineCounter;
  /** Where the text the document was parsed from starts (JSON objects are parsed one at a time). */
  lineOffset: number;
  colOffset: number;
  index: number;
}

/**
 * Each alias of the document and the node it stands for, found in one pass (resolving an alias through the library
 * walks the whole document each time). A document with aliases must also expand within `maxAliasCount` as the
 * library counts expansions (nested aliases multiply): a few kilobytes must not stand for millions of items.
 */
function aliasTargets(doc: Document.Parsed, options: ReadOptions, index: number): Map<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node, target);
    } else if (node && typeof node === 'object' && 'anchor' in node && typeof node.anchor === 'string' && node.anchor) {
      anchors.set(node.anchor, node as Node);
    }
  });
  if (targets.size > 0) {
    try {
      doc.toJS({ maxAliasCount: options.maxAliasCount ?? 100 });
    } catch (e) {
      const where = index > 1 ? `document ${index}: ` : '';
      throw new DocumentError(`${prefix(options.source)}${where}${(e as Error).message} (at most ${options.maxAliasCount ?? 100} alias expansions per document)`);
    }
  }
  return targets;
}

function parse(text: string, options: ReadOptions): ParsedDocument[] {
  const body = text.replace(/^\uFEFF/, '');
  const chunks = looksLikeJson(body) ? jsonChunks(body) : [{ text: body, lineOffset: 0, colOffset: 0 }];
  const out: ParsedDocument[] = [];
  for (const chunk of chunks) {
    const lines = new LineCounter();
    let docs: Document.Parsed[];
    try {
      docs = parseAllDocuments(chunk.text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }) as Document.Parsed[];
    } catch (e) {
      // The composer recurses per level of nesting: absurd nesting overflows the stack.
      throw new DocumentError(`${prefix(options.source)}cannot be read: ${(e as Error).message}`);
    }
    if (!Array.isArray(docs)) continue; // an empty stream
    for (const doc of docs) {
      const error = doc.errors[0];
      if (error) {
        const { line, col } = lines.linePos(error.pos[0]);
        throw new DocumentError(`${prefix(options.source)}line ${line + chunk.lineOffset}, column ${line === 1 ? col + chunk.colOffset : col}: ${firstLine(error.message)}`);
      }
      out.push({ doc, lines, lineOffset: chunk.lineOffset, colOffset: chunk.colOffset, index: out.length + 1 });
    }
  }
  return out;
}

/** JSON text, possibly after a `# exported by …` header line (Flipt writes one even into .json files). */
function looksLikeJson(text: string): boolean {
  return /^(\s*#[^\n]*\n)*\s*\{/.test(text);
}

/**
 * Concatenated JSON objects (Flipt's JSON export writes one per line) split into one text each, with the line each
 * starts on. YAML does not read two flow mappings without `---` between them; each JSON object is valid YAML alone.
 * The scan only tracks strings and brace depth; the YAML parser validates each piece.
 */
function jsonChunks(text: string): Array<{ text: string; lineOffset: number; colOffset: number }> {
  const chunks: Array<{ text: string; lineOffset: number; colOffset: number }> = [];
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

const prefix = (source: string | undefined): string => (source ? `${source}: ` : '');
const firstLine = (message: string): string => message.split('\n')[0];

type PathItem = string | number;

/** Turns a node and its path into "file: document 2, line 7, column 5, flags[0].key". */
class Place {
  constructor(
    readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly offset: { line: number; col: number },
    private readonly source: string | undefined,
    private readonly index: number,
    private readonly aliases: Map<Alias, Node>,
  ) {}

  /** The node an alias stands for (null when its anchor is not defined before it). */
  resolve(alias: Alias): Node | null {
    return this.aliases.get(alias) ?? null;
  }

  describe(node: Node | null | undefined, path: readonly PathItem[], withSource = true): string {
    const parts: string[] = [];
    if (this.index > 1) parts.push(`document ${this.index}`);
    const offset = node?.range?.[0];
    if (offset !== undefined) {
      const { line, col } = this.lines.linePos(offset);
      parts.push(`line ${line + this.offset.line}, column ${line === 1 ? col + this.offset.col : col}`);
    }
    if (path.length > 0) parts.push(formatPath(path));
    return (withSource ? prefix(this.source) : '') + parts.join(', ');
  }
}

function formatPath(path: readonly PathItem[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * One node of the document and how to reach it. Getters read a field of a mapping and check its type; anything
 * wrong throws a DocumentError at the field.
 */
class Cursor {
  constructor(
    private readonly place: Place,
    readonly node: Node | null,
    readonly path: readonly PathItem[],
  ) {}

  get at(): string {
    return this.place.describe(this.node, this.path);
  }

  /** `at` without the source's name. */
  get position(): string {
    return this.place.describe(this.node, this.path, false);
  }

  fail(message: string): never {
    throw new DocumentError(`${this.at}: ${message}`);
  }

  /** The mapping this cursor points at, refusing fields not in `known`. */
  map(known: readonly string[]): YAMLMap {
    const node = this.node;
    if (!isMap(node)) return this.fail('must be a mapping');
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string' || !known.includes(key)) {
        new Cursor(this.place, pair.key as Node, this.path).fail(
          `unknown field ${JSON.stringify(isScalar(pair.key) ? pair.key.value : String(pair.key))}; expected one of ${known.join(', ')}`);
      }
    }
    return node;
  }

  field(name: string): Cursor | undefined {
    const node = this.node;
    if (!isMap(node)) return undefined;
    const value = node.get(name, true) as Node | undefined;
    if (value === undefined) return undefined;
    const resolved = isAlias(value) ? this.place.resolve(value) : value;
    // `field:` with nothing after it is null: the same as not writing the field.
    if (resolved === null || (isScalar(resolved) && resolved.value === null)) return undefined;
    return new Cursor(this.place, resolved, [...this.path, name]);
  }

  has(name: string): boolean {
    return this.field(name) !== undefined;
  }

  /**
   * A string field. YAML scalars that are not strings (`value: 42`, `key: 2024`) are read as written, as Go's YAML
   * decoder reads them into a string field.
   */
  string(name: string, required = false): string {
    const f = this.field(name);
    if (!f) {
      if (required) this.fail(`${name} must not be empty`);
      return '';
    }
    const node = f.node;
    if (!isScalar(node)) return f.fail('must be a string');
    const value = typeof node.value === 'string' ? node.value : (node.source ?? String(node.value));
    if (required && value === '') f.fail('must not be empty');
    return value;
  }

  bool(name: string): boolean {
    const f = this.field(name);
    if (!f) return false;
    const node = f.node;
    if (!isScalar(node) || typeof node.value !== 'boolean') return f.fail('must be true or false');
    return node.value;
  }

  number(name: string): number | undefined {
    const f = this.field(name);
    if (!f) return undefined;
    const node = f.node;
    if (!isScalar(node) || typeof node.value !== 'number' || !Number.isFinite(node.value)) return f.fail('must be a number');
    return node.value;
  }

  list(name: string): Cursor[] {
    const f = this.field(name);
    if (!f) return [];
    const node = f.node;
    if (!isSeq(node)) return f.fail('must be a list');
    return node.items.map((item, i) => {
      const node = isAlias(item) ? this.place.resolve(item) : (item as Node | null);
      return new Cursor(this.place, node, [...f.path, i]);
    });
  }

  strings(name: string): string[] {
    return this.list(name).map((c) => {
      const node = c.node;
      if (!isScalar(node) || typeof node.value !== 'string' || node.value === '') return c.fail('must be a non-empty string');
      return node.value;
    });
  }

  /** Any value, as plain JSON data. */
  json(name: string, maxAliasCount: number): unknown {
    const f = this.field(name);
    if (!f) return undefined;
    try {
      return f.node!.toJS(this.place.doc, { maxAliasCount });
    } catch (e) {
      return f.fail((e as Error).message);
    }
  }

  /** An enum name from Flipt's table (`ALL_MATCH_TYPE`, …), or `fallback` when the field is absent. */
  enumName(name: string, table: Readonly<Record<string, number>>, fallback: number): number {
    const f = this.field(name);
    if (!f) return fallback;
    const value = this.string(name);
    const known = Object.keys(table).filter((n) => !n.startsWith('UNKNOWN'));
    if (!known.includes(value)) f.fail(`${JSON.stringify(value)} is not one of ${known.join(', ')}`);
    return table[value];
  }

  /** Fails at the field when the document's version is older than the field's. */
  gate(name: string, since: DocumentVersion, version: DocumentVersion, label = name): void {
    const f = this.field(name);
    if (f && compareVersions(version, since) < 0) f.fail(`${label} is supported in version >=${since}, found ${version}`);
  }
}

function compareVersions(a: DocumentVersion, b: DocumentVersion): number {
  return DOCUMENT_VERSIONS.indexOf(a) - DOCUMENT_VERSIONS.indexOf(b);
}

/** Flipt reads "1", "v1.4" and "1.4.0" as versions too; the result must be one it knows. */
function parseVersion(c: Cursor): DocumentVersion | undefined {
  if (!c.has('version')) return undefined;
  const raw = c.string('version');
  // Flipt reads an empty version as none.
  if (raw.trim() === '') return undefined;
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(raw.trim());
  const normalized = m && (m[3] === undefined || Number(m[3]) === 0) ? `${Number(m[1])}.${Number(m[2] ?? 0)}` : raw;
  if (!(DOCUMENT_VERSIONS as readonly string[]).includes(normalized)) {
    c.field('version')!.fail(`unsupported version: ${raw} (supported: ${DOCUMENT_VERSIONS.join(', ')})`);
  }
  return normalized as DocumentVersion;
}

const DOCUMENT_FIELDS = ['version', 'namespace', 'flags', 'segments'];
const NAMESPACE_FIELDS = ['key', 'name', 'description'];
const FLAG_FIELDS = ['key', 'name', 'type', 'description', 'enabled', 'metadata', 'variants', 'rules', 'rollouts'];
const VARIANT_FIELDS = ['default', 'key', 'name', 'description', 'attachment'];
const RULE_FIELDS = ['segment', 'rank', 'distributions'];
const RULE_SEGMENT_FIELDS = ['keys', 'operator'];
const DISTRIBUTION_FIELDS = ['variant', 'rollout'];
const ROLLOUT_FIELDS = ['description', 'segment', 'threshold'];
const ROLLOUT_SEGMENT_FIELDS = ['key', 'keys', 'operator', 'value'];
const THRESHOLD_FIELDS = ['percentage', 'value'];
const SEGMENT_FIELDS = ['key', 'name', 'description', 'constraints', 'match_type'];
const CONSTRAINT_FIELDS = ['type', 'property', 'operator', 'value', 'description'];

function readDocument(place: Place, streamVersion: DocumentVersion | undefined, options: ReadOptions): { document: NamespaceDocument; version: DocumentVersion } | null {
  const root = new Cursor(place, (place.doc.contents as Node | null) ?? null, []);
  if (root.node === null || (isScalar(root.node) && root.node.value === null)) return null; // an empty document (`---` alone)
  root.map(DOCUMENT_FIELDS);
  const version = parseVersion(root) ?? streamVersion ?? LATEST_DOCUMENT_VERSION;

  const maxAliasCount = options.maxAliasCount ?? 100;
  const namespace = readNamespace(root, version, options.defaultNamespace ?? DEFAULT_NAMESPACE);
  const segmentCursors = root.list('segments');
  const segments = segmentCursors.map((c) => readSegment(c));
  unique(segments, segmentCursors, 'segment');
  const flagCursors = root.list('flags');
  const flags = flagCursors.map((c) => readFlag(c, version, maxAliasCount));
  unique(flags, flagCursors, 'flag');
  return { document: { namespace, flags, segments, at: root.at }, version };
}

function readNamespace(root: Cursor, version: DocumentVersion, fallback: string): NamespaceDocument['namespace'] {
  const c = root.field('namespace');
  if (!c) return { key: fallback, name: fallback === DEFAULT_NAMESPACE ? 'Default' : fallback, description: '' };
  if (isMap(c.node)) {
    root.gate('namespace', '1.4', version, 'namespace (as key, name and description)');
    c.map(NAMESPACE_FIELDS);
    const key = checkKey(c, 'key');
    return { key, name: text(c, 'name', MAX_KEY_LENGTH) || key, description: text(c, 'description', MAX_TEXT_LENGTH) };
  }
  const key = checkKey(root, 'namespace');
  return { key, name: key, description: '' };
}

function readFlag(c: Cursor, version: DocumentVersion, maxAliasCount: number): DocumentFlag {
  c.map(FLAG_FIELDS);
  c.gate('type', '1.1', version, 'flag.type');
  c.gate('rollouts', '1.1', version, 'flag.rollouts');
  c.gate('metadata', '1.3', version, 'flag.metadata');
  const key = checkKey(c, 'key');
  const type = c.enumName('type', FLAG_TYPES_BY_NAME, FlagType.VARIANT);
  const metadata = c.json('metadata', maxAliasCount);
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    c.field('metadata')!.fail('must be a mapping');
  }
  const variantCursors = c.list('variants');
  const variants = variantCursors.map((v) => readVariant(v, version, maxAliasCount));
  unique(variants, variantCursors, 'variant');
  const defaults = variantCursors.filter((v) => v.bool('default'));
  // Flipt makes the last variant marked default the default; two marked is a mistake in a file.
  if (defaults.length > 1) defaults[1].field('default')!.fail('only one variant can be the default');
  const defaultVariant = defaults.length === 1 ? defaults[0].string('key') : null;

  const variantKeys = new Set(variants.map((v) => v.key));
  const rules = c.list('rules').map((r, i) => readRule(r, i, variantKeys, key));
  const rollouts = c.list('rollouts').map((r) => readRollout(r, version));
  return {
    key,
    name: text(c, 'name', MAX_KEY_LENGTH, true),
    description: text(c, 'description', MAX_TEXT_LENGTH),
    type,
    enabled: c.bool('enabled'),
    metadata: metadata === undefined || Object.keys(metadata as object).length === 0 ? null : (metadata as Record<string, unknown>),
    variants,
    defaultVariant,
    rules,
    rollouts,
    at: c.at,
  };
}

function readVariant(c: Cursor, version: DocumentVersion, maxAliasCount: number): DocumentVariant {
  c.map(VARIANT_FIELDS);
  c.gate('default', '1.3', version, 'variant.default');
  const key = checkKey(c, 'key', false);
  const value = c.json('attachment', maxAliasCount);
  // Stored as Flipt's importer stores it: compact JSON with object keys sorted.
  const attachment = value === undefined || value === null ? null : JSON.stringify(sortKeys(value));
  if (attachment !== null && Buffer.byteLength(attachment, 'utf8') > MAX_ATTACHMENT_BYTES) {
    c.field('attachment')!.fail('must be less than 1000 KB');
  }
  return { key, name: text(c, 'name', MAX_KEY_LENGTH), description: text(c, 'description', MAX_TEXT_LENGTH), attachment };
}

function readRule(c: Cursor, index: number, variants: Set<string>, flagKey: string): DocumentRule {
  c.map(RULE_FIELDS);
  const segment = c.field('segment');
  if (!segment) c.fail('segment must not be empty');
  let segmentKeys: string[];
  let segmentOperator: SegmentOperator = SegmentOperator.OR;
  if (isMap(segment.node)) {
    segment.map(RULE_SEGMENT_FIELDS);
    segmentKeys = segment.strings('keys');
    if (segmentKeys.length === 0) segment.fail('keys must not be empty');
    segmentOperator = segment.enumName('operator', SEGMENT_OPERATORS_BY_NAME, SegmentOperator.OR);
  } else {
    segmentKeys = [c.string('segment', true)];
  }
  segmentKeys.forEach((k) => isValidKey(k) || segment.fail(`segment key ${JSON.stringify(k)} contains invalid characters`));
  // As the API stores a rule: each segment once, and one segment always OR.
  segmentKeys = [...new Set(segmentKeys)];
  if (segmentKeys.length === 1) segmentOperator = SegmentOperator.OR;
  const rank = c.number('rank');
  if (rank !== undefined && (!Number.isInteger(rank) || rank <= 0)) c.field('rank')!.fail('must be a whole number greater than 0');

  const distributions = c.list('distributions').map((d) => {
    d.map(DISTRIBUTION_FIELDS);
    const variant = d.string('variant', true);
    if (!variants.has(variant)) d.field('variant')!.fail(`flag ${JSON.stringify(flagKey)} has no variant ${JSON.stringify(variant)}`);
    return { variant, rollout: percentage(d, 'rollout') };
  });
  return { segmentKeys, segmentOperator, rank: rank || index + 1, distributions, at: c.at };
}

function readRollout(c: Cursor, version: DocumentVersion): DocumentRollout {
  c.map(ROLLOUT_FIELDS);
  const description = text(c, 'description', MAX_TEXT_LENGTH);
  const segment = c.field('segment');
  const threshold = c.field('threshold');
  if (segment && threshold) c.fail('a rollout has a segment or a threshold, not both');
  if (threshold) {
    threshold.map(THRESHOLD_FIELDS);
    return { description, threshold: { percentage: percentage(threshold, 'percentage'), value: threshold.bool('value') }, at: c.at };
  }
  if (!segment) c.fail('a rollout needs a segment or a threshold');
  segment.map(ROLLOUT_SEGMENT_FIELDS);
  segment.gate('keys', '1.2', version, 'flag.rollouts[*].segment.keys');
  if (segment.has('key') && segment.has('keys')) segment.fail('a rollout segment has key or keys, not both');
  const written = segment.has('keys') ? segment.strings('keys') : [segment.string('key', true)];
  if (written.length === 0) segment.field('keys')!.fail('must not be empty');
  written.forEach((k) => isValidKey(k) || segment.fail(`segment key ${JSON.stringify(k)} contains invalid characters`));
  // As the API stores a rollout: each segment once, and one segment always OR.
  const segmentKeys = [...new Set(written)];
  const operator = segment.enumName('operator', SEGMENT_OPERATORS_BY_NAME, SegmentOperator.OR);
  return {
    description,
    segment: { segmentKeys, segmentOperator: segmentKeys.length === 1 ? SegmentOperator.OR : operator, value: segment.bool('value') },
    at: c.at,
  };
}

function readSegment(c: Cursor): DocumentSegment {
  c.map(SEGMENT_FIELDS);
  const key = checkKey(c, 'key');
  const constraints = c.list('constraints').map((k) => readConstraint(k, key));
  return {
    key,
    name: text(c, 'name', MAX_KEY_LENGTH, true),
    description: text(c, 'description', MAX_TEXT_LENGTH),
    matchType: c.enumName('match_type', MATCH_TYPES_BY_NAME, MatchType.ALL),
    constraints,
    at: c.at,
  };
}

function readConstraint(c: Cursor, segmentKey: string): DocumentConstraint {
  c.map(CONSTRAINT_FIELDS);
  const type = c.enumName('type', COMPARISON_TYPES_BY_NAME, 0);
  if (type === 0) c.fail('type must not be empty');
  try {
    return validateConstraint(segmentKey, {
      type, property: c.string('property'), operator: c.string('operator'), value: c.string('value'), description: c.string('description'),
    });
  } catch (e) {
    if (e instanceof InvalidError) c.fail(e.message);
    throw e;
  }
}

/** The value with every object's keys in sorted order (Go's encoding/json writes maps so). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort(byteOrder).map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/** Go's string order: UTF-8 bytes, not UTF-16 units. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A key field: present, Flipt's key pattern, at most 255 characters. */
function checkKey(c: Cursor, name: string, pattern = true): string {
  const key = c.string(name, true);
  if (pattern && !isValidKey(key)) c.field(name)!.fail('contains invalid characters');
  if ([...key].length > MAX_KEY_LENGTH) c.field(name)!.fail(`must be at most ${MAX_KEY_LENGTH} characters`);
  return key;
}

function text(c: Cursor, name: string, max: number, required = false): string {
  const value = c.string(name, required);
  if (value.length > max && [...value].length > max) c.field(name)!.fail(`must be at most ${max} characters`);
  return value;
}

function percentage(c: Cursor, name: string): number {
  const value = c.number(name) ?? 0;
  if (value < 0 || value > 100) c.field(name)!.fail('must be within range [0, 100]');
  return value;
}

/** `items[i]` was read from `cursors[i]`. */
function unique(items: ReadonlyArray<{ key: string }>, cursors: readonly Cursor[], noun: string): void {
  const first = new Map<string, Cursor>();
  items.forEach((item, i) => {
    const seen = first.get(item.key);
    if (seen) cursors[i].fail(`${noun} ${JSON.stringify(item.key)} is defined twice (first at ${seen.position})`);
    first.set(item.key, cursors[i]);
  });
}
