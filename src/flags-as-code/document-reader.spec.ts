/**
 * readDocuments on its own: text in, NamespaceDocuments (or one DocumentError naming the place) out. What an import
 * then does with them (database, HTTP) is covered by test/flags-as-code/*.e2e-spec.ts; these tests pin the reading
 * rules themselves: versions and their gates, streams, JSON, namespaces, scalars, references and hostile input.
 */
import { readDocuments, DocumentError, type ReadOptions } from './document-reader';
import type { NamespaceDocument } from './document';
import { ComparisonType, FlagType, MatchType, SegmentOperator } from '../wire';

/** The documents without their `at` fields (positions are asserted through messages instead). */
function read(text: string, options?: ReadOptions): NamespaceDocument[] {
  return JSON.parse(JSON.stringify(readDocuments(text, options), (k, v: unknown) => (k === 'at' ? undefined : v))) as NamespaceDocument[];
}

/** The message of the DocumentError `text` is refused with; fails the test when it is read or throws anything else. */
function refusal(text: string, options?: ReadOptions): string {
  let error: unknown;
  try {
    readDocuments(text, options);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DocumentError);
  return (error as Error).message;
}

const flagOf = (text: string, options?: ReadOptions) => read(text, options)[0].flags[0];

const DEFAULT_NS = { key: 'default', name: 'Default', description: '' };
const UNSUPPORTED = ' (supported: 1.0, 1.1, 1.2, 1.3, 1.4)';

describe('readDocuments: versions', () => {
  // Every 1.4-only field at once: a document without version reads at the latest version.
  const LATEST_ONLY = [
    'namespace: {key: ns, name: NS}',
    'flags:',
    '- key: f',
    '  name: f',
    '  type: BOOLEAN_FLAG_TYPE',
    '  metadata: {team: a}',
    '  variants: [{key: v, default: true}]',
    '  rollouts:',
    '  - segment: {keys: [a, b]}',
    '',
  ].join('\n');

  it('reads a document without version at the latest version (1.4 fields accepted)', () => {
    const [doc] = read(LATEST_ONLY);
    expect(doc.namespace).toEqual({ key: 'ns', name: 'NS', description: '' });
    expect(doc.flags[0]).toMatchObject({
      type: FlagType.BOOLEAN, metadata: { team: 'a' }, defaultVariant: 'v',
      rollouts: [{ description: '', segment: { segmentKeys: ['a', 'b'], segmentOperator: SegmentOperator.OR, value: false } }],
    });
  });

  it.each([
    ['"1.4"'], ['"v1.4"'], ['"1.4.0"'], ['1.4'], ['" 1.4 "'],
  ])('reads version %s as 1.4', (version) => {
    expect(read(`version: ${version}\n${LATEST_ONLY}`)[0].namespace.key).toBe('ns');
  });

  // A 1.0 document refuses `type`: that is how these show they were read as 1.0.
  it.each([['"1"'], ['"1.0"'], ['1.0'], ['"v1"'], ['"1.0.0"']])('reads version %s as 1.0', (version) => {
    const text = `version: ${version}\nflags:\n- key: f\n  name: f\n  type: BOOLEAN_FLAG_TYPE\n`;
    expect(refusal(text)).toBe('line 5, column 9, flags[0].type: flag.type is supported in version >=1.1, found 1.0');
    expect(read(`version: ${version}\nflags:\n- key: f\n  name: f\n`)[0].flags[0].type).toBe(FlagType.VARIANT);
  });

  it.each([
    ['"1.5"', '1.5'], ['"5.0"', '5.0'], ['abc', 'abc'], ['"1.4.1"', '1.4.1'], ['1.10', '1.10'], ['"2"', '2'],
  ])('refuses version %s', (version, raw) => {
    expect(refusal(`version: ${version}\nnamespace: default\n`)).toBe(`line 1, column 10, version: unsupported version: ${raw}${UNSUPPORTED}`);
  });

  // Flipt checks `doc.Version != ""` before parsing, so an empty version is the latest version, as a missing one is.
  it('reads an empty version as no version (the latest)', () => {
    expect(read(`version: ""\n${LATEST_ONLY}`)[0].namespace.key).toBe('ns');
  });

  it('names the source in messages when given one', () => {
    expect(refusal('version: "5.0"\n', { source: 'features.yml' })).toBe(`features.yml: line 1, column 10, version: unsupported version: 5.0${UNSUPPORTED}`);
  });

  /** [field as messages name it, version it needs, the version below, document body (after `version:`), place of the field] */
  const gates: Array<[string, string, string, string, string]> = [
    ['flag.type', '1.1', '1.0', 'flags:\n- key: f\n  name: f\n  type: BOOLEAN_FLAG_TYPE\n', 'line 5, column 9, flags[0].type'],
    ['flag.rollouts', '1.1', '1.0', 'flags:\n- key: f\n  name: f\n  rollouts:\n  - threshold: {percentage: 10}\n', 'line 6, column 3, flags[0].rollouts'],
    ['flag.rollouts[*].segment.keys', '1.2', '1.1', 'flags:\n- key: f\n  name: f\n  rollouts:\n  - segment:\n      keys: [a, b]\n',
      'line 7, column 13, flags[0].rollouts[0].segment.keys'],
    ['variant.default', '1.3', '1.2', 'flags:\n- key: f\n  name: f\n  variants:\n  - key: v\n    default: true\n', 'line 7, column 14, flags[0].variants[0].default'],
    ['flag.metadata', '1.3', '1.2', 'flags:\n- key: f\n  name: f\n  metadata:\n    team: a\n', 'line 6, column 5, flags[0].metadata'],
    ['namespace (as key, name and description)', '1.4', '1.3', 'namespace:\n  key: n\n', 'line 3, column 3, namespace'],
  ];

  it.each(gates)('accepts %s at version %s', (_field, since, _below, body) => {
    expect(read(`version: "${since}"\n${body}`)).toHaveLength(1);
  });

  it.each(gates)('refuses %s (needs %s) at version %s, at the field', (field, since, below, body, place) => {
    expect(refusal(`version: "${below}"\n${body}`)).toBe(`${place}: ${field} is supported in version >=${since}, found ${below}`);
  });

  it('accepts a rollout segment `key` (not `keys`) at 1.1', () => {
    const flag = flagOf('version: "1.1"\nflags:\n- key: f\n  name: f\n  rollouts:\n  - segment: {key: a}\n');
    expect(flag.rollouts).toEqual([{ description: '', segment: { segmentKeys: ['a'], segmentOperator: SegmentOperator.OR, value: false } }]);
  });
});

