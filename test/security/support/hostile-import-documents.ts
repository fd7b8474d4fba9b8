/**
 * fast-check generators of hostile flags-as-code documents (docs/flags-as-code.md) for the import route: a valid
 * document of some version (test/flags-as-code/fixtures) with its `namespace` and `version` chosen, mutated where it
 * is read (wrong types, numbers out of every range, text a database cannot hold, unknown fields, repeated items,
 * nesting, YAML's own features: anchors and aliases fanning out, tags, merge keys), written as YAML or JSON, then
 * mutated as text (BOM, CRLF, tabs, a stream of documents, directives, truncation, stray characters, invalid UTF-8).
 * Documents stay under 64 KiB: what is hostile about them is their shape, not their size (limits.max_import_bytes has
 * its own test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { hostileKey, hostileText, nested } from './hostile-values';

/** Stands for the path's namespace key in a generated document; replaced when the document is sent. */
export const PATH_NAMESPACE = 'zzpathnamespacezz';
export const MAX_DOCUMENT_BYTES = 64 * 1024;

const FIXTURES = join(__dirname, '../../flags-as-code/fixtures');

/** Valid documents of every version, as plain values: what the mutations start from. */
const VALID_DOCUMENTS: ReadonlyArray<Record<string, unknown>> = [
  ...['v1.0.yml', 'v1.1.yml', 'v1.2.yml', 'v1.3.yml', 'v1.4-complete.yml'].map((f) => parse(readFileSync(join(FIXTURES, f), 'utf8'))),
  { version: '1.4', flags: [{ key: 'solo', name: 'Solo', type: 'BOOLEAN_FLAG_TYPE', enabled: true }] },
];

/** A value set into the document: a plain value, or YAML/JSON text spliced in as written. */
export type Value = { js: unknown } | { raw: string };

export type Mutation =
  | { op: 'set'; path: number[]; value: Value }
  | { op: 'setAt'; at: number; value: Value }
  | { op: 'delete'; path: number[] }
  | { op: 'add'; path: number[]; name: string; value: Value }
  | { op: 'repeat'; path: number[] }
  | { op: 'wrap'; path: number[]; how: 'list' | 'map' | 'text' };

export type TextMutation =
  | { op: 'bom' | 'crlf' | 'cr' | 'tabAfterColon' | 'invalidUtf8' | 'jsonStream' | 'jsonHeader' | 'jsonDuplicateKey' }
  | { op: 'tab' | 'truncate' | 'repeatLine' | 'dropLine'; at: number }
  | { op: 'insert'; at: number; what: string }
  | { op: 'stream'; what: string }
  | { op: 'directive'; what: string };

export interface DocumentRecipe {
  base: number;
  namespace: { js: unknown } | { raw: string } | 'keep' | 'absent';
  version: { js: unknown } | 'keep' | 'absent';
  mutations: Mutation[];
  format: 'yaml' | 'json';
  text: TextMutation[];
  contentType: string;
}

/** Places the reader checks closely: metadata and attachments are free-form, the others typed and bounded. */
const PLACES: ReadonlyArray<ReadonlyArray<string | number>> = [
  ['flags', 0, 'metadata'], ['flags', 0, 'variants', 0, 'attachment'], ['flags', 0, 'key'], ['flags', 0, 'name'],
  ['flags', 0, 'type'], ['flags', 0, 'enabled'], ['flags', 0, 'description'], ['flags', 0, 'variants', 0, 'key'],
  ['flags', 0, 'variants', 0, 'default'], ['flags', 0, 'rules', 0, 'segment'], ['flags', 0, 'rules', 0, 'rank'],
  ['flags', 0, 'rules', 0, 'distributions', 0, 'rollout'], ['flags', 0, 'rules', 0, 'distributions', 0, 'variant'],
  ['flags', 0, 'rollouts', 0, 'threshold', 'percentage'], ['flags', 0, 'rollouts', 0, 'segment', 'keys'],
  ['flags', 0, 'rollouts', 0, 'segment', 'operator'], ['segments', 0, 'constraints', 0, 'value'],
  ['segments', 0, 'constraints', 0, 'operator'], ['segments', 0, 'constraints', 0, 'type'], ['segments', 0, 'match_type'],
  ['segments', 0, 'key'], ['namespace'], ['version'], ['flags'], ['segments'],
];

