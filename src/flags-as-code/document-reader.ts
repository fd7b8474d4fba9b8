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
import { InvalidError, ValidationError } from '../common/errors';
import { isStorableText, UNSTORABLE_TEXT } from '../common/storable-text';
import { INT32_MAX, isValidKey, MAX_ATTACHMENT_BYTES, MAX_TEXT_LENGTH } from '../common/validation';
import { readSteps, SCHEDULE_TYPES, type ScheduleType, type StepInput } from '../schedules/schedule-steps';
import { validateConstraint } from '../segments/constraint.validation';
import { MAX_KEY_LENGTH } from '../common/validation';
import {
  COMPARISON_TYPES_BY_NAME, FLAG_TYPES_BY_NAME, FlagType, MATCH_TYPES_BY_NAME, MatchType, ROLLOUT_TYPE_NAMES, RolloutType,
  SEGMENT_OPERATORS_BY_NAME, SegmentOperator,
} from '../wire';
import {
  DEFAULT_NAMESPACE, DOCUMENT_VERSIONS, LATEST_DOCUMENT_VERSION, SCHEDULES_KEY, type DocumentConstraint, type DocumentFlag,
  type DocumentRollout, type DocumentRule, type DocumentSchedule, type DocumentSegment, type DocumentVariant,
  type DocumentVersion, type NamespaceDocument,
} from './document';
import { carefulTrees, DocumentError, formatPath, quickTrees, type PathItem, type Tree } from './document-tree';

export { DocumentError } from './document-tree';

export interface ReadOptions {
  /** Names the text in messages (a file name); messages say only line and column without it. */
  source?: string;
  /** Most nodes the text's YAML aliases may stand for (`limits.max_yaml_alias_nodes`; its default when absent). */
  maxAliasNodes?: number;
  /** The namespace of a document that names none (Flipt: `default`). */
  defaultNamespace?: string;
  /** Read carefully even when the quick way would do (tests compare the two). */
  careful?: boolean;
  /**
   * Accept Flagpole's `x-flagpole-schedules` (an import), each schedule's steps at most this many
   * (`schedules.max_steps`). Absent: the key is refused, as where flag state is read-only (declarative storage,
   * `validate`) and schedules cannot exist.
   */
  maxScheduleSteps?: number;
}

/**
 * The namespace documents in `text`, in order. Empty text holds none. Read quickly when the text allows
 * (document-tree.ts), and carefully, naming the place, when it does not or when anything is wrong with it.
 */
export function readDocuments(source: string, options: ReadOptions = {}): NamespaceDocument[] {
  // YAML takes a bare CR for a line break, as js-yaml (the quick reading) does and the `yaml` library (the careful
  // one) does not: both read it as LF, so that both read the same documents. One character for one: places hold.
  const text = source.includes('\r') ? source.replace(/\r(?!\n)/g, '\n') : source;
  const quick = options.careful ? null : quickTrees(text, options);
  if (quick) {
    try {
      return readTrees(quick, options);
    } catch (e) {
      if (!(e instanceof DocumentError)) throw e;
      // Read again carefully: its message names the line and column.
    }
  }
  return readTrees(carefulTrees(text, options), options);
}

function readTrees(trees: readonly Tree[], options: ReadOptions): NamespaceDocument[] {
  const documents: NamespaceDocument[] = [];
  let streamVersion: DocumentVersion | undefined;
  for (const tree of trees) {
    const read = readDocument(tree, streamVersion, options);
    if (read === null) continue;
    streamVersion ??= read.version;
    documents.push(read.document);
  }
  return documents;
}

/**
 * `value` with an `at` naming where `c` points, worked out when first asked for (a quick reading finds places only
 * by reading the text again). Not enumerable: not part of what the document says.
 */
function located<T extends object>(value: T, c: Cursor): T {
  let at: string | undefined;
  Object.defineProperty(value, 'at', { get: () => (at ??= c.at), enumerable: false, configurable: true });
  return value;
}

/**
 * One node of the document and how to reach it. Getters read a field of a mapping and check its type; anything
 * wrong throws a DocumentError at the field.
 */
