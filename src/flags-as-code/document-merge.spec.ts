/** mergeDocuments and the reading rules found in review: merge keys, non-finite numbers, `default` by name, ranks. */
import { readDocuments } from './document-reader';
import { mergeDocuments } from './document-merge';
import { writeDocuments } from './document-writer';

describe('mergeDocuments', () => {
  it('merges documents about one namespace, in order, the first naming it', () => {
    const docs = readDocuments('namespace: {key: a, name: A}\nflags:\n- {key: f, name: F}\n---\nnamespace: b\n---\nnamespace: {key: a, name: Other}\nsegments:\n- {key: s, name: S}\nflags:\n- {key: g, name: G}\n');
    const merged = mergeDocuments(docs);
    expect([...merged.keys()]).toEqual(['a', 'b']);
    const a = merged.get('a')!;
    expect(a.namespace.name).toBe('A');
    expect(a.flags.map((f) => f.key)).toEqual(['f', 'g']);
    expect(a.segments.map((s) => s.key)).toEqual(['s']);
    expect(a.at).toBe('line 1, column 1');
  });

  it('refuses a key defined twice in a namespace across documents, naming both places', () => {
    const docs = readDocuments('flags:\n- {key: f, name: F}\n---\nflags:\n- {key: f, name: F again}\n', { source: 'in.yml' });
    expect(() => mergeDocuments(docs)).toThrow('in.yml: document 2, line 5, column 3, flags[0]: flag "default/f" is also defined at in.yml: line 2, column 3, flags[0]');
  });
});

describe('reading rules found in review', () => {
  it('reads YAML merge keys, as Flipt (yaml.v3) does', () => {
    const [doc] = readDocuments('segments:\n- &base {key: a, name: A, match_type: ANY_MATCH_TYPE}\n- <<: *base\n  key: b\n');
    expect(doc.segments.map((s) => [s.key, s.name, s.matchType])).toEqual([['a', 'A', 1], ['b', 'A', 1]]);
  });

  it('refuses infinite or NaN numbers in metadata and attachments (JSON has none)', () => {
    expect(() => readDocuments('flags:\n- key: f\n  name: F\n  metadata: {x: .inf}\n')).toThrow('line 4, column 13, flags[0].metadata: numbers must be finite (JSON has no .inf or .nan)');
    expect(() => readDocuments('flags:\n- key: f\n  name: F\n  variants:\n  - {key: v, attachment: [.nan]}\n')).toThrow('numbers must be finite');
  });

  it('names the `default` namespace "Default" when written as a key, as Flipt does', () => {
    expect(readDocuments('namespace: default\n')[0].namespace).toEqual({ key: 'default', name: 'Default', description: '' });
  });

  it('writes rules in rank order (ranks are not written), so that reading back ranks them the same', () => {
    const text = 'flags:\n- key: f\n  name: F\n  rules:\n  - {segment: a, rank: 2}\n  - {segment: b, rank: 1}\n  - {segment: c, rank: 2}\nsegments:\n- {key: a, name: A}\n- {key: b, name: B}\n- {key: c, name: C}\n';
    const [doc] = readDocuments(text);
    const [back] = readDocuments(writeDocuments([doc], 'yaml'));
    expect(back.flags[0].rules.map((r) => [r.segmentKeys[0], r.rank])).toEqual([['b', 1], ['a', 2], ['c', 3]]);
  });
});
