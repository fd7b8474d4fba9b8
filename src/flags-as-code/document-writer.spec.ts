/**
 * writeDocuments on its own: NamespaceDocuments in, Flipt's export text out, field for field as `flipt export` lays
 * it out (facts §2), and read back by readDocuments into the same documents. The HTTP export of a database is
 * covered by test/flags-as-code/import-export.e2e-spec.ts; these tests pin the layout rules one by one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { writeDocuments, type DocumentFormat } from './document-writer';
import { readDocuments } from './document-reader';
import type { DocumentFlag, DocumentSegment, DocumentVariant, NamespaceDocument } from './document';
import { ComparisonType, FlagType, MatchType, SegmentOperator } from '../wire';

const { OR, AND } = SegmentOperator;

function flag(key: string, fields: Partial<DocumentFlag> = {}): DocumentFlag {
  return {
    key, name: key, description: '', type: FlagType.VARIANT, enabled: false, metadata: null, variants: [], defaultVariant: null, rules: [],
    rollouts: [], ...fields,
  };
}
const variant = (key: string, fields: Partial<DocumentVariant> = {}): DocumentVariant => ({ key, name: '', description: '', attachment: null, ...fields });
const segment = (key: string, fields: Partial<DocumentSegment> = {}): DocumentSegment => ({
  key, name: key, description: '', matchType: MatchType.ALL, constraints: [], ...fields,
});
const namespace = (key: string, name = '', description = '') => ({ key, name, description });

/** Every kind of rule and rollout, and fields left empty next to fields that are set. */
const COMPLETE: NamespaceDocument = {
  namespace: namespace('staging', 'Staging', 'pre-production'),
  flags: [
    flag('checkout', {
      name: 'Checkout', description: 'which one', enabled: true, metadata: { team: 'payments' },
      variants: [variant('classic', { name: 'Classic' }), variant('express', { name: 'Express', description: 'one page', attachment: '{"colors":["red","green"],"steps":1}' })],
      defaultVariant: 'express',
      rules: [
        { segmentKeys: ['beta'], segmentOperator: OR, rank: 1, distributions: [{ variant: 'express', rollout: 100 }] },
        { segmentKeys: ['beta', 'europe'], segmentOperator: AND, rank: 2, distributions: [{ variant: 'classic', rollout: 0 }, { variant: 'express', rollout: 100 }] },
        { segmentKeys: ['beta', 'europe'], segmentOperator: OR, rank: 3, distributions: [] },
      ],
    }),
    flag('dark-mode', {
      type: FlagType.BOOLEAN,
      rollouts: [
        { description: 'staff', segment: { segmentKeys: ['beta'], segmentOperator: OR, value: true } },
        { description: '', segment: { segmentKeys: ['beta'], segmentOperator: OR, value: false } },
        { description: '', segment: { segmentKeys: ['beta', 'europe'], segmentOperator: OR, value: true } },
        { description: '', segment: { segmentKeys: ['beta', 'europe'], segmentOperator: AND, value: false } },
        { description: 'half', threshold: { percentage: 50, value: true } },
        { description: '', threshold: { percentage: 0, value: false } },
        { description: '', threshold: { percentage: 25, value: false } },
      ],
    }),
  ],
  segments: [
    segment('beta', {
      name: 'Beta', description: 'opted in', matchType: MatchType.ANY,
      constraints: [
        { type: ComparisonType.STRING, property: 'plan', operator: 'isoneof', value: '["pro"]', description: 'paying' },
        { type: ComparisonType.BOOLEAN, property: 'beta', operator: 'true', value: '', description: '' },
      ],
    }),
    segment('europe'),
  ],
};