describe('readDocuments: streams', () => {
  it('reads `---` separated documents in order', () => {
    expect(read('namespace: a\n---\nnamespace: b\n---\nnamespace: c\n').map((d) => d.namespace.key)).toEqual(['a', 'b', 'c']);
  });

  it('reads later documents without version at the first document\'s version', () => {
    const text = 'version: "1.0"\nnamespace: a\n---\nnamespace: b\nflags:\n- key: f\n  name: f\n  type: BOOLEAN_FLAG_TYPE\n';
    expect(refusal(text)).toBe('document 2, line 8, column 9, flags[0].type: flag.type is supported in version >=1.1, found 1.0');
  });

  it('reads a later document with its own version at that version', () => {
    const newer = 'version: "1.0"\nnamespace: a\n---\nversion: "1.4"\nnamespace: {key: b, name: B}\n';
    expect(read(newer).map((d) => d.namespace)).toEqual([{ key: 'a', name: 'a', description: '' }, { key: 'b', name: 'B', description: '' }]);
    const older = 'namespace: a\n---\nversion: "1.0"\nflags: [{key: g, name: g, type: BOOLEAN_FLAG_TYPE}]\n';
    expect(refusal(older)).toBe('document 2, line 4, column 33, flags[0].type: flag.type is supported in version >=1.1, found 1.0');
  });

  it.each([
    ['empty text', ''],
    ['only `---`', '---\n'],
    ['only a comment', '# nothing here\n'],
    ['empty documents', '---\n---\n'],
  ])('reads nothing from %s', (_name, text) => {
    expect(read(text)).toEqual([]);
  });

  it('skips an empty document in a stream, still counting it in messages', () => {
    expect(read('namespace: a\n---\n---\nnamespace: b\n').map((d) => d.namespace.key)).toEqual(['a', 'b']);
    expect(refusal('namespace: a\n---\n---\nflags: [{key: f, name: f, bogus: 1}]\n'))
      .toBe('document 3, line 4, column 27, flags[0]: unknown field "bogus"; expected one of key, name, type, description, enabled, metadata, variants, rules, rollouts');
  });

  it('names no document number for the first document', () => {
    expect(refusal('namespace: a\nbogus: 1\n---\nnamespace: b\n')).toBe('line 2, column 1: unknown field "bogus"; expected one of version, namespace, flags, segments');
  });
});

