/**
 * Flagpole's authorization policy (docs/authorization.md): roles, each a list of permissions (actions on resources,
 * limited to namespaces by name or glob), and bindings from credentials to roles. Read from YAML or JSON; every
 * mistake is refused naming its place in the file. Pure: no Nest, no I/O.
 */
import picomatch from 'picomatch';
import { isMap, isScalar, isSeq, LineCounter, type Document, type YAMLMap } from 'yaml';
import { AliasBudget, parseYaml, plainValue } from '../common/bounded-yaml';

export const RESOURCES = ['namespace', 'flag', 'segment', 'authentication', 'audit'] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** One permission of a role: `actions` on `resources`, in `namespaces` (null: everywhere, and on what has none). */
export interface PolicyRule {
  resources: readonly Resource[];
  actions: readonly Action[];
  /** Names or globs; null when unlimited (omitted, or `*`). */
  namespaces: readonly string[] | null;
}

/** Which credentials a binding gives its roles to: one method, and what that method's credential must show. */
export type BindingMatch =
  | { method: 'token'; metadata: Record<string, readonly string[]> }
  | { method: 'oidc'; provider: string | null; claims: Record<string, readonly string[]>; emailDomains: readonly string[] }
  | { method: 'github'; organization: string; teams: readonly string[] }
  | { method: 'kubernetes'; namespace: string; serviceAccounts: readonly string[] }
  | { method: 'jwt'; claims: Record<string, readonly string[]> };

export interface PolicyBinding {
  roles: readonly string[];
  match: BindingMatch;
}

export interface Policy {
  roles: ReadonlyMap<string, readonly PolicyRule[]>;
  bindings: readonly PolicyBinding[];
  /** The role of an authenticated credential that no binding matches; null: such a credential may do nothing. */
  defaultRole: string | null;
}

export class PolicyError extends Error {}

/**
 * Parses a policy file's text (YAML, of which JSON is a part). `source` names it in messages. A file that may have
 * been cut off where it ends (checkEndsWhole) is refused too.
 */
export function parsePolicy(text: string, source = 'policy', maxAliasNodes?: number): Policy {
  const lines = new LineCounter();
  // Its aliases may stand for at most `maxAliasNodes` nodes (`limits.max_yaml_alias_nodes`), as in every YAML read.
  const { doc: document, aliases } = parseYaml(text, { lineCounter: lines, aliasBudget: new AliasBudget(maxAliasNodes) });
  if (document.errors.length) {
    const { message, pos } = document.errors[0];
    const { line, col } = lines.linePos(pos[0]);
    throw new PolicyError(`${source}: not valid YAML or JSON at line ${line}, column ${col}: ${message}`);
  }
  const policy = readPolicy(plainValue(document.contents, aliases), source);
  checkEndsWhole(document, text, new Place(source));
  return policy;
}

/** Checks and normalises a policy already read into plain values. */
export function readPolicy(value: unknown, source = 'policy'): Policy {
  const at = new Place(source);
  const top = object(value, at);
  allowOnly(top, ['version', 'roles', 'bindings', 'default_role'], at);
  if (top.version !== undefined && String(top.version) !== '1') throw at.key('version').error('must be "1" (the only policy version)');
  const rolesValue = object(top.roles ?? {}, at.key('roles'));
  const roles = new Map<string, readonly PolicyRule[]>();
  for (const [name, rules] of Object.entries(rolesValue)) {
    const here = at.key('roles').key(name);
    if (!/^[\w.:-]+$/.test(name)) throw here.error('a role name is letters, digits and . _ : -');
    roles.set(name, list(rules, here).map((rule, i) => readRule(rule, here.index(i))));
  }
  const bindings = list(top.bindings ?? [], at.key('bindings')).map((b, i) => readBinding(b, at.key('bindings').index(i), roles));
  let defaultRole: string | null = null;
  if (top.default_role !== undefined && top.default_role !== null && top.default_role !== '') {
    defaultRole = knownRole(top.default_role, at.key('default_role'), roles);
  }
  return { roles, bindings, defaultRole };
}

function readRule(value: unknown, at: Place): PolicyRule {
  const rule = object(value, at);
  allowOnly(rule, ['resources', 'actions', 'namespaces'], at);
  const resources = names(rule.resources, at.key('resources'), RESOURCES, 'resource');
  const actions = names(rule.actions, at.key('actions'), ACTIONS, 'action');
  let namespaces: string[] | null = null;
  if (rule.namespaces !== undefined) {
    const patterns = strings(rule.namespaces, at.key('namespaces'));
    patterns.forEach((p, i) => checkGlob(p, at.key('namespaces').index(i)));
    namespaces = patterns.includes('*') ? null : patterns;
  }
  return { resources, actions, namespaces };
}