const COMPLETE_YAML = `version: "1.4"
namespace:
  key: staging
  name: Staging
  description: pre-production
flags:
- key: checkout
  name: Checkout
  type: VARIANT_FLAG_TYPE
  description: which one
  enabled: true
  metadata:
    team: payments
  variants:
  - key: classic
    name: Classic
  - default: true
    key: express
    name: Express
    description: one page
    attachment:
      colors:
      - red
      - green
      steps: 1
  rules:
  - segment: beta
    distributions:
    - variant: express
      rollout: 100
  - segment:
      keys:
      - beta
      - europe
      operator: AND_SEGMENT_OPERATOR
    distributions:
    - variant: classic
    - variant: express
      rollout: 100
  - segment:
      keys:
      - beta
      - europe
      operator: OR_SEGMENT_OPERATOR
- key: dark-mode
  name: dark-mode
  type: BOOLEAN_FLAG_TYPE
  enabled: false
  rollouts:
  - description: staff
    segment:
      key: beta
      value: true
  - segment:
      key: beta
  - segment:
      keys:
      - beta
      - europe
      value: true
  - segment:
      keys:
      - beta
      - europe
      operator: AND_SEGMENT_OPERATOR
  - description: half
    threshold:
      percentage: 50
      value: true
  - threshold: {}
  - threshold:
      percentage: 25
segments:
- key: beta
  name: Beta
  description: opted in
  constraints:
  - type: STRING_COMPARISON_TYPE
    property: plan
    operator: isoneof
    value: '["pro"]'
    description: paying
  - type: BOOLEAN_COMPARISON_TYPE
    property: beta
    operator: "true"
  match_type: ANY_MATCH_TYPE
- key: europe
  name: europe
  match_type: ALL_MATCH_TYPE
`;

/** Without `at` (where a read document came from), which a written document does not carry. */
function withoutPlaces(docs: readonly NamespaceDocument[]): NamespaceDocument[] {
  return JSON.parse(JSON.stringify(docs, (k, v: unknown) => (k === 'at' ? undefined : v))) as NamespaceDocument[];
}