// ---- values ------------------------------------------------------------------------------------------------------

/** YAML (and JSON) scalars and flow collections, single-line, spliced in as written. */
const YAML_FRAGMENTS = [
  // numbers: out of every range, and spellings only some readers take
  '1e300', '-1e300', '1e400', '-1e400', '-0', '0x10', '0o17', '0b1', '1_000', '012', '+1', '.5', '5.', '.inf', '-.Inf', '.nan',
  '9007199254740993', '123456789012345678901234567890', '2147483648', '-2147483649', '4294967296', '5e-324', '1.5', '99.999',
  // tags: YAML 1.1's, other languages', unknown ones
  '!!binary aGVsbG8=', '!!binary "AAAA"', '!!python/object:os.system ls', '!!python/object/apply:os.system ["ls"]',
  '!!js/function "function(){return 1}"', '!!js/undefined ""', '!!js/regexp /a/', '!!timestamp 2001-12-14',
  '!!set {a, b}', '!!omap [a: 1, b: 2]', '!!pairs [a: 1]', '!!int abc', '!!float x', '!!bool maybe', '!!null x', '!!str 1',
  '!!map {}', '!!seq []', '!custom x', '!<tag:yaml.org,2002:str> 1', '!<!> x', '! x', '!!binary', '!e!x y',
  // anchors and aliases
  '*nowhere', '&a x', '&a [1, *a]', '&b {a: 1}', '{a: &x [1, 2], b: *x}', '[&s x, *s, *s]', '{&k a: 1, *k : 2}',
  '{? [1, 2] : x}', '{? {a: 1} : y}', '[a: 1, b: 2]', '{2024: x}', '{1.5: x, 2: y}', '{[1, 2]: x}', '{{a: 1}: y}', '{null: x}', '{[]: x}',
  // merge keys
  '{<<: {a: 1}, b: 2}', '{<<: [{a: 1}, {b: 2}]}', '{<<: x}', '{<<: *nowhere}', '{<<: [1, 2]}', '{<<: null}',
  '{<<: {key: merged, name: Merged}}', '[&m {key: m1, name: M}, {<<: *m, key: m2}]',
  // strings YAML escapes can spell: NUL, lone surrogates, line separators
  '"\\0"', '"a\\x00b"', '"\\ud800"', '"x\\udfff"', '"\\N\\_\\L\\P"', '"\\U0010FFFF"', '"\\U00110000"', "'it''s'", '"\\e"',
  // other scalars
  'null', '~', '', 'true', 'yes', 'no', 'on', 'off', 'y', 'n', 'NULL', 'True', '[]', '{}', '[null]', '{"": ""}', '[[]]',
  '2024-01-01', '2024-01-01T00:00:00Z', '12:30:00', '<<', '?', '-', '|', '>', '&', '*', '!', '%', '@x', '`x`',
];

/** Anchors each used `fanout` times, `levels` deep: small text standing for fanout^levels nodes. */
function aliasFanOut(levels: number, fanout: number): string {
  const parts = [`l0: &a0 [${Array(fanout).fill('x').join(', ')}]`];
  for (let i = 1; i < levels; i++) parts.push(`l${i}: &a${i} [${Array(fanout).fill(`*a${i - 1}`).join(', ')}]`);
  return `{${parts.join(', ')}}`;
}

const longText = fc.constantFrom(255, 256, 1000, 1001, 20_000).map((n) => 'k'.repeat(n));

