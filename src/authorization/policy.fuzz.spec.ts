/**
 * The policy file's parser under hostile text (hardening issue 15), with fast-check from a fixed seed
 * (FLAGPOLE_FUZZ_SEED, FLAGPOLE_FUZZ_RUNS as in test/security/fuzz.e2e-spec.ts): mutations and cuts of the shipped
 * example (docs/authorization.example.yml) with YAML's features spliced in (anchors, aliases, tags, merge keys, wrong
 * types, nesting). What parsePolicy must do with any text:
 * - return a policy or throw a PolicyError naming the file, never another error (the authorizer reports a
 *   PolicyError as a refused file; anything else is a crash at start or a reload that says nothing useful);
 * - grant what the text says and no more: a policy it returns equals what a plain YAML reader makes of the same text;
 * - never widen access when the file is cut off (read half-written): a cut that parses holds no rule, binding or
 *   default role wider than the whole file's.
 * Inputs stay small (a few KiB): what is hostile is their shape.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { parsePolicy, PolicyError, readPolicy, type BindingMatch, type Policy } from './policy';

const SEED = Number(process.env.FLAGPOLE_FUZZ_SEED ?? 20251207);
const RUNS = Number(process.env.FLAGPOLE_FUZZ_RUNS ?? 0) || undefined;
const options = (numRuns: number) => ({ seed: SEED, numRuns: RUNS ?? numRuns, endOnFailure: true });

const EXAMPLE = readFileSync(join(__dirname, '../../docs/authorization.example.yml'), 'utf8');

/** parsePolicy's answer: the policy, or its PolicyError; any other error fails, naming the text. */
function outcome(text: string, maxAliasNodes?: number): Policy | PolicyError {
  try {
    return parsePolicy(text, 'policy.yml', maxAliasNodes);
  } catch (e) {
    const thrown = { text: text.slice(0, 300), error: `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}` };
    expect({ ...thrown, policyError: e instanceof PolicyError }).toEqual({ ...thrown, policyError: true });
    expect({ ...thrown, names: /^policy\.yml: \S/.test((e as Error).message) }).toEqual({ ...thrown, names: true });
    return e as PolicyError;
  }
}

/** A policy as plain values, to compare and print. */
const plain = (p: Policy) => ({ roles: Object.fromEntries(p.roles), bindings: p.bindings, defaultRole: p.defaultRole });

// ---- what a cut may not widen -----------------------------------------------------------------------------------------

const within = (cut: readonly string[], whole: readonly string[]) => cut.every((v) => whole.includes(v));

/** Each condition of `whole`'s map (all must hold) is in `cut`, with no value `whole` did not list. */
const conditionsKept = (cut: Record<string, readonly string[]>, whole: Record<string, readonly string[]>) =>
  Object.entries(whole).every(([k, values]) => cut[k] !== undefined && within(cut[k], values));

/** A list condition that `whole` has (non-empty: only these) is in `cut`, with no value `whole` did not list. */
const listKept = (cut: readonly string[], whole: readonly string[]) => whole.length === 0 || (cut.length > 0 && within(cut, whole));

function matchNoWider(cut: BindingMatch, whole: BindingMatch): boolean {
  if (cut.method !== whole.method) return false;
  switch (whole.method) {
    case 'token': return conditionsKept((cut as typeof whole).metadata, whole.metadata);
    case 'jwt': return conditionsKept((cut as typeof whole).claims, whole.claims);
    case 'oidc': {
      const c = cut as typeof whole;
      return (whole.provider === null || c.provider === whole.provider) && conditionsKept(c.claims, whole.claims) && listKept(c.emailDomains, whole.emailDomains);
    }
    case 'github': {
      const c = cut as typeof whole;
      return c.organization === whole.organization && listKept(c.teams, whole.teams);
    }
    case 'kubernetes': {
      const c = cut as typeof whole;
      return c.namespace === whole.namespace && listKept(c.serviceAccounts, whole.serviceAccounts);
    }
  }
}