describe('writeDocuments: YAML layout (as flipt export writes it)', () => {
  it('writes fields in Flipt\'s order and leaves out what Flipt leaves out', () => {
    // enabled and type always; rank never; one-segment rules as a string, several as {keys, operator} with the
    // operator always; rollout segments as {key} or {keys}, operator only when AND, value only when true; threshold
    // fields only when set; zero distribution rollouts, empty strings and empty lists left out; list items at their
    // key's indentation.
    expect(writeDocuments([COMPLETE], 'yaml')).toBe(COMPLETE_YAML);
  });

  it('writes a namespace as an object without its empty fields, and an empty namespace as just that', () => {
    expect(writeDocuments([{ namespace: namespace('foo'), flags: [], segments: [] }], 'yaml')).toBe('version: "1.4"\nnamespace:\n  key: foo\n');
    expect(writeDocuments([{ namespace: namespace('foo', '', 'about foo'), flags: [], segments: [] }], 'yaml'))
      .toBe('version: "1.4"\nnamespace:\n  key: foo\n  description: about foo\n');
  });

  it('writes version on the first document only, with `---` between documents', () => {
    const docs = [
      { namespace: namespace('default', 'Default'), flags: [flag('a')], segments: [] },
      { namespace: namespace('foo', 'Foo'), flags: [], segments: [segment('s')] },
      { namespace: namespace('bar'), flags: [], segments: [] },
    ];
    expect(writeDocuments(docs, 'yaml')).toBe(`version: "1.4"
namespace:
  key: default
  name: Default
flags:
- key: a
  name: a
  type: VARIANT_FLAG_TYPE
  enabled: false
---
namespace:
  key: foo
  name: Foo
segments:
- key: s
  name: s
  match_type: ALL_MATCH_TYPE
---
namespace:
  key: bar
`);
  });

  it('writes the header as a comment line and a blank line before the first document', () => {
    const text = writeDocuments([COMPLETE], 'yaml', { header: 'exported by Flagpole (0.1.0) on 2026-01-01T00:00:00Z' });
    expect(text).toBe(`# exported by Flagpole (0.1.0) on 2026-01-01T00:00:00Z\n\n${COMPLETE_YAML}`);
  });

  it('writes nothing for no documents', () => {
    expect(writeDocuments([], 'yaml')).toBe('');
    expect(writeDocuments([], 'json')).toBe('');
  });

  it('writes attachments as values of their own kind, and quotes strings that would read as something else', () => {
    const attachments = ['"hello"', '42', '1.5', 'true', 'false', '0', '{}', '"true"', '"42"', '"null"', '"#x"', '[1,"x",null]'];
    const doc = { namespace: namespace('default'), segments: [], flags: [flag('f', { variants: attachments.map((a, i) => variant(`v${i}`, { attachment: a })) })] };
    const text = writeDocuments([doc], 'yaml');
    expect(text.slice(text.indexOf('  variants:\n'))).toBe(`  variants:
  - key: v0
    attachment: hello
  - key: v1
    attachment: 42
  - key: v2
    attachment: 1.5
  - key: v3
    attachment: true
  - key: v4
    attachment: false
  - key: v5
    attachment: 0
  - key: v6
    attachment: {}
  - key: v7
    attachment: "true"
  - key: v8
    attachment: "42"
  - key: v9
    attachment: "null"
  - key: v10
    attachment: "#x"
  - key: v11
    attachment:
    - 1
    - x
    - null
`);
    expect(readDocuments(text)[0].flags[0].variants.map((v) => v.attachment)).toEqual(attachments);
  });

  // Flipt writes an attachment whenever the variant has one (omitempty only drops a nil interface): an empty list or
  // string must survive an export and import.
  it('keeps an attachment that is an empty list or an empty string', () => {
    const doc = { namespace: namespace('default'), segments: [], flags: [flag('f', { variants: [variant('a', { attachment: '[]' }), variant('b', { attachment: '""' })] })] };
    const text = writeDocuments([doc], 'yaml');
    expect(text).toContain('  - key: a\n    attachment: []\n  - key: b\n    attachment: ""\n');
    expect(readDocuments(text)[0].flags[0].variants.map((v) => v.attachment)).toEqual(['[]', '""']);
  });

  // Flipt's encoders (yaml.v2 and encoding/json) write map keys sorted (facts §2), whatever order they were stored in.
  it.each<[DocumentFormat, string]>([
    ['yaml', '  metadata:\n    a: 1\n    z:\n      b: 2\n      y: 1\n  variants:\n  - key: v\n    attachment:\n      a:\n      - b: 1\n        c: 2\n      b: 1\n'],
    ['json', '"metadata":{"a":1,"z":{"b":2,"y":1}},"variants":[{"key":"v","attachment":{"a":[{"b":1,"c":2}],"b":1}}]'],
  ])('writes metadata and attachment keys sorted, as Flipt does (%s)', (format, expected) => {
    const doc = {
      namespace: namespace('default'), segments: [],
      flags: [flag('f', { metadata: { z: { y: 1, b: 2 }, a: 1 }, variants: [variant('v', { attachment: '{"b":1,"a":[{"c":2,"b":1}]}' })] })],
    };
    expect(writeDocuments([doc], format)).toContain(expected);
  });
});

describe('writeDocuments: JSON', () => {
  it('writes one compact object per document and line, with the same fields in the same order as YAML', () => {
    const foo = { namespace: namespace('foo', 'Foo'), flags: [], segments: [] };
    const text = writeDocuments([COMPLETE, foo], 'json');
    expect(text).toBe(`${JSON.stringify(parse(COMPLETE_YAML))}\n{"namespace":{"key":"foo","name":"Foo"}}\n`);
    expect(text.startsWith('{"version":"1.4","namespace":{"key":"staging","name":"Staging","description":"pre-production"},"flags":[{"key":"checkout"')).toBe(true);
  });

  it('writes no header (JSON has no comments)', () => {
    expect(writeDocuments([COMPLETE], 'json', { header: 'exported by Flagpole' })).toBe(writeDocuments([COMPLETE], 'json'));
  });
});