export const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  { arbitrary: hostileText.filter((s) => s.length <= 2000).map((js) => ({ js })), weight: 4 },
  { arbitrary: longText.map((js) => ({ js })), weight: 1 },
  { arbitrary: fc.constantFrom(-1, 0, 1, 1.5, -0.5, 100, 101, 2147483647, 2147483648, -2147483649, 1e300, -1e300, 5e-324, Number.MAX_SAFE_INTEGER).map((js) => ({ js })), weight: 2 },
  { arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}, [null], { '': '' }, ['a', 1, {}], { a: { b: [1] } }).map((js) => ({ js })), weight: 2 },
  { arbitrary: fc.constantFrom(...YAML_FRAGMENTS).map((raw) => ({ raw })), weight: 6 },
  { arbitrary: fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 2, max: 12 })).map(([l, f]) => ({ raw: aliasFanOut(l, f) })), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom(10, 63, 64, 65, 200, 3000, 15_000), fc.constantFrom('array' as const, 'object' as const)).map(([d, k]) => ({ raw: nested(d, k) })), weight: 1 },
);

const fieldName = fc.oneof(
  fc.constantFrom('key', 'name', 'description', 'unknown', 'Key', 'KEY', 'weight', 'rank', 'segment', 'namespace', 'flags', 'version', 'default', 'id', '<<', '?', ''),
  hostileKey,
);

const path = fc.array(fc.nat(), { minLength: 1, maxLength: 7 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('set' as const), path, value: hostileValue }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('setAt' as const), at: fc.nat(), value: hostileValue }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), path }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('add' as const), path, name: fieldName, value: hostileValue }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('repeat' as const), path }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('wrap' as const), path, how: fc.constantFrom('list' as const, 'map' as const, 'text' as const) }), weight: 1 },
);

export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.constantFrom<TextMutation>(
    { op: 'bom' }, { op: 'crlf' }, { op: 'cr' }, { op: 'tabAfterColon' }, { op: 'invalidUtf8' }, { op: 'jsonStream' }, { op: 'jsonHeader' },
    { op: 'jsonDuplicateKey' },
  ),
  fc.record({ op: fc.constantFrom('tab' as const, 'truncate' as const, 'repeatLine' as const, 'dropLine' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    what: fc.constantFrom('\u0000', '\ufeff', '\t', ':', '- ', '[', '{', '"', "'", '&a ', '*a', '!!binary ', '|', '>', '#', '%', '@',
      '`', '\u2028', '\u0085', '\ud800', '\n---\n', '\n...\n', '? ', '<<: ', '\\', '\r', '\u00a0'),
  }),
  fc.record({
    op: fc.constant('stream' as const),
    what: fc.constantFrom('same', 'other', '---\n', '\n...\n', '---\nversion: "1.4"\nflags: []\n', '---\nnull\n', '--- []\n', '---\n- a\n'),
  }),
  fc.record({
    op: fc.constant('directive' as const),
    what: fc.constantFrom('%YAML 1.1\n---\n', '%YAML 1.2\n---\n', '%YAML 2.0\n---\n', '%TAG !e! tag:evil.example,2000:\n---\n', '--- !!map\n', '---\n', '...\n'),
  }),
);

const namespaceField = fc.oneof(
  { arbitrary: fc.constant<DocumentRecipe['namespace']>({ js: PATH_NAMESPACE }), weight: 6 },
  { arbitrary: fc.constant<DocumentRecipe['namespace']>({ js: { key: PATH_NAMESPACE, name: 'Fuzzed', description: 'fuzzed namespace' } }), weight: 1 },
  { arbitrary: fc.constant<DocumentRecipe['namespace']>('absent'), weight: 3 },
  { arbitrary: fc.constant<DocumentRecipe['namespace']>('keep'), weight: 1 },
  {
    arbitrary: fc.constantFrom<DocumentRecipe['namespace']>(
      { js: 'other-namespace' }, { js: { key: 'other-namespace' } }, { js: { key: PATH_NAMESPACE.toUpperCase() } }, { js: { name: 'No key' } },
      { js: `${PATH_NAMESPACE} ` }, { js: [PATH_NAMESPACE] }, { js: { key: PATH_NAMESPACE, name: '' } }, { js: 'default' },
    ),
    weight: 2,
  },
  { arbitrary: hostileValue.map((v): DocumentRecipe['namespace'] => v), weight: 1 },
);