describe('readDocuments: JSON', () => {
  it('reads one object', () => {
    expect(read('{"namespace":"a","flags":[{"key":"f","name":"F","enabled":true}]}')).toEqual([{
      namespace: { key: 'a', name: 'a', description: '' },
      flags: [{
        key: 'f', name: 'F', description: '', type: FlagType.VARIANT, enabled: true, metadata: null, variants: [], defaultVariant: null,
        rules: [], rollouts: [],
      }],
      segments: [],
    }]);
  });

  it('reads concatenated objects, one per line', () => {
    expect(read('{"namespace":"a"}\n{"namespace":"b"}\n{"namespace":"c"}\n').map((d) => d.namespace.key)).toEqual(['a', 'b', 'c']);
  });

  it('reads concatenated pretty-printed objects, with positions counted from the start of the text', () => {
    const text = '{\n  "namespace": "a"\n}\n{\n  "namespace": "b",\n  "flags": [\n    {"key": "f", "name": "F"}\n  ]\n}\n';
    expect(read(text).map((d) => [d.namespace.key, d.flags.length])).toEqual([['a', 0], ['b', 1]]);
    expect(refusal(text.replace('"name": "F"', '"name": ""'))).toBe('document 2, line 7, column 26, flags[0].name: must not be empty');
  });

  it('reads a Flipt export with its `# exported by` header line, counting lines from the start of the text', () => {
    const header = '# exported by Flipt (v1.51.1) on 2025-03-01T10:00:00Z\n\n';
    const text = `${header}{"version":"1.4","namespace":{"key":"default","name":"Default"},"flags":[{"key":"flag1","name":"flag1","enabled":true}]}\n`
      + '{"namespace":{"key":"foo","name":"foo"},"flags":[{"key":"flag2","name":"flag2","type":"BOOLEAN_FLAG_TYPE","enabled":false,"rollouts":[{"threshold":{"percentage":50}}]}]}\n';
    const docs = read(text);
    expect(docs.map((d) => d.namespace)).toEqual([DEFAULT_NS, { key: 'foo', name: 'foo', description: '' }]);
    expect(docs[1].flags[0].rollouts).toEqual([{ description: '', threshold: { percentage: 50, value: false } }]);
    expect(refusal(text.replace('"percentage":50', '"percentage":500')))
      .toBe('document 2, line 4, column 162, flags[0].rollouts[0].threshold.percentage: must be within range [0, 100]');
    expect(refusal(text.replace('"name":"flag1"', '"name":"flag1","x":1')))
      .toBe('line 3, column 104, flags[0]: unknown field "x"; expected one of key, name, type, description, enabled, metadata, variants, rules, rollouts');
  });

  it('reads a byte order mark before JSON', () => {
    expect(read('\uFEFF{"namespace":"a"}\n')[0].namespace.key).toBe('a');
  });

  it('refuses text after the objects that is not an object', () => {
    expect(refusal('{"namespace":"a"}\n[1, 2]\n')).toBe('document 2, line 2, column 1: must be a mapping');
  });

  // A JSON object's columns count from the start of its line, not from where the object starts.
  it('counts columns from the start of the line for an object that does not start the line', () => {
    // `"x"` is at column 36 of line 1, and at column 20 of line 2 in the indented case.
    expect(refusal('{"namespace":"a"} {"namespace":"b","x":1}\n')).toBe('document 2, line 1, column 36: unknown field "x"; expected one of version, namespace, flags, segments');
    expect(refusal('{"namespace":"a"}\n  {"namespace":"b","x":1}\n')).toBe('document 2, line 2, column 20: unknown field "x"; expected one of version, namespace, flags, segments');
  });
});

describe('readDocuments: namespaces', () => {
  it('reads a document without namespace as `default` / "Default"', () => {
    expect(read('flags: []\n')[0].namespace).toEqual(DEFAULT_NS);
  });

  it('reads a document without namespace as the defaultNamespace option says', () => {
    expect(read('flags: []\n', { defaultNamespace: 'staging' })[0].namespace).toEqual({ key: 'staging', name: 'staging', description: '' });
    expect(read('namespace: other\n', { defaultNamespace: 'staging' })[0].namespace.key).toBe('other');
  });

  it('reads the string form as key and name', () => {
    expect(read('namespace: foo\n')[0].namespace).toEqual({ key: 'foo', name: 'foo', description: '' });
  });

  it('reads the object form', () => {
    expect(read('namespace: {key: foo, name: Foo, description: the foo one}\n')[0].namespace).toEqual({ key: 'foo', name: 'Foo', description: 'the foo one' });
    expect(read('namespace: {key: foo}\n')[0].namespace).toEqual({ key: 'foo', name: 'foo', description: '' });
  });

  it.each([
    ['namespace: "bad key"\n', 'line 1, column 12, namespace: contains invalid characters'],
    ['namespace: {name: Foo}\n', 'line 1, column 12, namespace: key must not be empty'],
    ['namespace: {key: foo, owner: me}\n', 'line 1, column 23, namespace: unknown field "owner"; expected one of key, name, description'],
    ['namespace: [a]\n', 'line 1, column 12, namespace: must be a string'],
  ])('refuses %j', (text, message) => {
    expect(refusal(text)).toBe(message);
  });
});