function readBinding(value: unknown, at: Place, roles: ReadonlyMap<string, unknown>): PolicyBinding {
  const binding = object(value, at);
  const methods = ['token', 'oidc', 'github', 'kubernetes', 'jwt'] as const;
  allowOnly(binding, ['role', 'roles', ...methods], at);
  if ((binding.role === undefined) === (binding.roles === undefined)) throw at.error('needs `role` or `roles` (one of them)');
  const bound = binding.role !== undefined ? [knownRole(binding.role, at.key('role'), roles)] : strings(binding.roles, at.key('roles')).map((r, i) => knownRole(r, at.key('roles').index(i), roles));
  const given = methods.filter((m) => binding[m] !== undefined);
  if (given.length !== 1) throw at.error(`needs exactly one of ${methods.join(', ')} (what the credential must show)`);
  const method = given[0];
  const here = at.key(method);
  const spec = object(binding[method], here);
  switch (method) {
    case 'token':
      allowOnly(spec, ['metadata'], here);
      return { roles: bound, match: { method, metadata: valueMap(spec.metadata, here.key('metadata'), true) } };
    case 'oidc': {
      allowOnly(spec, ['provider', 'claims', 'email_domain'], here);
      const claims = valueMap(spec.claims ?? {}, here.key('claims'), false);
      const emailDomains = spec.email_domain === undefined ? [] : strings(spec.email_domain, here.key('email_domain')).map((d) => d.toLowerCase());
      if (!Object.keys(claims).length && !emailDomains.length) throw here.error('needs `claims` or `email_domain`');
      const provider = spec.provider === undefined ? null : text(spec.provider, here.key('provider'));
      return { roles: bound, match: { method, provider, claims, emailDomains } };
    }
    case 'github':
      allowOnly(spec, ['organization', 'team'], here);
      return {
        roles: bound,
        match: {
          method,
          organization: text(spec.organization, here.key('organization')),
          // GitHub's team slugs are lower-case.
          teams: spec.team === undefined ? [] : strings(spec.team, here.key('team')).map((t) => t.toLowerCase()),
        },
      };
    case 'kubernetes':
      allowOnly(spec, ['namespace', 'service_account'], here);
      return {
        roles: bound,
        match: {
          method,
          namespace: text(spec.namespace, here.key('namespace')),
          serviceAccounts: spec.service_account === undefined ? [] : strings(spec.service_account, here.key('service_account')),
        },
      };
    case 'jwt':
      allowOnly(spec, ['claims'], here);
      return { roles: bound, match: { method, claims: valueMap(spec.claims, here.key('claims'), true) } };
  }
}

// ---- a file cut off -------------------------------------------------------------------------------------------

/**
 * A file written in place can be read half-written (an editor or `cat >` writing in pieces, a full disk), and block
 * YAML cut at the end of any line still parses. Only the entry the file ends in can have lost a part, and losing a
 * part must never widen it: a rule without `namespaces` is for every namespace, and a plain value cut mid-line (a
 * glob `team-*-eu` read as `team-*`, an organisation `acme-corp` as `acme`) is another value. So where the file ends
 * in a block rule or binding:
 * - it must end with a line break, unless that entry ends with a bracket or quote that closes it;
 * - the rule must name its namespaces (`"*"` for everywhere), as a rule that omits them may have been cut before them.
 * Flow (JSON) text needs neither: it parses only when every bracket is closed. A binding cut at the end of a line
 * can still have lost a condition after it (a `team`, a second claim): write files by renaming a whole file into
 * place (as Kubernetes ConfigMaps and most editors do), or end the file with `default_role`, as the example does.
 */
function checkEndsWhole(document: Document, text: string, at: Place): void {
  const top = document.contents;
  if (!isMap(top) || top.flow) return;
  const section = top.items[top.items.length - 1];
  const name = isScalar(section?.key) ? String(section.key.value) : '';
  const entry = name === 'roles' ? lastRule(section.value, at.key('roles')) : name === 'bindings' ? lastBinding(section.value, at.key('bindings')) : null;
  if (!entry) return;
  if (!/[\r\n][ \t]*$/.test(text) && !closedByItself(entry.node)) {
    throw entry.at.error('the file ends inside this entry without a line break: it may have been cut off (a write not finished); end the file with a line break');
  }
  if (entry.rule && !entry.node.has('namespaces')) {
    throw entry.at.error('the file ends with this rule, and it names no namespaces: it may have been cut off before them; write `namespaces: "*"` if it is for every namespace');
  }
}

/** The entry a block file ends in: its node, its place, and whether it is a rule (else a binding). */
type LastEntry = { node: YAMLMap; at: Place; rule: boolean };