class Cursor {
  constructor(
    private readonly tree: Tree,
    readonly node: unknown,
    readonly path: readonly PathItem[],
  ) {}

  get at(): string {
    return this.tree.describe(this.node, this.path, true);
  }

  /** `at` without the source's name. */
  get position(): string {
    return this.tree.describe(this.node, this.path, false);
  }

  fail(message: string): never {
    throw new DocumentError(`${this.at}: ${message}`);
  }

  isMap(): boolean {
    return this.tree.kind(this.node) === 'map';
  }

  isNull(): boolean {
    return this.tree.kind(this.node) === 'null';
  }

  /** The mapping this cursor points at, refusing fields not in `known`. */
  map(known: readonly string[]): void {
    if (!this.isMap()) this.fail('must be a mapping');
    for (const { name, node } of this.tree.keys(this.node)) {
      if (typeof name !== 'string' || !known.includes(name)) {
        new Cursor(this.tree, node, this.path).fail(`unknown field ${JSON.stringify(name)}; expected one of ${known.join(', ')}`);
      }
    }
  }

  field(name: string): Cursor | undefined {
    if (!this.isMap()) return undefined;
    const value = this.tree.get(this.node, name);
    // `field:` with nothing after it is null: the same as not writing the field.
    if (value === undefined || this.tree.kind(value) === 'null') return undefined;
    return new Cursor(this.tree, value, [...this.path, name]);
  }

  has(name: string): boolean {
    return this.field(name) !== undefined;
  }

  /**
   * A string field. YAML scalars that are not strings (`value: 42`, `key: 2024`) are read as written, as Go's YAML
   * decoder reads them into a string field. Every string is held to the API's rule for text (storable-text.ts).
   */
  string(name: string, required = false): string {
    const f = this.field(name);
    if (!f) {
      if (required) this.fail(`${name} must not be empty`);
      return '';
    }
    if (this.tree.kind(f.node) !== 'scalar') return f.fail('must be a string');
    const { value, source } = this.tree.scalar(f.node);
    const text = typeof value === 'string' ? value : (source ?? String(value));
    if (required && text === '') f.fail('must not be empty');
    if (!isStorableText(text)) f.fail(UNSTORABLE_TEXT);
    return text;
  }

  bool(name: string): boolean {
    const f = this.field(name);
    if (!f) return false;
    const value = this.tree.kind(f.node) === 'scalar' ? this.tree.scalar(f.node).value : undefined;
    if (typeof value !== 'boolean') return f.fail('must be true or false');
    return value;
  }

  number(name: string): number | undefined {
    const f = this.field(name);
    if (!f) return undefined;
    const value = this.tree.kind(f.node) === 'scalar' ? this.tree.scalar(f.node).value : undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return f.fail('must be a number');
    return value;
  }

  /** Item `i` of the list this cursor points at; undefined when there is none. */
  item(i: number): Cursor | undefined {
    if (this.tree.kind(this.node) !== 'seq') return undefined;
    const node = this.tree.items(this.node)[i];
    return node === undefined ? undefined : new Cursor(this.tree, node, [...this.path, i]);
  }

  list(name: string): Cursor[] {
    const f = this.field(name);
    if (!f) return [];
    if (this.tree.kind(f.node) !== 'seq') return f.fail('must be a list');
    return this.tree.items(f.node).map((item, i) => new Cursor(this.tree, item, [...f.path, i]));
  }

  strings(name: string): string[] {
    return this.list(name).map((c) => {
      const value = this.tree.kind(c.node) === 'scalar' ? this.tree.scalar(c.node).value : undefined;
      if (typeof value !== 'string' || value === '') return c.fail('must be a non-empty string');
      if (!isStorableText(value)) c.fail(UNSTORABLE_TEXT);
      return value;
    });
  }