describe('readDocuments: scalars, attachments and metadata', () => {
  it('reads non-string scalars into string fields as written', () => {
    const [doc] = read([
      'flags:',
      '- key: 2024',
      '  name: 1.50',
      '  description: true',
      'segments:',
      '- key: s',
      '  name: s',
      '  constraints:',
      '  - {type: NUMBER_COMPARISON_TYPE, property: p, operator: eq, value: 1.50}',
      '  - {type: NUMBER_COMPARISON_TYPE, property: p, operator: eq, value: 42}',
      '  - {type: STRING_COMPARISON_TYPE, property: p, operator: eq, value: true}',
      '  - {type: STRING_COMPARISON_TYPE, property: p, operator: eq, value: 0x1F}',
      '',
    ].join('\n'));
    expect(doc.flags[0]).toMatchObject({ key: '2024', name: '1.50', description: 'true' });
    expect(doc.segments[0].constraints.map((c) => c.value)).toEqual(['1.50', '42', 'true', '0x1F']);
  });

  it.each([
    ['a string, as a JSON string literal', 'hello', '"hello"'],
    ['a quoted JSON text, as a JSON string literal', `'{"hex":"#00f"}'`, JSON.stringify('{"hex":"#00f"}')],
    ['a quoted number, as a JSON string literal', '"42"', '"42"'],
    ['an integer', '42', '42'],
    ['a float', '1.50', '1.5'],
    ['a boolean', 'true', 'true'],
    ['a flow list', '[1, "x", {a: null}]', '[1,"x",{"a":null}]'],
    ['a flow mapping', '{a: 1, b: [true, 2.5], c: {d: e}}', '{"a":1,"b":[true,2.5],"c":{"d":"e"}}'],
    ['a block mapping', '\n      a: 1\n      b:\n      - x\n      - y', '{"a":1,"b":["x","y"]}'],
    ['an empty mapping', '{}', '{}'],
    ['an empty list', '[]', '[]'],
    ['null', 'null', null],
    ['~', '~', null],
    ['nothing', '', null],
  ])('reads an attachment that is %s as compact JSON', (_name, yaml, expected) => {
    const flag = flagOf(`flags:\n- key: f\n  name: f\n  variants:\n  - key: v\n    attachment: ${yaml}\n`);
    expect(flag.variants).toEqual([{ key: 'v', name: '', description: '', attachment: expected }]);
  });

  it('reads a variant without attachment with a null attachment', () => {
    expect(flagOf('flags:\n- key: f\n  name: f\n  variants: [{key: v, name: V, description: d}]\n').variants)
      .toEqual([{ key: 'v', name: 'V', description: 'd', attachment: null }]);
  });

  // Flipt's importer stores json.Marshal(attachment): object keys come out sorted (facts §3).
  it('sorts attachment object keys, as Flipt stores them', () => {
    const flag = flagOf('flags:\n- key: f\n  name: f\n  variants:\n  - key: v\n    attachment: {steps: 1, colors: [red], nested: {ok: true, none: null}}\n');
    expect(flag.variants[0].attachment).toBe('{"colors":["red"],"nested":{"none":null,"ok":true},"steps":1}');
  });

  it('reads metadata as a JSON object, and empty metadata as none', () => {
    expect(flagOf('flags:\n- key: f\n  name: f\n  metadata: {team: a, n: 1.5, on: true, args: {name: value}}\n').metadata)
      .toEqual({ team: 'a', n: 1.5, on: true, args: { name: 'value' } });
    expect(flagOf('flags:\n- key: f\n  name: f\n  metadata: {}\n').metadata).toBeNull();
    expect(flagOf('flags:\n- key: f\n  name: f\n  metadata:\n').metadata).toBeNull();
  });

  it.each([['[1]'], ['x'], ['42'], ['"{}"']])('refuses metadata %s: it must be a mapping', (yaml) => {
    expect(refusal(`flags:\n- key: f\n  name: f\n  metadata: ${yaml}\n`)).toBe('line 4, column 13, flags[0].metadata: must be a mapping');
  });

  it('reads enabled only as a boolean', () => {
    expect(flagOf('flags:\n- key: f\n  name: f\n  enabled: true\n').enabled).toBe(true);
    expect(flagOf('flags:\n- key: f\n  name: f\n').enabled).toBe(false);
    expect(refusal('flags:\n- key: f\n  name: f\n  enabled: "true"\n')).toBe('line 4, column 12, flags[0].enabled: must be true or false');
  });
});