const versionField = fc.oneof(
  { arbitrary: fc.constant<DocumentRecipe['version']>('keep'), weight: 5 },
  { arbitrary: fc.constant<DocumentRecipe['version']>('absent'), weight: 1 },
  {
    arbitrary: fc.constantFrom<unknown>('1.0', '1.1', '1.2', '1.3', '1.4', 1.4, 1, 'v1.4', '1.4.0', '2.0', '1', '', '1.4 ', null, [], '1.40')
      .map((js): DocumentRecipe['version'] => ({ js })),
    weight: 2,
  },
);

const CONTENT_TYPES = {
  yaml: 'application/yaml',
  json: 'application/json',
  other: ['application/x-yaml', 'text/yaml', 'text/plain', 'application/json; charset=utf-8', 'application/yaml; charset=latin1',
    'application/octet-stream', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'garbage'],
};

export const hostileDocument: fc.Arbitrary<DocumentRecipe> = fc.record({
  base: fc.nat({ max: VALID_DOCUMENTS.length - 1 }),
  namespace: namespaceField,
  version: versionField,
  mutations: fc.oneof({ arbitrary: fc.constant([] as Mutation[]), weight: 1 }, { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }), weight: 3 }),
  format: fc.constantFrom('yaml' as const, 'yaml' as const, 'json' as const),
  text: fc.oneof({ arbitrary: fc.constant([] as TextMutation[]), weight: 1 }, { arbitrary: fc.array(textMutation, { minLength: 1, maxLength: 2 }), weight: 1 }),
  contentType: fc.oneof({ arbitrary: fc.constant('match'), weight: 5 }, { arbitrary: fc.constantFrom(CONTENT_TYPES.yaml, CONTENT_TYPES.json, ...CONTENT_TYPES.other), weight: 1 }),
});

// ---- building the text ---------------------------------------------------------------------------------------------

const rawMarker = (i: number) => `zzraw${i}zz`;

/** The node `path` leads to (each number picks among a mapping's keys or a list's items), as its parent and key. */
function walk(doc: Record<string, unknown>, steps: readonly number[]): { parent: any; key: string | number } | null {
  let parent: any = null;
  let key: string | number = '';
  let node: any = doc;
  for (const step of steps) {
    if (Array.isArray(node) && node.length > 0) key = step % node.length;
    else if (node !== null && typeof node === 'object' && Object.keys(node).length > 0) key = Object.keys(node)[step % Object.keys(node).length];
    else break;
    parent = node;
    node = node[key];
  }
  return parent === null ? null : { parent, key };
}

/** The place `at` names, created along the way where the document lacks it. */
function place(doc: Record<string, unknown>, at: number): { parent: any; key: string | number } {
  const steps = PLACES[at % PLACES.length];
  let node: any = doc;
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i];
    if (node[step] === null || typeof node[step] !== 'object') node[step] = typeof steps[i + 1] === 'number' ? [{}] : {};
    node = node[step];
    if (Array.isArray(node) && node.length === 0) node.push({});
  }
  return { parent: node, key: steps[steps.length - 1] };
}