  /** Any value, as plain JSON data (aliases were bounded when the text was read). */
  json(name: string): unknown {
    const f = this.field(name);
    if (!f) return undefined;
    let value: unknown;
    try {
      value = this.tree.toJS(f.node);
    } catch (e) {
      return f.fail((e as Error).message);
    }
    // JSON has no infinity or NaN: `.inf` would be stored as null.
    if (!finiteThroughout(value)) f.fail('numbers must be finite (JSON has no .inf or .nan)');
    return value;
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

function readDocument(tree: Tree, streamVersion: DocumentVersion | undefined, options: ReadOptions): { document: NamespaceDocument; version: DocumentVersion } | null {
  const root = new Cursor(tree, tree.root, []);
  if (root.isNull()) return null; // an empty document (`---` alone)
  // Flagpole's extension key is named among the fields only where it is read (imports); elsewhere it is refused by name.
  const maxSteps = options.maxScheduleSteps;
  const schedules = root.field(SCHEDULES_KEY);
  if (schedules && maxSteps === undefined) {
    schedules.fail('scheduled changes are not read here: flag state served from files (storage.type local or git) is read-only, '
      + 'and has none; remove the key, or import the document into a database-backed Flagpole');
  }
  root.map(maxSteps === undefined ? DOCUMENT_FIELDS : [...DOCUMENT_FIELDS, SCHEDULES_KEY]);
  const version = parseVersion(root) ?? streamVersion ?? LATEST_DOCUMENT_VERSION;

  const namespace = readNamespace(root, version, options.defaultNamespace ?? DEFAULT_NAMESPACE);
  const segmentCursors = root.list('segments');
  const segments = segmentCursors.map((c) => readSegment(c));
  unique(segments, segmentCursors, 'segment');
  const flagCursors = root.list('flags');
  const flags = flagCursors.map((c) => readFlag(c, version));
  unique(flags, flagCursors, 'flag');
  const document: NamespaceDocument = { namespace, flags, segments };
  if (schedules && maxSteps !== undefined) document.schedules = readSchedules(root, flags, maxSteps);
  return { document: located(document, root), version };
}

function readNamespace(root: Cursor, version: DocumentVersion, fallback: string): NamespaceDocument['namespace'] {
  const c = root.field('namespace');
  if (!c) return { key: fallback, name: fallback === DEFAULT_NAMESPACE ? 'Default' : fallback, description: '' };
  if (c.isMap()) {
    root.gate('namespace', '1.4', version, 'namespace (as key, name and description)');
    c.map(NAMESPACE_FIELDS);
    const key = checkKey(c, 'key');
    return { key, name: text(c, 'name', MAX_KEY_LENGTH) || key, description: text(c, 'description', MAX_TEXT_LENGTH) };
  }
  const key = checkKey(root, 'namespace');
  return { key, name: key === DEFAULT_NAMESPACE ? 'Default' : key, description: '' };
}

function readFlag(c: Cursor, version: DocumentVersion): DocumentFlag {
  c.map(FLAG_FIELDS);
  c.gate('type', '1.1', version, 'flag.type');
  c.gate('rollouts', '1.1', version, 'flag.rollouts');
  c.gate('metadata', '1.3', version, 'flag.metadata');
  const key = checkKey(c, 'key');
  const type = c.enumName('type', FLAG_TYPES_BY_NAME, FlagType.VARIANT);
  const metadata = c.json('metadata');
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    c.field('metadata')!.fail('must be a mapping');
  }
  const variantCursors = c.list('variants');
  const variants = variantCursors.map((v) => readVariant(v, version));
  unique(variants, variantCursors, 'variant');
  const defaults = variantCursors.filter((v) => v.bool('default'));
  // Flipt makes the last variant marked default the default; two marked is a mistake in a file.
  if (defaults.length > 1) defaults[1].field('default')!.fail('only one variant can be the default');
  const defaultVariant = defaults.length === 1 ? defaults[0].string('key') : null;

  const variantKeys = new Set(variants.map((v) => v.key));
  const rules = c.list('rules').map((r, i) => readRule(r, i, variantKeys, key));
  const rollouts = c.list('rollouts').map((r) => readRollout(r, version));
  return located({
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
  }, c);
}

function readVariant(c: Cursor, version: DocumentVersion): DocumentVariant {
  c.map(VARIANT_FIELDS);
  c.gate('default', '1.3', version, 'variant.default');
  const key = checkKey(c, 'key', false);
  const value = c.json('attachment');
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
  if (segment.isMap()) {
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
  // The API's rank is an int32 (dto-fields.ts IntField): 1e300 is a whole number too.
  if (rank !== undefined && rank > INT32_MAX) c.field('rank')!.fail(`is out of range (at most ${INT32_MAX})`);

  const distributions = c.list('distributions').map((d) => {
    d.map(DISTRIBUTION_FIELDS);
    const variant = d.string('variant', true);
    if (!variants.has(variant)) d.field('variant')!.fail(`flag ${JSON.stringify(flagKey)} has no variant ${JSON.stringify(variant)}`);
    return { variant, rollout: percentage(d, 'rollout') };
  });
  return located({ segmentKeys, segmentOperator, rank: rank || index + 1, distributions }, c);
}

function readRollout(c: Cursor, version: DocumentVersion): DocumentRollout {
  c.map(ROLLOUT_FIELDS);
  const description = text(c, 'description', MAX_TEXT_LENGTH);
  const segment = c.field('segment');
  const threshold = c.field('threshold');
  if (segment && threshold) c.fail('a rollout has a segment or a threshold, not both');
  if (threshold) {
    threshold.map(THRESHOLD_FIELDS);
    return located({ description, threshold: { percentage: percentage(threshold, 'percentage'), value: threshold.bool('value') } }, c);
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
  return located({
    description,
    segment: { segmentKeys, segmentOperator: segmentKeys.length === 1 ? SegmentOperator.OR : operator, value: segment.bool('value') },
  }, c);
}

function readSegment(c: Cursor): DocumentSegment {
  c.map(SEGMENT_FIELDS);
  const key = checkKey(c, 'key');
  const constraints = c.list('constraints').map((k) => readConstraint(k, key));
  return located({
    key,
    name: text(c, 'name', MAX_KEY_LENGTH, true),
    description: text(c, 'description', MAX_TEXT_LENGTH),
    matchType: c.enumName('match_type', MATCH_TYPES_BY_NAME, MatchType.ALL),
    constraints,
  }, c);
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

const SCHEDULE_FIELDS = ['flag', 'type', 'rollout', 'rule', 'description', 'paused', 'steps'];
const STEP_FIELDS = ['at', 'deadline', 'enabled', 'percentage', 'value', 'distributions'];
const SHARE_FIELDS = ['variant', 'rollout'];

/**
 * `x-flagpole-schedules`: each schedule's target must be a flag of this document, and a rollout or rule of that flag
 * of the kind its type changes, named by rank (ids do not survive an import). Steps are checked by the API's own
 * function (schedule-steps.ts), its messages placed at the document's line and path.
 */
function readSchedules(root: Cursor, flags: readonly DocumentFlag[], maxSteps: number): DocumentSchedule[] {
  const byKey = new Map(flags.map((f) => [f.key, f]));
  return root.list(SCHEDULES_KEY).map((c) => readSchedule(c, byKey, maxSteps));
}

function readSchedule(c: Cursor, flags: Map<string, DocumentFlag>, maxSteps: number): DocumentSchedule {
  c.map(SCHEDULE_FIELDS);
  const flagKey = c.string('flag', true);
  const flag = flags.get(flagKey);
  if (!flag) return c.field('flag')!.fail(`the document has no flag ${JSON.stringify(flagKey)}`);
  const type = c.string('type', true) as ScheduleType;
  if (!SCHEDULE_TYPES.includes(type)) c.field('type')!.fail(`${JSON.stringify(type)} is not one of ${SCHEDULE_TYPES.join(', ')}`);
  const byRollout = type === 'ROLLOUT_THRESHOLD' || type === 'ROLLOUT_SEGMENT';
  const byRule = type === 'RULE_DISTRIBUTIONS';
  if (!byRollout && c.has('rollout')) c.field('rollout')!.fail(`is not used by a ${type} schedule`);
  if (!byRule && c.has('rule')) c.field('rule')!.fail(`is not used by a ${type} schedule`);
  const schedule: DocumentSchedule = { flag: flagKey, type, description: text(c, 'description', MAX_TEXT_LENGTH), paused: c.bool('paused'), steps: [] };
  let rule: DocumentRule | undefined;
  if (byRollout) {
    const rank = scheduleRank(c, 'rollout');
    const rollout = flag.rollouts[rank - 1];
    if (!rollout) c.field('rollout')!.fail(`flag ${JSON.stringify(flagKey)} has no rollout of rank ${rank} (it has ${flag.rollouts.length})`);
    const wanted = type === 'ROLLOUT_THRESHOLD' ? RolloutType.THRESHOLD : RolloutType.SEGMENT;
    const actual = rollout.threshold ? RolloutType.THRESHOLD : RolloutType.SEGMENT;
    if (actual !== wanted) {
      c.field('rollout')!.fail(`rollout ${rank} of flag ${JSON.stringify(flagKey)} is a ${ROLLOUT_TYPE_NAMES[actual]} rollout, not ${ROLLOUT_TYPE_NAMES[wanted]}`);
    }
    schedule.rolloutIndex = rank - 1;
  }
  if (byRule) {
    const rank = scheduleRank(c, 'rule');
    const ranked = flag.rules.filter((r) => r.rank === rank);
    if (ranked.length === 0) c.field('rule')!.fail(`flag ${JSON.stringify(flagKey)} has no rule of rank ${rank}`);
    if (ranked.length > 1) c.field('rule')!.fail(`flag ${JSON.stringify(flagKey)} has ${ranked.length} rules of rank ${rank}: the rank must name one`);
    rule = ranked[0];
    schedule.ruleIndex = flag.rules.indexOf(rule);
  }
  try {
    schedule.steps = readSteps(type, stepInputs(c), maxSteps);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    failAtField(c, e.field, e.reason);
  }
  if (rule) {
    const shared = new Set(rule.distributions.map((d) => d.variant));
    schedule.steps.forEach((step, i) => (step.distributions ?? []).forEach((share, j) => {
      if (!shared.has(share.variantKey)) {
        failAtField(c, `steps[${i}].distributions[${j}].variantKey`, `rule ${rule!.rank} of flag ${JSON.stringify(flagKey)} has no distribution for variant ${JSON.stringify(share.variantKey)}`);
      }
    }));
  }
  return located(schedule, c);
}

function scheduleRank(c: Cursor, name: 'rollout' | 'rule'): number {
  const rank = c.number(name);
  if (rank === undefined) return c.fail(`${name} must not be empty (the ${name}'s rank within the flag)`);
  if (!Number.isInteger(rank) || rank <= 0 || rank > INT32_MAX) c.field(name)!.fail('must be a whole number greater than 0');
  return rank;
}

/** The steps as the API's request would carry them: each field, if written, of its type; values left to readSteps. */
function stepInputs(c: Cursor): StepInput[] | undefined {
  if (!c.has('steps')) return undefined;
  return c.list('steps').map((s) => {
    s.map(STEP_FIELDS);
    const optional = <T>(name: string, read: () => T): T | undefined => (s.has(name) ? read() : undefined);
    return {
      at: optional('at', () => s.string('at')),
      deadline: optional('deadline', () => s.string('deadline')),
      enabled: optional('enabled', () => s.bool('enabled')),
      percentage: s.number('percentage'),
      value: optional('value', () => s.bool('value')),
      distributions: optional('distributions', () => s.list('distributions').map((d) => {
        d.map(SHARE_FIELDS);
        return { variantKey: d.has('variant') ? d.string('variant') : undefined, rollout: d.number('rollout') };
      })),
    };
  });
}

/**
 * Fails at `field` of the API's naming (`steps[1].distributions[0].variantKey`) as written in the document
 * (`variantKey` is a distribution's `variant` there): at the field when it is written, else at the nearest place that
 * is, naming what is missing, as the reader's other messages do.
 */
function failAtField(schedule: Cursor, field: string, reason: string): never {
  const parts = [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1] === 'variantKey' ? 'variant' : m[1]));
  let at = schedule;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = typeof part === 'number' ? at.item(part) : at.field(part);
    if (!next) return at.fail(`${formatPath(parts.slice(i))} ${reason}`);
    at = next;
  }
  return at.fail(reason);
}

function finiteThroughout(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finiteThroughout);
  if (value !== null && typeof value === 'object') return Object.values(value).every(finiteThroughout);
  return true;
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