function lastRule(roles: unknown, at: Place): LastEntry | null {
  if (!isMap(roles) || roles.flow) return null;
  const role = roles.items[roles.items.length - 1];
  const rules = role?.value;
  if (!isScalar(role?.key) || !isSeq(rules) || rules.flow) return null;
  const rule = rules.items[rules.items.length - 1];
  return isMap(rule) && !rule.flow ? { node: rule, at: at.key(String(role.key.value)).index(rules.items.length - 1), rule: true } : null;
}

function lastBinding(bindings: unknown, at: Place): LastEntry | null {
  if (!isSeq(bindings) || bindings.flow) return null;
  const binding = bindings.items[bindings.items.length - 1];
  return isMap(binding) && !binding.flow ? { node: binding, at: at.index(bindings.items.length - 1), rule: false } : null;
}

/** Whether the last value inside `node` ends with its own closing bracket or quote (a cut there would not parse). */
function closedByItself(node: unknown): boolean {
  for (;;) {
    if (isMap(node) || isSeq(node)) {
      if (node.flow) return true;
      const last = node.items[node.items.length - 1] as unknown;
      node = isMap(node) ? (last as { value?: unknown } | undefined)?.value : last;
      continue;
    }
    return isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE');
  }
}

// ---- reading helpers -------------------------------------------------------------------------------------------

/** A place in the file, for messages: `policy.yml: roles.editor[0].actions`. */
class Place {
  constructor(
    private readonly source: string,
    private readonly path = '',
  ) {}
  key(k: string): Place {
    return new Place(this.source, this.path ? `${this.path}.${k}` : k);
  }
  index(i: number): Place {
    return new Place(this.source, `${this.path}[${i}]`);
  }
  error(message: string): PolicyError {
    return new PolicyError(`${this.source}: ${this.path || 'the file'}: ${message}`);
  }
}

function object(value: unknown, at: Place): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw at.error('must be a map');
  return value as Record<string, unknown>;
}

function list(value: unknown, at: Place): unknown[] {
  if (!Array.isArray(value)) throw at.error('must be a list');
  return value;
}

function allowOnly(value: Record<string, unknown>, keys: readonly string[], at: Place): void {
  for (const k of Object.keys(value)) if (!keys.includes(k)) throw at.key(k).error(`unknown field (expected ${keys.join(', ')})`);
}

function text(value: unknown, at: Place): string {
  if (typeof value !== 'string' || value.trim() === '') throw at.error('must be a non-empty string');
  return value.trim();
}

/** A string or a non-empty list of them. */
function strings(value: unknown, at: Place): string[] {
  if (typeof value === 'string') return [text(value, at)];
  const items = list(value, at);
  if (!items.length) throw at.error('must not be empty');
  return items.map((v, i) => text(v, at.index(i)));
}

function names<T extends string>(value: unknown, at: Place, known: readonly T[], what: string): T[] {
  if (value === undefined) throw at.error(`is required (${known.join(', ')} or *)`);
  const given = strings(value, at);
  if (given.includes('*')) return [...known];
  given.forEach((g, i) => {
    if (!(known as readonly string[]).includes(g)) throw at.index(i).error(`unknown ${what} ${JSON.stringify(g)} (${known.join(', ')} or *)`);
  });
  return [...new Set(given)] as T[];
}

/** A map of names to a value or a list of values (scalars are compared as their text). */
function valueMap(value: unknown, at: Place, required: boolean): Record<string, readonly string[]> {
  if (value === undefined && required) throw at.error('is required');
  const map = object(value, at);
  if (required && !Object.keys(map).length) throw at.error('must not be empty');
  const out: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(map)) {
    const items = Array.isArray(v) ? v : [v];
    if (!items.length) throw at.key(k).error('must not be empty');
    out[k] = items.map((item, i) => {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
      throw at.key(k).index(i).error('must be a string, number or boolean');
    });
  }
  return out;
}

function knownRole(value: unknown, at: Place, roles: ReadonlyMap<string, unknown>): string {
  const name = text(value, at);
  if (!roles.has(name)) throw at.error(`no role named ${JSON.stringify(name)} (roles: ${[...roles.keys()].join(', ') || 'none'})`);
  return name;
}

function checkGlob(pattern: string, at: Place): void {
  let re: RegExp;
  try {
    re = picomatch.makeRe(pattern, { strictBrackets: true });
  } catch (e) {
    throw at.error(`not a valid glob: ${(e as Error).message}`);
  }
  // picomatch answers some broken globs (an unclosed `!(`) with a pattern that matches nothing.
  if (re.source === '$^') throw at.error('not a valid glob: it can match no namespace');
}