function setOwn(target: any, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

/** The document's text, the path namespace still a marker. */
export function documentText(recipe: DocumentRecipe): { body: string | Uint8Array; contentType: string } {
  const doc = structuredClone(VALID_DOCUMENTS[recipe.base]) as Record<string, unknown>;
  const raws: string[] = [];
  const valueOf = (v: Value): unknown => ('raw' in v ? (raws.push(v.raw), rawMarker(raws.length - 1)) : structuredClone(v.js));
  if (recipe.namespace === 'absent') delete doc.namespace;
  else if (recipe.namespace !== 'keep') doc.namespace = valueOf(recipe.namespace);
  if (recipe.version === 'absent') delete doc.version;
  else if (recipe.version !== 'keep') doc.version = structuredClone(recipe.version.js);

  for (const m of recipe.mutations) {
    if (m.op === 'setAt') {
      const { parent, key } = place(doc, m.at);
      setOwn(parent, key, valueOf(m.value));
      continue;
    }
    const target = walk(doc, m.path);
    if (!target) continue;
    const { parent, key } = target;
    switch (m.op) {
      case 'set':
        setOwn(parent, key, valueOf(m.value));
        break;
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key];
        break;
      case 'add': {
        const node = parent[key];
        const into = node !== null && typeof node === 'object' && !Array.isArray(node) ? node : Array.isArray(parent) ? null : parent;
        if (into) setOwn(into, m.name, valueOf(m.value));
        break;
      }
      case 'repeat':
        // An item twice: the same key defined twice, or a list one longer.
        if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
        else if (Array.isArray(parent[key]) && parent[key].length > 0) parent[key].push(structuredClone(parent[key][0]));
        break;
      case 'wrap': {
        const value = parent[key];
        setOwn(parent, key, m.how === 'list' ? [value] : m.how === 'map' ? { value } : JSON.stringify(value) ?? 'undefined');
        break;
      }
    }
  }

  let text = recipe.format === 'json' ? JSON.stringify(doc) : stringify(doc, { lineWidth: 0 });
  raws.forEach((raw, i) => {
    const marker = rawMarker(i);
    text = text.split(`"${marker}"`).join(raw).split(marker).join(raw);
  });
  let bytes: Uint8Array | null = null;
  for (const m of recipe.text) {
    const lines = text.split('\n');
    switch (m.op) {
      case 'bom': text = `\ufeff${text}`; break;
      case 'crlf': text = text.replace(/\n/g, '\r\n'); break;
      case 'cr': text = text.replace(/\n/g, '\r'); break;
      case 'tabAfterColon': text = text.replace(/: /g, ':\t'); break;
      case 'invalidUtf8': bytes = insertBytes(text, [0xc0, 0x80, 0xff, 0xe2, 0x82]); break;
      case 'jsonStream': text = `${text}\n${text}\n`; break;
      case 'jsonHeader': text = `# exported by Flipt (v1.51.1) on 2025-03-01T10:00:00Z\n\n${text}`; break;
      case 'jsonDuplicateKey': text = text.replace('{', '{"version":"1.0","flags":[],'); break;
      case 'tab': {
        const i = m.at % lines.length;
        lines[i] = lines[i].replace(/^ {1,2}/, '\t');
        text = lines.join('\n');
        break;
      }
      case 'truncate': text = text.slice(0, m.at % (text.length + 1)); break;
      case 'repeatLine': {
        const i = m.at % lines.length;
        lines.splice(i, 0, lines[i]);
        text = lines.join('\n');
        break;
      }
      case 'dropLine': lines.splice(m.at % lines.length, 1); text = lines.join('\n'); break;
      case 'insert': {
        const i = m.at % (text.length + 1);
        text = text.slice(0, i) + m.what + text.slice(i);
        break;
      }
      case 'stream':
        text = m.what === 'same' ? `${text}\n---\n${text}` : m.what === 'other' ? `${text}\n---\nnamespace: other-namespace\n` : `${text}\n${m.what}`;
        break;
      case 'directive': text = m.what + text; break;
    }
  }
  const contentType = recipe.contentType === 'match' ? CONTENT_TYPES[recipe.format] : recipe.contentType;
  if (bytes) return { body: bytes, contentType };
  // Small documents only: what is hostile is the shape (a cut is one more mutation).
  return { body: text.length > MAX_DOCUMENT_BYTES / 4 && Buffer.byteLength(text) > MAX_DOCUMENT_BYTES ? cutToBytes(text, MAX_DOCUMENT_BYTES) : text, contentType };
}

function insertBytes(text: string, extra: number[]): Uint8Array {
  const utf8 = Buffer.from(text, 'utf8');
  const at = Math.floor(utf8.length / 2);
  return Uint8Array.from([...utf8.subarray(0, at), ...extra, ...utf8.subarray(at)]);
}

function cutToBytes(text: string, max: number): string {
  let out = text.slice(0, max);
  while (Buffer.byteLength(out) > max) out = out.slice(0, out.length - 1024);
  return out;
}

/** The body with the path's namespace key in place of the marker. */
export function withPathNamespace(body: string | Uint8Array, key: string): string | Uint8Array {
  if (typeof body !== 'string') return Buffer.from(Buffer.from(body).toString('latin1').split(PATH_NAMESPACE).join(key), 'latin1');
  return body.split(PATH_NAMESPACE).join(key).split(PATH_NAMESPACE.toUpperCase()).join(key.toUpperCase());
}