describe('writeDocuments: sortByKey', () => {
  const UNSORTED: NamespaceDocument = {
    namespace: namespace('default'),
    flags: ['flag2', 'FLag2', 'flag1'].map((key) => flag(key, {
      variants: [variant('b'), variant('B'), variant('a')],
      rules: [
        { segmentKeys: ['s2'], segmentOperator: OR, rank: 1, distributions: [{ variant: 'b', rollout: 60 }, { variant: 'a', rollout: 40 }] },
        { segmentKeys: ['S1'], segmentOperator: OR, rank: 2, distributions: [] },
      ],
      rollouts: [
        { description: '', segment: { segmentKeys: ['s2', 's1'], segmentOperator: OR, value: true } },
        { description: '', threshold: { percentage: 10, value: true } },
      ],
    })),
    segments: ['s2', 'S1', 's1'].map((key) => segment(key, {
      constraints: [
        { type: ComparisonType.STRING, property: 'z', operator: 'eq', value: 'v', description: '' },
        { type: ComparisonType.STRING, property: 'a', operator: 'eq', value: 'v', description: '' },
      ],
    })),
  };

  /** What the text says, in its order. */
  function order(text: string) {
    const doc = parse(text) as {
      flags: Array<{ key: string; variants: Array<{ key: string }>; rules: Array<{ segment: string; distributions?: Array<{ variant: string }> }>; rollouts: unknown[] }>;
      segments: Array<{ key: string; constraints: Array<{ property: string }> }>;
    };
    return {
      flags: doc.flags.map((f) => f.key),
      variants: doc.flags.map((f) => f.variants.map((v) => v.key)),
      rules: doc.flags.map((f) => f.rules.map((r) => [r.segment, (r.distributions ?? []).map((d) => d.variant)])),
      rollouts: doc.flags.map((f) => f.rollouts),
      segments: doc.segments.map((s) => s.key),
      constraints: doc.segments.map((s) => s.constraints.map((c) => c.property)),
    };
  }

  const RULES = [['s2', ['b', 'a']], ['S1', []]];
  const ROLLOUTS = [{ segment: { keys: ['s2', 's1'], value: true } }, { threshold: { percentage: 10, value: true } }];

  it('sorts flags, segments and variants by key in byte order, and nothing else', () => {
    expect(order(writeDocuments([UNSORTED], 'yaml', { sortByKey: true }))).toEqual({
      flags: ['FLag2', 'flag1', 'flag2'],
      variants: [['B', 'a', 'b'], ['B', 'a', 'b'], ['B', 'a', 'b']],
      rules: [RULES, RULES, RULES],
      rollouts: [ROLLOUTS, ROLLOUTS, ROLLOUTS],
      segments: ['S1', 's1', 's2'],
      constraints: [['z', 'a'], ['z', 'a'], ['z', 'a']],
    });
  });

  it('keeps the documents\' order without it, and does not reorder the documents it was given', () => {
    const before = JSON.stringify(UNSORTED);
    expect(order(writeDocuments([UNSORTED], 'yaml'))).toMatchObject({
      flags: ['flag2', 'FLag2', 'flag1'], variants: [['b', 'B', 'a'], ['b', 'B', 'a'], ['b', 'B', 'a']], segments: ['s2', 'S1', 's1'],
    });
    writeDocuments([UNSORTED], 'json', { sortByKey: true });
    expect(JSON.stringify(UNSORTED)).toBe(before);
  });

  it('sorts JSON output the same way', () => {
    expect(order(writeDocuments([UNSORTED], 'json', { sortByKey: true }))).toEqual(order(writeDocuments([UNSORTED], 'yaml', { sortByKey: true })));
  });

  it('keeps the default variant marked after sorting', () => {
    const doc = { namespace: namespace('default'), segments: [], flags: [flag('f', { variants: [variant('b'), variant('a')], defaultVariant: 'b' })] };
    expect(writeDocuments([doc], 'yaml', { sortByKey: true })).toContain('  variants:\n  - key: a\n  - default: true\n    key: b\n');
  });

  // JavaScript compares UTF-16 code units, which sort a key beyond U+FFFF before U+E000–U+FFFF; byte order (Go's
  // strings.Compare on UTF-8), used here, puts it after. Variant keys may hold any character.
  it('sorts variant keys in UTF-8 byte order beyond the Basic Multilingual Plane', () => {
    const doc = { namespace: namespace('default'), segments: [], flags: [flag('f', { variants: [variant('\u{1F600}'), variant('\uFF5A')] })] };
    const text = writeDocuments([doc], 'json', { sortByKey: true });
    expect((JSON.parse(text) as { flags: Array<{ variants: Array<{ key: string }> }> }).flags[0].variants.map((v) => v.key)).toEqual(['\uFF5A', '\u{1F600}']);
  });
});