describe('readDocuments: flags, variants and rules', () => {
  const RULES = [
    'flags:',
    '- key: f',
    '  name: f',
    '  variants: [{key: a}, {key: b}]',
    '  rules:',
    '  - segment: s1',
    '  - segment: {keys: [s1, s2]}',
    '    rank: 7',
    '  - segment:',
    '      keys: [s1, s2]',
    '      operator: AND_SEGMENT_OPERATOR',
    '    distributions:',
    '    - {variant: a, rollout: 33.5}',
    '    - {variant: b, rollout: 66.5}',
    '  - segment: {keys: [s3], operator: OR_SEGMENT_OPERATOR}',
    '    distributions: [{variant: a}]',
    '',
  ].join('\n');

  it('reads rules: string or {keys, operator} segments, OR when no operator, rank given or by position', () => {
    expect(flagOf(RULES).rules).toEqual([
      { segmentKeys: ['s1'], segmentOperator: SegmentOperator.OR, rank: 1, distributions: [] },
      { segmentKeys: ['s1', 's2'], segmentOperator: SegmentOperator.OR, rank: 7, distributions: [] },
      {
        segmentKeys: ['s1', 's2'], segmentOperator: SegmentOperator.AND, rank: 3,
        distributions: [{ variant: 'a', rollout: 33.5 }, { variant: 'b', rollout: 66.5 }],
      },
      { segmentKeys: ['s3'], segmentOperator: SegmentOperator.OR, rank: 4, distributions: [{ variant: 'a', rollout: 0 }] },
    ]);
  });

  it('reads a whole flag with defaults for what is not written', () => {
    expect(flagOf('flags:\n- key: f\n  name: F\n')).toEqual({
      key: 'f', name: 'F', description: '', type: FlagType.VARIANT, enabled: false, metadata: null, variants: [], defaultVariant: null,
      rules: [], rollouts: [],
    });
  });

  it('reads the variant marked default as the default variant', () => {
    const flag = flagOf('flags:\n- key: f\n  name: f\n  variants: [{key: a}, {key: b, default: true}, {key: c, default: false}]\n');
    expect(flag.defaultVariant).toBe('b');
    expect(flag.variants.map((v) => v.key)).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['a distribution naming an unknown variant', RULES.replace('{variant: b, rollout: 66.5}', '{variant: w, rollout: 66.5}'),
      'line 14, column 17, flags[0].rules[2].distributions[1].variant: flag "f" has no variant "w"'],
    ['two variants marked default', 'flags:\n- key: f\n  name: f\n  variants: [{key: a, default: true}, {key: b}, {key: c, default: true}]\n',
      'line 4, column 67, flags[0].variants[2].default: only one variant can be the default'],
    ['a duplicate flag key', 'flags:\n- key: f\n  name: f\n- key: g\n  name: g\n- key: f\n  name: f2\n',
      'line 6, column 3, flags[2]: flag "f" is defined twice (first at line 2, column 3, flags[0])'],
    ['a duplicate segment key', 'segments:\n- key: s\n  name: s\n- key: s\n  name: t\n',
      'line 4, column 3, segments[1]: segment "s" is defined twice (first at line 2, column 3, segments[0])'],
    ['a duplicate variant key', 'flags:\n- key: f\n  name: f\n  variants:\n  - key: a\n  - key: a\n',
      'line 6, column 5, flags[0].variants[1]: variant "a" is defined twice (first at line 5, column 5, flags[0].variants[0])'],
    ['a rule segment given as {key}', 'flags:\n- key: f\n  name: f\n  rules:\n  - segment: {key: a}\n',
      'line 5, column 15, flags[0].rules[0].segment: unknown field "key"; expected one of keys, operator'],
    ['a rule without segment', 'flags:\n- key: f\n  name: f\n  rules:\n  - rank: 1\n', 'line 5, column 5, flags[0].rules[0]: segment must not be empty'],
    ['a rule with empty keys', 'flags:\n- key: f\n  name: f\n  rules:\n  - segment: {keys: []}\n', 'line 5, column 14, flags[0].rules[0].segment: keys must not be empty'],
    ['a rule rank of 0', 'flags:\n- key: f\n  name: f\n  rules:\n  - {segment: a, rank: 0}\n',
      'line 5, column 24, flags[0].rules[0].rank: must be a whole number greater than 0'],
    ['a distribution over 100', 'flags:\n- key: f\n  name: f\n  variants: [{key: a}]\n  rules:\n  - segment: s\n    distributions: [{variant: a, rollout: 101}]\n',
      'line 7, column 43, flags[0].rules[0].distributions[0].rollout: must be within range [0, 100]'],
    ['an unknown segment operator', 'flags:\n- key: f\n  name: f\n  rules:\n  - segment: {keys: [a, b], operator: XOR}\n',
      'line 5, column 39, flags[0].rules[0].segment.operator: "XOR" is not one of OR_SEGMENT_OPERATOR, AND_SEGMENT_OPERATOR'],
    ['an unknown flag type', 'flags:\n- key: f\n  name: f\n  type: NUMBER_FLAG_TYPE\n',
      'line 4, column 9, flags[0].type: "NUMBER_FLAG_TYPE" is not one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE'],
    ['a flag without name', 'flags:\n- key: f\n', 'line 2, column 3, flags[0]: name must not be empty'],
    ['a flag key with invalid characters', 'flags:\n- key: a b\n  name: f\n', 'line 2, column 8, flags[0].key: contains invalid characters'],
    ['a flag key over 255 characters', `flags:\n- key: ${'k'.repeat(256)}\n  name: f\n`, 'line 2, column 8, flags[0].key: must be at most 255 characters'],
  ])('refuses %s, naming both places where there are two', (_name, text, message) => {
    expect(refusal(text)).toBe(message);
  });

  // The database keys a rule's segments by segment, so a repeated key would fail the import's insert; the API
  // de-duplicates (src/rules/segment-refs.ts), and so does the reader.
  it('never hands on the same segment twice in one rule or rollout', () => {
    const outcome = (text: string): unknown => {
      try {
        const flag = flagOf(text);
        return (flag.rules[0] ?? flag.rollouts[0].segment)!.segmentKeys;
      } catch (e) {
        return e instanceof DocumentError ? 'refused' : e;
      }
    };
    expect(['refused', ['a', 'b']]).toContainEqual(outcome('flags:\n- key: f\n  name: f\n  rules:\n  - segment: {keys: [a, b, a], operator: AND_SEGMENT_OPERATOR}\n'));
    expect(['refused', ['a', 'b']]).toContainEqual(outcome('flags:\n- key: f\n  name: f\n  rollouts:\n  - segment: {keys: [a, b, a], operator: AND_SEGMENT_OPERATOR}\n'));
  });

  // The API stores one segment with OR whatever the operator (src/rules/segment-refs.ts), and the writer writes a
  // one-segment rule as a string: an AND kept here would be stored as the API never would, and not survive a round trip.
  it('reads a one-segment rule as OR, as the API stores it', () => {
    expect(flagOf('flags:\n- key: f\n  name: f\n  rules:\n  - segment: {keys: [a], operator: AND_SEGMENT_OPERATOR}\n').rules[0].segmentOperator)
      .toBe(SegmentOperator.OR);
  });
});

