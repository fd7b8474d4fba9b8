/**
 * The quick reading (js-yaml) and the careful one (`yaml`, with places) must give the same documents, and the same
 * places when asked for, for every kind of input that takes the quick way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NamespaceDocument } from './document';
import { readDocuments } from './document-reader';
import { quickTrees } from './document-tree';

const FIXTURES = join(__dirname, '..', '..', 'test', 'flags-as-code', 'fixtures');

/** Every `at` of a document, in order. */
function places(docs: NamespaceDocument[]): Array<string | undefined> {
  return docs.flatMap((d) => [d.at, ...d.segments.map((s) => s.at), ...d.flags.flatMap((f) => [f.at, ...f.rules.map((r) => r.at), ...f.rollouts.map((r) => r.at)])]);
}

describe('quick and careful readings agree', () => {
  const inputs: Array<[string, string]> = [
    ...readdirSync(FIXTURES).map((f): [string, string] => [f, readFileSync(join(FIXTURES, f), 'utf8')]),
    ['numbers as written', 'flags:\n- key: 2024\n  name: 1.50\n  variants:\n  - key: 0x1F\n    attachment: {a: 1.50, b: 0o17, d: 1_000, e: 1e3}\n  rules:\n  - segment: s\n    rank: 3\n    distributions:\n    - variant: 0x1F\n      rollout: 12.5\nsegments:\n- key: s\n  name: S\n  constraints:\n  - type: NUMBER_COMPARISON_TYPE\n    property: n\n    operator: eq\n    value: 1.50\n'],
    ['a stream with an empty document', 'namespace: a\n---\n---\nnamespace: b\nflags: []\n'],
    ['JSON objects on one line and across lines', '{"namespace":"a"} {"namespace":"b",\n "flags":[{"key":"x","name":"X","enabled":true}]}\n'],
    ['booleans and nulls of the core schema', 'flags:\n- key: f\n  name: ~\n  description: null\n  enabled: True\n- key: g\n  name: G\n  enabled: FALSE\n'.replace('name: ~', 'name: F')],
  ];

  it.each(inputs)('%s', (_name, text) => {
    expect(quickTrees(text, {})).not.toBeNull();
    const quick = readDocuments(text, { source: 'f.yml' });
    const careful = readDocuments(text, { source: 'f.yml', careful: true });
    expect(quick).toEqual(careful);
    expect(places(quick)).toEqual(places(careful));
  });

  it('leaves anchors and aliases to the careful reading', () => {
    expect(quickTrees('flags:\n- &f {key: a, name: A}\n', {})).toBeNull();
    expect(quickTrees('a: *b\n', {})).toBeNull();
  });

  it('names the place of a problem as the careful reading does, whichever way it was read first', () => {
    const text = 'flags:\n- key: f\n  name: F\n  variants: [{key: v}]\n  rules:\n  - segment: s\n    distributions:\n    - {variant: w, rollout: 5}\n';
    expect(() => readDocuments(text)).toThrow('line 8, column 17, flags[0].rules[0].distributions[0].variant: flag "f" has no variant "w"');
  });
});

describe('which texts the quick reading leaves to the careful one', () => {
  it.each([
    ['a collection key', 'flags:\n- {key: f, name: F, metadata: {[1, 2]: x}}\n'],
    ['a complex key', 'flags:\n- key: f\n  name: F\n  metadata:\n    ? {a: 1}\n    : y\n'],
    ['a null key', 'flags:\n- {key: f, name: F, metadata: {null: x}}\n'],
    ['an empty key', 'flags:\n- {key: f, name: F, metadata: {: x}}\n'],
    ['a directive alone', '%YAML\n'],
  ])('%s', (_what, text) => {
    expect(quickTrees(text, {})).toBeNull();
  });

  it('keeps the quick way for plain documents, number keys included', () => {
    expect(quickTrees('flags:\n- {key: f, name: F, metadata: {2024: release}}\n', {})).not.toBeNull();
  });

  // The check runs on hostile text before anything else: a pattern that backtracks took 8 s on 3,000 spaces and
  // grew with their cube; this would not end within the test's timeout.
  it('reads a long run of spaces in one pass', () => {
    expect(quickTrees(`${' '.repeat(300_000)}x\n`, {})).not.toBeNull();
  });
});