/** What `cut` grants that `whole` does not, rule by rule and binding by binding: [] when nothing. */
function widenings(cut: Policy, whole: Policy): string[] {
  const found: string[] = [];
  for (const [role, rules] of cut.roles) {
    rules.forEach((rule, i) => {
      const full = whole.roles.get(role)?.[i];
      const where = `roles.${role}[${i}]`;
      if (!full) return void found.push(`${where}: not in the whole file`);
      if (!within(rule.resources, full.resources)) found.push(`${where}: resources ${rule.resources} beyond ${full.resources}`);
      if (!within(rule.actions, full.actions)) found.push(`${where}: actions ${rule.actions} beyond ${full.actions}`);
      if (full.namespaces !== null && (rule.namespaces === null || !within(rule.namespaces, full.namespaces))) {
        found.push(`${where}: namespaces ${rule.namespaces === null ? 'every one' : rule.namespaces} beyond ${full.namespaces}`);
      }
    });
  }
  cut.bindings.forEach((binding, i) => {
    const full = whole.bindings[i];
    if (!full) return void found.push(`bindings[${i}]: not in the whole file`);
    if (!within(binding.roles, full.roles)) found.push(`bindings[${i}]: roles ${binding.roles} beyond ${full.roles}`);
    if (!matchNoWider(binding.match, full.match)) found.push(`bindings[${i}]: ${JSON.stringify(binding.match)} matches more than ${JSON.stringify(full.match)}`);
  });
  if (cut.defaultRole !== null && cut.defaultRole !== whole.defaultRole) found.push(`default_role ${cut.defaultRole} beyond ${whole.defaultRole}`);
  return found;
}

/** Cuts of `text` (at every character) that parse and grant more than the whole text: the first cut of each widening. */
function widenedCuts(text: string, only: (w: string) => boolean): Array<{ end: number; tail: string; widens: string }> {
  const whole = parsePolicy(text);
  const out = new Map<string, { end: number; tail: string; widens: string }>();
  for (let end = 0; end < text.length; end++) {
    const cut = outcome(text.slice(0, end));
    if (cut instanceof PolicyError) continue;
    for (const widens of widenings(cut, whole).filter(only)) {
      if (!out.has(widens)) out.set(widens, { end, tail: text.slice(Math.max(0, end - 80), end), widens });
    }
  }
  return [...out.values()];
}

const isRule = (w: string) => w.startsWith('roles.');
const notRule = (w: string) => !isRule(w);

// ---- variations of the example ---------------------------------------------------------------------------------------

/** The example split into its top-level sections (each with the comments above it), to reorder them. */
function sections(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  let current: string[] = [];
  let pendingComments: string[] = [];
  for (const line of lines) {
    if (/^[A-Za-z_]/.test(line)) {
      if (current.length) out.push(current.join('\n'));
      current = [...pendingComments, line];
      pendingComments = [];
    } else if (/^#/.test(line) || line.trim() === '') {
      pendingComments.push(line);
    } else {
      current.push(...pendingComments, line);
      pendingComments = [];
    }
  }
  if (current.length) out.push(current.join('\n'));
  return out;
}

const SECTIONS = sections(EXAMPLE);

/** Fragments spliced in as values: YAML's features, wrong types, globs that break, nesting. */
const FRAGMENTS = [
  '*', '"*"', "'*'", '[]', '{}', 'null', '~', '', '[flag, "*"]', '[production, "*"]', '"team-*"', '"{a,b}-*"', '"!(x"', '"["', '"**"',
  '"!production"', '[a, [b]]', '[[production]]', '{key: production}', '1', '0', '-1', '1.5', '1e400', '.inf', 'true', 'false', 'yes',
  '"\\0"', '"a\\u0000b"', '"\\ud800"', '" "', '"\\t"', '"production\\n"', '&a [flag]', '*a', '*nowhere', '&b "*"', '[&c read, *c]',
  '!!binary ZmxhZw==', '!!str flag', '!!seq [flag]', '!!map {}', '!!set {flag}', '!!omap [a: flag]', '!!int x', '!!null ""', '!custom x',
  '!!python/object:os.system ls', '!!js/function "function(){}"', '{<<: {resources: "*"}}', '{<<: x}', '<<', '{? [a] : b}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`, `${'{a: '.repeat(300)}1${'}'.repeat(300)}`, 'k'.repeat(5000),
  '{l0: &f0 [x, x, x, x, x, x, x, x], l1: &f1 [*f0, *f0, *f0, *f0, *f0, *f0, *f0, *f0], l2: &f2 [*f1, *f1, *f1, *f1, *f1, *f1, *f1, *f1], l3: [*f2, *f2, *f2, *f2, *f2, *f2, *f2, *f2]}',
];

const INSERTS = ['\u0000', '\ufeff', '\t', ':', '- ', '[', '{', '"', "'", '&a ', '*a', '!!binary ', '|', '>', '#', '%', '@', '\r', '\n', '\n---\n', '? ', '<<: ', '\u2028', '\u0085'];