describe('readDocuments: rollouts', () => {
  it('reads threshold and segment rollouts', () => {
    const flag = flagOf([
      'flags:',
      '- key: f',
      '  name: f',
      '  type: BOOLEAN_FLAG_TYPE',
      '  rollouts:',
      '  - threshold: {percentage: 0}',
      '  - description: half',
      '    threshold: {percentage: 50.5, value: true}',
      '  - segment: {key: a, value: true}',
      '  - segment: {keys: [a, b], operator: AND_SEGMENT_OPERATOR}',
      '  - segment: {keys: [c]}',
      '  - threshold: {}',
      '',
    ].join('\n'));
    expect(flag.rollouts).toEqual([
      { description: '', threshold: { percentage: 0, value: false } },
      { description: 'half', threshold: { percentage: 50.5, value: true } },
      { description: '', segment: { segmentKeys: ['a'], segmentOperator: SegmentOperator.OR, value: true } },
      { description: '', segment: { segmentKeys: ['a', 'b'], segmentOperator: SegmentOperator.AND, value: false } },
      { description: '', segment: { segmentKeys: ['c'], segmentOperator: SegmentOperator.OR, value: false } },
      { description: '', threshold: { percentage: 0, value: false } },
    ]);
  });

  const rollout = (yaml: string) => `flags:\n- key: f\n  name: f\n  rollouts:\n  - ${yaml}\n`;
  it.each([
    ['both segment key and keys', rollout('segment: {key: a, keys: [b]}'), 'line 5, column 14, flags[0].rollouts[0].segment: a rollout segment has key or keys, not both'],
    ['both segment and threshold', rollout('{segment: {key: a}, threshold: {percentage: 5}}'),
      'line 5, column 5, flags[0].rollouts[0]: a rollout has a segment or a threshold, not both'],
    ['neither segment nor threshold', rollout('description: x'), 'line 5, column 5, flags[0].rollouts[0]: a rollout needs a segment or a threshold'],
    ['a percentage over 100', rollout('threshold: {percentage: 100.5}'), 'line 5, column 29, flags[0].rollouts[0].threshold.percentage: must be within range [0, 100]'],
    ['a negative percentage', rollout('threshold: {percentage: -1}'), 'line 5, column 29, flags[0].rollouts[0].threshold.percentage: must be within range [0, 100]'],
    ['a percentage that is not a number', rollout('threshold: {percentage: "50"}'), 'line 5, column 29, flags[0].rollouts[0].threshold.percentage: must be a number'],
    ['empty keys', rollout('segment: {keys: []}'), 'line 5, column 21, flags[0].rollouts[0].segment.keys: must not be empty'],
    ['a segment without key', rollout('segment: {value: true}'), 'line 5, column 14, flags[0].rollouts[0].segment: key must not be empty'],
    ['a rank (rollouts have none)', rollout('{threshold: {percentage: 5}, rank: 1}'),
      'line 5, column 34, flags[0].rollouts[0]: unknown field "rank"; expected one of description, segment, threshold'],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal(text)).toBe(message);
  });

  it.each([[0], [100], [33.3]])('accepts a percentage of %p', (percentage) => {
    expect(flagOf(rollout(`threshold: {percentage: ${percentage}}`)).rollouts[0].threshold).toEqual({ percentage, value: false });
  });
});

