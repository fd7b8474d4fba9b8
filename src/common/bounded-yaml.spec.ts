/**
 * The bounded YAML reading: what aliases stand for is counted and refused past the budget before anything is
 * expanded, aliases resolve to the anchor before them, keys are checked, and plain values come out as the library's
 * `toJS` gives them. The counting itself is linear; these tests show it refuses what would not be.
 */
import { LineCounter } from 'yaml';
import { AliasBudget, parseYaml, parseYamlStream, plainValue } from './bounded-yaml';

/** The first problem as "line:column message", or null; and the plain value when there is none. */
function read(text: string, max?: number): { problem: string | null; value?: unknown } {
  const lines = new LineCounter();
  const { doc, aliases } = parseYaml(text, { lineCounter: lines, merge: true, aliasBudget: new AliasBudget(max) });
  const error = doc.errors[0];
  if (!error) return { problem: null, value: plainValue(doc.contents, aliases) };
  const { line, col } = lines.linePos(error.pos[0]);
  return { problem: `${line}:${col} ${error.message}` };
}

/** `anchors` anchors, each a scalar used `uses` times in a list of its own. */
function anchorsUsed(anchors: number, uses: number): string {
  const lines: string[] = [];
  for (let i = 0; i < anchors; i++) lines.push(`a${i}: &a${i} x`, `b${i}: [${Array(uses).fill(`*a${i}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('bounded YAML: what aliases stand for', () => {
  it('refuses many anchors each used 50 times (300 KiB) once their sum passes the budget, naming the alias', () => {
    const text = anchorsUsed(1000, 50);
    expect(text.length).toBeGreaterThan(300 * 1024);
    // 200 anchors × 50 uses = 10,000 nodes: the first use of the 201st anchor is one too many.
    const line = 2 * 200 + 2;
    expect(read(text).problem).toBe(`${line}:8 aliases stand for more than 10000 nodes (limits.max_yaml_alias_nodes)`);
  });

  it('reads the same shape within the budget, every alias resolved', () => {
    const { problem, value } = read(anchorsUsed(200, 50));
    expect(problem).toBeNull();
    expect((value as Record<string, string[]>).b199).toEqual(Array(50).fill('x'));
  });

  it('counts nested aliases as expanded: a billion laughs is refused without being expanded', () => {
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) levels.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    // 110 + 1,110 nodes for a1 and a2's aliases; a3's eighth alias passes 10,000 (a8 would stand for 10⁹).
    expect(read(`${levels.join('\n')}\n`).problem).toMatch(/^4:\d+ aliases stand for more than 10000 nodes/);
  });

  it('shares one budget between the documents of a stream', () => {
    const half = anchorsUsed(120, 50); // 6,000 nodes each
    const docs = parseYamlStream(`${half}---\n${half}`);
    expect(docs[0].doc.errors).toEqual([]);
    expect(docs[1].doc.errors[0].message).toContain('more than 10000 nodes');
  });

  it('refuses an alias inside the node it refers to, and an alias to no anchor', () => {
    expect(read('a: &x [1, *x]\n').problem).toBe('1:11 alias *x is inside the node it refers to');
    expect(read('a: *nope\n').problem).toBe('1:4 Unresolved alias (the anchor must be set before the alias): nope');
  });

  it('resolves an alias to the last anchor of that name before it', () => {
    expect(read('a: &x 1\nb: *x\nc: &x 2\nd: *x\n').value).toEqual({ a: 1, b: 1, c: 2, d: 2 });
  });
});

describe('bounded YAML: keys', () => {
  it('finds a duplicate key in a mapping of 50,000 keys (the library compares each key with every other)', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`);
    keys.push('k17: again');
    expect(read(`${keys.join('\n')}\n`).problem).toBe('50001:1 Map keys must be unique');
  });

  it('reports the first problem in the text first, whoever found it', () => {
    expect(read('a: 1\na: 2\nb: [\n').problem).toBe('2:1 Map keys must be unique');
  });

  it('takes equal values of different spellings as the same key, and different types as different keys', () => {
    expect(read('1: a\n0x1: b\n').problem).toBe('2:1 Map keys must be unique');
    expect(read('1: a\n"1": b\n').value).toEqual({ 1: 'b' });
  });
});

describe('bounded YAML: plain values', () => {
  it('merges `<<` keys as the library does: the mapping\'s own keys and earlier merges win', () => {
    const text = 'base: &b {x: 1, y: 1}\nmore: &m {y: 2, z: 2}\nout: {<<: [*b, *m], x: 0}\n';
    expect((read(text).value as Record<string, unknown>).out).toEqual({ x: 0, y: 1, z: 2 });
  });

  it('refuses a merge of something other than mappings', () => {
    const { doc, aliases } = parseYaml('a: &x 1\nb: {<<: *x}\n', { merge: true });
    expect(() => plainValue(doc.contents, aliases)).toThrow('Merge sources must be maps or map aliases');
  });

  it('keeps `__proto__` as a key, never as the prototype', () => {
    const value = read('__proto__: {polluted: true}\n').value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('reads scalars by the core schema, null keys as "", and a pair in a flow list as a one-key mapping', () => {
    expect(read('a: [1, 1.5, true, ~, "s", 0o17]\n~: n\nb: [k: v]\n').value).toEqual({ a: [1, 1.5, true, null, 's', 15], '': 'n', b: [{ k: 'v' }] });
  });
});