type Edit =
  | { op: 'value'; line: number; fragment: string }
  | { op: 'deleteLine' | 'repeatLine' | 'swapLines' | 'indent' | 'dedent'; line: number }
  | { op: 'insert'; at: number; what: string }
  | { op: 'deleteChars'; at: number; length: number }
  | { op: 'whole'; how: 'crlf' | 'bom' | 'tabs' | 'trailingSpaces' | 'directive' | 'twoDocuments' | 'flow' };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('value' as const), line: fc.nat(), fragment: fc.constantFrom(...FRAGMENTS) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constantFrom('deleteLine' as const, 'repeatLine' as const, 'swapLines' as const, 'indent' as const, 'dedent' as const), line: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), what: fc.constantFrom(...INSERTS) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('deleteChars' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('whole' as const), how: fc.constantFrom('crlf' as const, 'bom' as const, 'tabs' as const, 'trailingSpaces' as const, 'directive' as const, 'twoDocuments' as const, 'flow' as const) }), weight: 1 },
);

function applyEdit(text: string, e: Edit): string {
  const lines = text.split('\n');
  const i = 'line' in e ? e.line % lines.length : 0;
  switch (e.op) {
    case 'value': {
      const m = /^(\s*(?:- )?[^:#]+:)(\s.*)?$/.exec(lines[i]);
      lines[i] = m ? `${m[1]} ${e.fragment}` : `${lines[i]} ${e.fragment}`;
      return lines.join('\n');
    }
    case 'deleteLine': lines.splice(i, 1); return lines.join('\n');
    case 'repeatLine': lines.splice(i, 0, lines[i]); return lines.join('\n');
    case 'swapLines': if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1], lines[i]]; return lines.join('\n');
    case 'indent': lines[i] = `  ${lines[i]}`; return lines.join('\n');
    case 'dedent': lines[i] = lines[i].replace(/^ {1,2}/, ''); return lines.join('\n');
    case 'insert': { const at = e.at % (text.length + 1); return text.slice(0, at) + e.what + text.slice(at); }
    case 'deleteChars': { const at = e.at % (text.length + 1); return text.slice(0, at) + text.slice(at + e.length); }
    case 'whole':
      switch (e.how) {
        case 'crlf': return text.replace(/\n/g, '\r\n');
        case 'bom': return `\ufeff${text}`;
        case 'tabs': return text.replace(/^ {2}/gm, '\t');
        case 'trailingSpaces': return text.replace(/\n/g, '  \n');
        case 'directive': return `%YAML 1.1\n---\n${text}`;
        case 'twoDocuments': return `${text}\n---\n${text}`;
        case 'flow': return JSON.stringify(parse(EXAMPLE), null, 1);
      }
  }
}

/** The example, its sections in some order (some left out), then edited. */
const hostilePolicy = fc.record({
  order: fc.shuffledSubarray(SECTIONS.map((_, i) => i), { minLength: 1 }),
  edits: fc.array(edit, { maxLength: 4 }),
  cut: fc.option(fc.nat(), { freq: 4 }),
}).map(({ order, edits, cut }) => {
  let text = `${order.map((i) => SECTIONS[i]).join('\n')}\n`;
  for (const e of edits) text = applyEdit(text, e);
  return cut === null ? text : text.slice(0, cut % (text.length + 1));
});

/** What a plain YAML reader makes of the text, read by the same checks; undefined when it does not read it. */
function plainReading(text: string): Policy | undefined {
  let value: unknown;
  try {
    value = parse(text, { logLevel: 'silent', uniqueKeys: true, merge: false, maxAliasCount: -1 });
  } catch {
    return undefined;
  }
  try {
    return readPolicy(value, 'policy.yml');
  } catch {
    return undefined;
  }
}

// ---- the properties ----------------------------------------------------------------------------------------------------