describe('readDocuments: segments and constraints', () => {
  const constraint = (yaml: string) => `segments:\n- key: s\n  name: S\n  constraints:\n  - ${yaml}\n`;
  const constraintOf = (yaml: string) => read(constraint(yaml))[0].segments[0].constraints[0];

  it('reads a segment, ALL when no match_type', () => {
    expect(read('segments:\n- key: s\n  name: S\n  description: d\n')[0].segments).toEqual([
      { key: 's', name: 'S', description: 'd', matchType: MatchType.ALL, constraints: [] },
    ]);
    expect(read('segments:\n- {key: s, name: S, match_type: ANY_MATCH_TYPE}\n')[0].segments[0].matchType).toBe(MatchType.ANY);
  });

  it.each([
    ['{type: STRING_COMPARISON_TYPE, property: plan, operator: EQ, value: pro, description: d}',
      { type: ComparisonType.STRING, property: 'plan', operator: 'eq', value: 'pro', description: 'd' }],
    ['{type: STRING_COMPARISON_TYPE, property: p, operator: empty, value: ignored}',
      { type: ComparisonType.STRING, property: 'p', operator: 'empty', value: '', description: '' }],
    ['{type: BOOLEAN_COMPARISON_TYPE, property: beta, operator: "true", value: "false"}',
      { type: ComparisonType.BOOLEAN, property: 'beta', operator: 'true', value: '', description: '' }],
    ['{type: NUMBER_COMPARISON_TYPE, property: age, operator: notpresent}',
      { type: ComparisonType.NUMBER, property: 'age', operator: 'notpresent', value: '', description: '' }],
    ['{type: DATETIME_COMPARISON_TYPE, property: at, operator: lt, value: "2025-01-01T10:00:00+02:00"}',
      { type: ComparisonType.DATETIME, property: 'at', operator: 'lt', value: '2025-01-01T08:00:00Z', description: '' }],
    ['{type: DATETIME_COMPARISON_TYPE, property: at, operator: gte, value: 2025-01-01}',
      { type: ComparisonType.DATETIME, property: 'at', operator: 'gte', value: '2025-01-01', description: '' }],
    ['{type: STRING_COMPARISON_TYPE, property: plan, operator: isoneof, value: \'["pro","team"]\'}',
      { type: ComparisonType.STRING, property: 'plan', operator: 'isoneof', value: '["pro","team"]', description: '' }],
    ['{type: ENTITY_ID_COMPARISON_TYPE, property: entityId, operator: isoneof, value: \'["u1"]\'}',
      { type: ComparisonType.ENTITY_ID, property: 'entityId', operator: 'isoneof', value: '["u1"]', description: '' }],
  ])('reads constraint %s through the shared validator', (yaml, expected) => {
    expect(constraintOf(yaml)).toEqual(expected);
  });

  const at = 'line 5, column 5, segments[0].constraints[0]';
  it.each([
    ['{type: STRING_COMPARISON_TYPE, property: p, operator: gt, value: "1"}', 'constraint operator "gt" is not valid for type string'],
    ['{type: BOOLEAN_COMPARISON_TYPE, property: p, operator: eq, value: "1"}', 'constraint operator "eq" is not valid for type boolean'],
    ['{type: STRING_COMPARISON_TYPE, property: p, operator: isoneof, value: pro}', 'invalid value provided for property "p" of type string'],
    ['{type: NUMBER_COMPARISON_TYPE, property: p, operator: isoneof, value: \'["1"]\'}', 'invalid value provided for property "p" of type number'],
    ['{type: ENTITY_ID_COMPARISON_TYPE, property: user, operator: eq, value: u1}', 'property is user instead of "entityId"'],
    ['{type: DATETIME_COMPARISON_TYPE, property: p, operator: lt, value: yesterday}', 'parsing datetime from "yesterday"'],
    ['{type: STRING_COMPARISON_TYPE, property: p, operator: eq}', 'invalid field value: must not be empty'],
    ['{type: STRING_COMPARISON_TYPE, operator: eq, value: v}', 'invalid field property: must not be empty'],
    ['{property: p, operator: eq, value: v}', 'type must not be empty'],
  ])('refuses constraint %s', (yaml, message) => {
    expect(refusal(constraint(yaml))).toBe(`${at}: ${message}`);
  });

  it('refuses an unknown comparison type at the field', () => {
    expect(refusal(constraint('{type: TEXT_COMPARISON_TYPE, property: p, operator: eq, value: v}'))).toBe(
      'line 5, column 12, segments[0].constraints[0].type: "TEXT_COMPARISON_TYPE" is not one of STRING_COMPARISON_TYPE, NUMBER_COMPARISON_TYPE, '
      + 'BOOLEAN_COMPARISON_TYPE, DATETIME_COMPARISON_TYPE, ENTITY_ID_COMPARISON_TYPE');
  });
});