describe('writeDocuments then readDocuments: the same documents', () => {
  /** Strings YAML would read as something else unless written with care. */
  const AWKWARD = ['true', 'no', '0x1F', '1.50', '1e3', 'null', '~', '-', '- x', ': x', 'a: b', '#x', 'a #b', '  padded  ', 'a\nb\n', 'tab\there',
    '"quoted"', "'single'", '*star', '&amp', '!bang', '%pct', '@at', '`tick`', '---', '...', '{x}', '[x]', 'ünïcödé 😀', '2024-01-01', '\\'];

  const TRICKY: NamespaceDocument = {
    namespace: namespace('tricky', 'true', 'a: b'),
    flags: AWKWARD.map((text, i) => flag(`f${i}`, {
      name: text, description: text, metadata: { [text]: text, n: i, nested: { list: [text, i, true, null] } },
      variants: [variant(text, { name: text, description: text, attachment: JSON.stringify({ [text]: [text] }) }), variant(`v${i}`, { attachment: JSON.stringify(text) })],
      defaultVariant: `v${i}`,
    })),
    segments: AWKWARD.map((text, i) => segment(`s${i}`, {
      name: text, description: text,
      constraints: [{ type: ComparisonType.STRING, property: text, operator: 'eq', value: text, description: text }],
    })),
  };

  const STREAM: NamespaceDocument[] = [
    { namespace: namespace('default', 'Default'), flags: [flag('a', { enabled: true })], segments: [] },
    { namespace: namespace('foo', 'Foo'), flags: [], segments: [] },
    {
      namespace: namespace('bar', 'Bar', 'the bar'), segments: [segment('s')],
      flags: [flag('b', { type: FlagType.BOOLEAN, rollouts: [{ description: '', threshold: { percentage: 33.3, value: true } }] })],
    },
  ];

  const FIXTURES = join(__dirname, '../../test/flags-as-code/fixtures');
  const fixtures = readdirSync(FIXTURES).sort();

  const cases: Array<[string, NamespaceDocument[]]> = [
    ['every kind of rule and rollout', [COMPLETE]],
    ['awkward strings everywhere', [TRICKY]],
    ['a stream of three namespaces', STREAM],
    ...fixtures.map((name): [string, NamespaceDocument[]] => [`fixture ${name}`, withoutPlaces(readDocuments(readFileSync(join(FIXTURES, name), 'utf8')))]),
  ];

  it('has fixtures to read', () => {
    expect(fixtures).toEqual(['flipt-export-stream.json', 'v1.0.yml', 'v1.1.yml', 'v1.2.yml', 'v1.3.yml', 'v1.4-complete.yml']);
  });

  describe.each<DocumentFormat>(['yaml', 'json'])('%s', (format) => {
    it.each(cases)('%s', (_name, docs) => {
      const text = writeDocuments(docs, format, { header: 'round trip' });
      expect(withoutPlaces(readDocuments(text))).toEqual(docs);
      // Writing what was read gives the same text again.
      expect(writeDocuments(readDocuments(text), format, { header: 'round trip' })).toBe(text);
    });
  });
});