describe('the policy parser under hostile text (fast-check)', () => {
  it('returns a policy or throws a PolicyError naming the file, and a policy is what the text says', () => {
    let parsed = 0;
    fc.assert(
      fc.property(hostilePolicy, (text) => {
        const got = outcome(text);
        if (got instanceof PolicyError) return;
        parsed++;
        // Granted only what the text says: the same policy a plain reading of the YAML gives.
        const reference = plainReading(text);
        expect({ text, policy: plain(got) }).toEqual({ text, policy: reference ? plain(reference) : 'the text does not read as YAML' });
      }),
      options(1000),
    );
    // Not only refusals: some variations are policies.
    expect(parsed).toBeGreaterThan(0);
  });

  it('refuses aliases past limits.max_yaml_alias_nodes with a PolicyError naming the limit, at any limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 20_000 }), (levels, fanout, limit) => {
        // r0 is 11 nodes (a list, a rule, three keys, three lists, three names); each r(i) a list of `fanout` r(i-1).
        const lines = ['roles:', '  r0: &r0 [{resources: [flag], actions: [read], namespaces: [production]}]'];
        let size = 11;
        let aliased = 0;
        for (let i = 1; i <= levels; i++) {
          lines.push(`  r${i}: &r${i} [${Array(fanout).fill(`*r${i - 1}`).join(', ')}]`);
          aliased += fanout * size;
          size = 1 + fanout * size;
        }
        const got = outcome(`${lines.join('\n')}\n`, limit);
        // Within the limit, r1 is refused for what it is (a list of lists is no rule): a PolicyError either way.
        expect(got).toBeInstanceOf(PolicyError);
        expect({ aliased, limit, refusedForAliases: /limits\.max_yaml_alias_nodes/.test((got as PolicyError).message) })
          .toEqual({ aliased, limit, refusedForAliases: aliased > limit });
      }),
      options(100),
    );
  });

  it('never throws anything but a PolicyError for a cut or edited JSON policy', () => {
    const json = JSON.stringify(parse(EXAMPLE));
    fc.assert(
      fc.property(fc.nat({ max: json.length }), fc.array(edit, { maxLength: 2 }), (end, edits) => {
        let text = json.slice(0, end);
        for (const e of edits) text = applyEdit(text, e);
        outcome(text);
      }),
      options(300),
    );
  });
});

describe('a cut of the policy file never widens access', () => {
  it('no cut of the example, at any character, holds a rule wider than the whole file\'s (a missing namespace limit above all)', () => {
    expect(widenedCuts(EXAMPLE, isRule)).toEqual([]);
  });

  it('no cut of a reordered, reformatted example holds a rule wider than the whole of it (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(SECTIONS.map((_, i) => i), { minLength: 1 }),
        fc.constantFrom('', 'crlf', 'trailingSpaces', 'indent4', 'comments'),
        (order, style) => {
          let text = `${order.map((i) => SECTIONS[i]).join('\n')}\n`;
          if (style === 'crlf') text = text.replace(/\n/g, '\r\n');
          if (style === 'trailingSpaces') text = text.replace(/\n/g, '  \n');
          if (style === 'indent4') text = text.replace(/^( +)/gm, '$1$1');
          if (style === 'comments') text = text.replace(/\n/g, ' # note\n');
          const whole = outcome(text);
          if (whole instanceof PolicyError) return;
          expect({ order, style, widened: widenedCuts(text, isRule) }).toEqual({ order, style, widened: [] });
        },
      ),
      options(12),
    );
  });

  // A cut at the end of a line inside a binding drops the conditions after it (the example cut after
  // `organization: acme` binds production-editor to every member of GitHub organisation acme, not only team
  // release-managers), and no reading of the text can tell: such a cut is a whole, valid file. The reload reads a
  // file only once it has stopped changing (authorizer.service.ts), and docs/authorization.md asks for files to be
  // replaced whole. Every other cut of a binding is refused or widens nothing.
  it('no cut of the example, at any character but a line end inside a binding, holds a binding or default role wider than the whole file\'s', () => {
    const whole = parsePolicy(EXAMPLE);
    const widenedAt = (end: number) => {
      const cut = outcome(EXAMPLE.slice(0, end));
      return cut instanceof PolicyError ? [] : widenings(cut, whole).filter(notRule);
    };
    const elsewhere: Array<{ end: number; widens: string[] }> = [];
    let atLineEnds = 0;
    for (let end = 0; end < EXAMPLE.length; end++) {
      const widens = widenedAt(end);
      if (widens.length === 0) continue;
      if (/\n[ \t]*$/.test(EXAMPLE.slice(0, end))) atLineEnds++; // at a line end, or in the next line's indentation
      else elsewhere.push({ end, widens });
    }
    expect(elsewhere).toEqual([]);
    // The known case is there: the limit is what the comment above says, not more, and this test can fail.
    expect(widenedAt(EXAMPLE.indexOf('organization: acme\n') + 'organization: acme\n'.length)).not.toEqual([]);
    expect(atLineEnds).toBeGreaterThan(0);
  });
});