describe('readDocuments: hostile and malformed input', () => {
  // Three anchors of ten aliases each: 1,000 strings (over 10,000 nodes with the lists) from a few lines.
  const BOMB = [
    'flags:',
    '- key: f',
    '  name: f',
    '  metadata:',
    '    a: &a [x, x, x, x, x, x, x, x, x, x]',
    '    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
    '    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    '    d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    '',
  ].join('\n');

  const OVER = 'aliases stand for more than 10000 nodes (limits.max_yaml_alias_nodes)';

  it('refuses an alias bomb in metadata with a DocumentError naming the alias', () => {
    expect(refusal(BOMB)).toMatch(/^line 8, column \d+: aliases stand for more than 10000 nodes \(limits\.max_yaml_alias_nodes\)$/);
  });

  it('refuses an alias bomb in an attachment with a DocumentError', () => {
    const text = BOMB.replace('  metadata:\n', '  variants:\n  - key: v\n    attachment:\n').replace(/\n {4}(\w): /g, '\n      $1: ');
    expect(refusal(text)).toContain(OVER);
  });

  it('expands aliases as far as maxAliasNodes allows', () => {
    // Each `*x` stands for two nodes (the list and its item).
    const text = 'flags:\n- key: f\n  name: f\n  metadata: {a: &x [1], b: *x, c: *x}\n';
    expect(flagOf(text).metadata).toEqual({ a: [1], b: [1], c: [1] });
    expect(flagOf(text, { maxAliasNodes: 4 }).metadata).toEqual({ a: [1], b: [1], c: [1] });
    expect(refusal(text, { maxAliasNodes: 3 })).toBe('line 4, column 35: aliases stand for more than 3 nodes (limits.max_yaml_alias_nodes)');
  });

  // Anchors each used 50 times stay under any per-anchor cap (the library's `maxAliasCount` counts uses per anchor);
  // their sum is what is bounded. A 300 KiB text of this shape once held every request for 55 s.
  it('refuses many anchors each used 50 times, by their sum', () => {
    const lines = ['flags:', '- key: f', '  name: f', '  metadata:'];
    for (let i = 0; i < 1000; i++) lines.push(`    a${i}: &a${i} x`, `    b${i}: [${Array(50).fill(`*a${i}`).join(', ')}]`);
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(300 * 1024);
    expect(refusal(text, { source: 'request body' })).toMatch(/^request body: line \d+, column \d+: aliases stand for more than 10000 nodes/);
  });

  it('reads aliases between fields (a shared anchor)', () => {
    const docs = read('flags:\n- key: f\n  name: f\n  metadata: &m {team: a}\n- key: g\n  name: g\n  metadata: *m\n');
    expect(docs[0].flags.map((f) => f.metadata)).toEqual([{ team: 'a' }, { team: 'a' }]);
  });

  // Aliases of flags' lists (rules, distributions, variants) count too: uncounted, a few kilobytes expanded into any
  // number of entities (a 4.7 KB text of this shape once read for ~24 s).
  it('counts aliases in a flag\'s lists against maxAliasNodes', () => {
    const n = 50; // 50 flags × 50 rules × 50 distributions from ~150 lines
    const lines = [
      'flags:', '- key: f0', '  name: f', '  variants: [{key: v}]', '  rules: &r',
      '  - segment: s', `    distributions: &d [&e {variant: v, rollout: 1}${', *e'.repeat(n - 1)}]`,
      ...Array.from({ length: n - 1 }, () => '  - {segment: s, distributions: *d}'),
      ...Array.from({ length: n - 1 }, (_, i) => `- {key: f${i + 1}, name: f, variants: [{key: v}], rules: *r}`),
    ];
    expect(refusal(`${lines.join('\n')}\n`)).toContain(OVER);
  });

  it('counts aliases across fields against maxAliasNodes', () => {
    const lines = ['flags:', '- key: f', '  name: f', '  variants:', '  - {key: v0, attachment: &a {x: 1}}'];
    for (let i = 1; i <= 10; i++) lines.push(`  - {key: v${i}, attachment: *a}`);
    expect(refusal(`${lines.join('\n')}\n`, { maxAliasNodes: 5 })).toContain('aliases stand for more than 5 nodes');
  });

  it.each([
    ['flow YAML', `flags:\n- key: f\n  name: f\n  metadata: {x: ${'['.repeat(20000)}${']'.repeat(20000)}}\n`],
    ['JSON', `{"flags":[{"key":"f","name":"f","variants":[{"key":"v","attachment":${'['.repeat(20000)}${']'.repeat(20000)}}]}]}`],
    ['block YAML', `flags:\n- key: f\n  name: f\n  metadata:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(4 + i)}a:`).join('\n')}\n`],
  ])('refuses very deep nesting in %s with a DocumentError', (_name, text) => {
    expect(refusal(text)).toMatch(/^line \d+, column \d+: /);
  });

  it.each([
    ['a list at the root', '- just\n- a list\n', 'line 1, column 1: must be a mapping'],
    ['a scalar at the root', 'hello\n', 'line 1, column 1: must be a mapping'],
    ['an unknown root field', 'version: "1.4"\nflag: []\n', 'line 2, column 1: unknown field "flag"; expected one of version, namespace, flags, segments'],
    ['an unknown variant field', 'flags:\n- key: f\n  name: f\n  variants: [{key: v, value: 1}]\n',
      'line 4, column 23, flags[0].variants[0]: unknown field "value"; expected one of default, key, name, description, attachment'],
    ['an unknown segment field', 'segments:\n- {key: s, name: s, matchType: ALL_MATCH_TYPE}\n',
      'line 2, column 21, segments[0]: unknown field "matchType"; expected one of key, name, description, constraints, match_type'],
    ['an unknown constraint field', 'segments:\n- key: s\n  name: s\n  constraints: [{type: STRING_COMPARISON_TYPE, prop: p}]\n',
      'line 4, column 48, segments[0].constraints[0]: unknown field "prop"; expected one of type, property, operator, value, description'],
    ['an unknown threshold field', 'flags:\n- key: f\n  name: f\n  rollouts: [{threshold: {percent: 5}}]\n',
      'line 4, column 27, flags[0].rollouts[0].threshold: unknown field "percent"; expected one of percentage, value'],
    ['a non-string field name', 'flags:\n- key: f\n  name: f\n  1: x\n',
      'line 4, column 3, flags[0]: unknown field 1; expected one of key, name, type, description, enabled, metadata, variants, rules, rollouts'],
    ['flags that are not a list', 'flags: {key: f}\n', 'line 1, column 8, flags: must be a list'],
    ['a repeated field', 'namespace: a\nnamespace: b\n', 'line 2, column 1: Map keys must be unique'],
    ['YAML that does not parse', 'flags: [ {key: a', 'line 1, column 17: '],
    ['unparsable JSON', '{"namespace": "a",', 'line 1, column 19: '],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal(text)).toContain(message);
  });
});
