import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIONS, RESOURCES, parsePolicy, PolicyError, readPolicy, type Policy } from './policy';

const EXAMPLE = join(__dirname, '../../docs/authorization.example.yml');

/** The refusal `read` throws; fails the test when it accepts instead. */
function refusal(read: () => unknown): PolicyError {
  let accepted: unknown;
  try {
    accepted = read();
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyError);
    return e as PolicyError;
  }
  throw new Error(`accepted, expected a refusal: ${JSON.stringify(accepted)}`);
}

/** The first (only) rule of role `r`. */
const ruleOf = (policy: Policy, role = 'r') => policy.roles.get(role)![0];

const ADMIN = { admin: [{ resources: '*', actions: '*' }] };
const rule = (fields: Record<string, unknown>) => ({ roles: { r: [{ resources: 'flag', actions: 'read', ...fields }] } });
const binding = (fields: Record<string, unknown>) => ({ roles: ADMIN, bindings: [{ role: 'admin', ...fields }] });

describe('parsePolicy reads YAML and JSON', () => {
  const yaml = `
version: "1"
roles:
  admin:
    - resources: "*"
      actions: "*"
  editor:
    - resources: [flag, segment]
      actions: [read, update]
      namespaces: [production, "team-*"]
bindings:
  - role: admin
    token:
      metadata:
        io.flagpole.auth.token.name: initial_bootstrap_token
  - roles: [editor, admin]
    oidc:
      provider: google
      claims:
        groups: [flag-admins, ops]
      email_domain: Example.COM
  - role: editor
    github:
      organization: acme
      team: release-managers
  - role: editor
    kubernetes:
      namespace: apps
      service_account: [deployer, evaluator]
  - role: editor
    jwt:
      claims:
        level: 3
        staff: true
default_role: editor
`;

  it('reads every part of a YAML policy', () => {
    const policy = parsePolicy(yaml, 'policy.yml');
    expect([...policy.roles.keys()]).toEqual(['admin', 'editor']);
    expect(ruleOf(policy, 'admin')).toEqual({ resources: [...RESOURCES], actions: [...ACTIONS], namespaces: null });
    expect(ruleOf(policy, 'editor')).toEqual({ resources: ['flag', 'segment'], actions: ['read', 'update'], namespaces: ['production', 'team-*'] });
    expect(policy.bindings).toEqual([
      { roles: ['admin'], match: { method: 'token', metadata: { 'io.flagpole.auth.token.name': ['initial_bootstrap_token'] } } },
      { roles: ['editor', 'admin'], match: { method: 'oidc', provider: 'google', claims: { groups: ['flag-admins', 'ops'] }, emailDomains: ['example.com'] } },
      { roles: ['editor'], match: { method: 'github', organization: 'acme', teams: ['release-managers'] } },
      { roles: ['editor'], match: { method: 'kubernetes', namespace: 'apps', serviceAccounts: ['deployer', 'evaluator'] } },
      // Numbers and booleans are kept as their text, to be compared with claims as text.
      { roles: ['editor'], match: { method: 'jwt', claims: { level: ['3'], staff: ['true'] } } },
    ]);
    expect(policy.defaultRole).toBe('editor');
  });

  it('reads the same policy written as JSON', () => {
    const json = JSON.stringify({
      version: '1',
      roles: {
        admin: [{ resources: '*', actions: '*' }],
        editor: [{ resources: ['flag', 'segment'], actions: ['read', 'update'], namespaces: ['production', 'team-*'] }],
      },
      bindings: [
        { role: 'admin', token: { metadata: { 'io.flagpole.auth.token.name': 'initial_bootstrap_token' } } },
        { roles: ['editor', 'admin'], oidc: { provider: 'google', claims: { groups: ['flag-admins', 'ops'] }, email_domain: 'Example.COM' } },
        { role: 'editor', github: { organization: 'acme', team: 'release-managers' } },
        { role: 'editor', kubernetes: { namespace: 'apps', service_account: ['deployer', 'evaluator'] } },
        { role: 'editor', jwt: { claims: { level: 3, staff: true } } },
      ],
      default_role: 'editor',
    });
    expect(parsePolicy(json)).toEqual(parsePolicy(yaml));
  });

  it('reads YAML anchors and aliases', () => {
    const policy = parsePolicy(`
roles:
  reader: &read
    - resources: [flag]
      actions: [read]
  also-reader: *read
`);
    expect(policy.roles.get('also-reader')).toEqual(policy.roles.get('reader'));
  });

  it('refuses aliases that stand for more than limits.max_yaml_alias_nodes, naming the place', () => {
    const text = 'roles:\n  reader: &read\n    - resources: [flag]\n      actions: [read]\n  also-reader: *read\n';
    // `*read` stands for 8 nodes: the list, the rule, its two keys, their two lists and each list's item.
    expect(parsePolicy(text, 'policy.yml', 8).roles.get('also-reader')).toEqual(parsePolicy(text).roles.get('reader'));
    expect(() => parsePolicy(text, 'policy.yml', 7))
      .toThrow('policy.yml: not valid YAML or JSON at line 5, column 16: aliases stand for more than 7 nodes (limits.max_yaml_alias_nodes)');
  });

  it.each([
    ['an empty map', '{}'],
    ['only a version', 'version: "1"'],
    ['a numeric version', 'version: 1'],
    ['null roles and bindings', 'roles: ~\nbindings: ~'],
  ])('accepts %s as a policy with no roles, no bindings, no default role', (_, text) => {
    const policy = parsePolicy(text);
    expect(policy.roles.size).toBe(0);
    expect(policy.bindings).toEqual([]);
    expect(policy.defaultRole).toBeNull();
  });
});

describe('readPolicy normalises rules', () => {
  it.each([
    ['a single resource and action as text', { resources: 'flag', actions: 'read' }, { resources: ['flag'], actions: ['read'], namespaces: null }],
    ['`*` resources and actions as text', { resources: '*', actions: '*' }, { resources: [...RESOURCES], actions: [...ACTIONS], namespaces: null }],
    ['`*` inside a list', { resources: ['flag', '*'], actions: ['*', 'read'] }, { resources: [...RESOURCES], actions: [...ACTIONS], namespaces: null }],
    ['repeats, once', { resources: ['flag', 'flag'], actions: ['read', 'read', 'update'] }, { resources: ['flag'], actions: ['read', 'update'], namespaces: null }],
    ['namespaces omitted: unlimited', { resources: 'flag', actions: 'read' }, { resources: ['flag'], actions: ['read'], namespaces: null }],
    ['namespaces `*`: unlimited', { resources: 'flag', actions: 'read', namespaces: '*' }, { resources: ['flag'], actions: ['read'], namespaces: null }],
    ['`*` among namespaces: unlimited', { resources: 'flag', actions: 'read', namespaces: ['production', '*'] }, { resources: ['flag'], actions: ['read'], namespaces: null }],
    ['one namespace as text', { resources: 'flag', actions: 'read', namespaces: 'production' }, { resources: ['flag'], actions: ['read'], namespaces: ['production'] }],
    ['names and globs kept', { resources: 'flag', actions: 'read', namespaces: [' production ', 'team-*'] }, { resources: ['flag'], actions: ['read'], namespaces: ['production', 'team-*'] }],
  ])('%s', (_, given, expected) => {
    expect(ruleOf(readPolicy({ roles: { r: [given] } }))).toEqual(expected);
  });

  it('keeps a role with several rules in order', () => {
    const policy = readPolicy({ roles: { r: [{ resources: 'flag', actions: 'read' }, { resources: 'segment', actions: 'update', namespaces: 'a' }] } });
    expect(policy.roles.get('r')).toEqual([
      { resources: ['flag'], actions: ['read'], namespaces: null },
      { resources: ['segment'], actions: ['update'], namespaces: ['a'] },
    ]);
  });

  it.each([
    ['role names trimmed', { role: ' admin ', token: { metadata: { k: 'v' } } }, { roles: ['admin'], match: { method: 'token', metadata: { k: ['v'] } } }],
    ['token metadata values as text', { role: 'admin', token: { metadata: { n: 5, b: false, l: ['x', 7] } } }, { roles: ['admin'], match: { method: 'token', metadata: { n: ['5'], b: ['false'], l: ['x', '7'] } } }],
    [
      'oidc by email domain alone, lower-cased, no provider',
      { role: 'admin', oidc: { email_domain: ['Example.com', 'EXAMPLE.ORG'] } },
      { roles: ['admin'], match: { method: 'oidc', provider: null, claims: {}, emailDomains: ['example.com', 'example.org'] } },
    ],
    ['oidc by claims alone', { role: 'admin', oidc: { claims: { 'realm_access.roles': 'admin' } } }, { roles: ['admin'], match: { method: 'oidc', provider: null, claims: { 'realm_access.roles': ['admin'] }, emailDomains: [] } }],
    ['github without teams', { role: 'admin', github: { organization: 'acme' } }, { roles: ['admin'], match: { method: 'github', organization: 'acme', teams: [] } }],
    ['kubernetes without service accounts', { role: 'admin', kubernetes: { namespace: 'apps' } }, { roles: ['admin'], match: { method: 'kubernetes', namespace: 'apps', serviceAccounts: [] } }],
    ['kubernetes with one service account as text', { role: 'admin', kubernetes: { namespace: 'apps', service_account: 'deployer' } }, { roles: ['admin'], match: { method: 'kubernetes', namespace: 'apps', serviceAccounts: ['deployer'] } }],
  ])('bindings: %s', (_, given, expected) => {
    expect(readPolicy({ roles: ADMIN, bindings: [given] }).bindings).toEqual([expected]);
  });

  it.each([[''], [null], [undefined]])('default_role %j means none', (value) => {
    expect(readPolicy({ roles: ADMIN, default_role: value }).defaultRole).toBeNull();
  });
});

describe('readPolicy refuses, naming the place', () => {
  it.each<[string, unknown, string]>([
    ['a list for the file', [], 'p: the file: must be a map'],
    ['text for the file', 'admin', 'p: the file: must be a map'],
    ['an unknown top-level field', { roles: ADMIN, role: {} }, 'p: role: unknown field (expected version, roles, bindings, default_role)'],
    ['version 2', { version: '2' }, 'p: version: must be "1"'],
    ['version 1.1', { version: '1.1' }, 'p: version: must be "1"'],
    ['roles as a list', { roles: [] }, 'p: roles: must be a map'],
    ['a role name with a space', { roles: { 'flag admins': [] } }, 'p: roles.flag admins: a role name is letters, digits and . _ : -'],
    ['a role that is not a list', { roles: { r: { resources: 'flag', actions: 'read' } } }, 'p: roles.r: must be a list'],
    ['a rule that is not a map', { roles: { r: ['flag'] } }, 'p: roles.r[0]: must be a map'],
    ['an unknown field in a rule', rule({ namespace: 'production' }), 'p: roles.r[0].namespace: unknown field (expected resources, actions, namespaces)'],
    ['a rule without resources', { roles: { r: [{ actions: 'read' }] } }, 'p: roles.r[0].resources: is required'],
    ['a rule without actions', { roles: { r: [{ resources: 'flag' }] } }, 'p: roles.r[0].actions: is required'],
    ['an unknown resource', rule({ resources: ['flag', 'flags'] }), 'p: roles.r[0].resources[1]: unknown resource "flags"'],
    ['an unknown action', rule({ actions: ['read', 'write'] }), 'p: roles.r[0].actions[1]: unknown action "write"'],
    ['an action in upper case', rule({ actions: 'READ' }), 'p: roles.r[0].actions[0]: unknown action "READ"'],
    ['empty resources', rule({ resources: [] }), 'p: roles.r[0].resources: must not be empty'],
    ['empty actions', rule({ actions: [] }), 'p: roles.r[0].actions: must not be empty'],
    ['empty namespaces', rule({ namespaces: [] }), 'p: roles.r[0].namespaces: must not be empty'],
    ['an empty namespace name', rule({ namespaces: ['production', ' '] }), 'p: roles.r[0].namespaces[1]: must be a non-empty string'],
    ['a number for a namespace', rule({ namespaces: [5] }), 'p: roles.r[0].namespaces[0]: must be a non-empty string'],
    ['a map for resources', rule({ resources: { flag: true } }), 'p: roles.r[0].resources: must be a list'],
    ['bindings as a map', { roles: ADMIN, bindings: {} }, 'p: bindings: must be a list'],
    ['a binding that is not a map', { roles: ADMIN, bindings: ['admin'] }, 'p: bindings[0]: must be a map'],
    ['an unknown field in a binding', binding({ token: { metadata: { k: 'v' } }, group: 'x' }), 'p: bindings[0].group: unknown field'],
    ['a binding with no role', { roles: ADMIN, bindings: [{ token: { metadata: { k: 'v' } } }] }, 'p: bindings[0]: needs `role` or `roles` (one of them)'],
    ['a binding with role and roles', binding({ roles: ['admin'], token: { metadata: { k: 'v' } } }), 'p: bindings[0]: needs `role` or `roles` (one of them)'],
    ['a binding naming an unknown role', { roles: ADMIN, bindings: [{ role: 'root', token: { metadata: { k: 'v' } } }] }, 'p: bindings[0].role: no role named "root" (roles: admin)'],
    ['a binding listing an unknown role', { roles: ADMIN, bindings: [{ roles: ['admin', 'root'], jwt: { claims: { k: 'v' } } }] }, 'p: bindings[0].roles[1]: no role named "root"'],
    ['a binding when there are no roles', { bindings: [{ role: 'admin', token: { metadata: { k: 'v' } } }] }, 'p: bindings[0].role: no role named "admin" (roles: none)'],
    ['a binding with empty roles', { roles: ADMIN, bindings: [{ roles: [], token: { metadata: { k: 'v' } } }] }, 'p: bindings[0].roles: must not be empty'],
    ['a binding with no method section', binding({}), 'p: bindings[0]: needs exactly one of token, oidc, github, kubernetes, jwt'],
    ['a binding with two method sections', binding({ token: { metadata: { k: 'v' } }, jwt: { claims: { k: 'v' } } }), 'p: bindings[0]: needs exactly one of token, oidc, github, kubernetes, jwt'],
    ['a method section that is not a map', binding({ jwt: null }), 'p: bindings[0].jwt: must be a map'],
    ['a token binding without metadata', binding({ token: {} }), 'p: bindings[0].token.metadata: is required'],
    ['a token binding with empty metadata', binding({ token: { metadata: {} } }), 'p: bindings[0].token.metadata: must not be empty'],
    ['an unknown field in a token binding', binding({ token: { metadata: { k: 'v' }, claims: {} } }), 'p: bindings[0].token.claims: unknown field (expected metadata)'],
    ['an empty list of metadata values', binding({ token: { metadata: { k: [] } } }), 'p: bindings[0].token.metadata.k: must not be empty'],
    ['a map as a metadata value', binding({ token: { metadata: { k: { v: 1 } } } }), 'p: bindings[0].token.metadata.k[0]: must be a string, number or boolean'],
    ['a null in a list of claim values', binding({ jwt: { claims: { k: ['v', null] } } }), 'p: bindings[0].jwt.claims.k[1]: must be a string, number or boolean'],
    ['an oidc binding with neither claims nor email_domain', binding({ oidc: { provider: 'google' } }), 'p: bindings[0].oidc: needs `claims` or `email_domain`'],
    ['an oidc binding with empty claims only', binding({ oidc: { claims: {} } }), 'p: bindings[0].oidc: needs `claims` or `email_domain`'],
    ['an oidc binding with an empty email_domain list', binding({ oidc: { email_domain: [] } }), 'p: bindings[0].oidc.email_domain: must not be empty'],
    ['an oidc binding with an empty provider', binding({ oidc: { provider: '', claims: { k: 'v' } } }), 'p: bindings[0].oidc.provider: must be a non-empty string'],
    ['an unknown field in an oidc binding', binding({ oidc: { claims: { k: 'v' }, email: 'a@b' } }), 'p: bindings[0].oidc.email: unknown field'],
    ['a github binding without organization', binding({ github: { team: 'devs' } }), 'p: bindings[0].github.organization: must be a non-empty string'],
    ['a github binding with an empty team list', binding({ github: { organization: 'acme', team: [] } }), 'p: bindings[0].github.team: must not be empty'],
    ['a github binding with `teams`', binding({ github: { organization: 'acme', teams: ['devs'] } }), 'p: bindings[0].github.teams: unknown field (expected organization, team)'],
    ['a kubernetes binding without namespace', binding({ kubernetes: { service_account: 'x' } }), 'p: bindings[0].kubernetes.namespace: must be a non-empty string'],
    ['a kubernetes binding with `service_accounts`', binding({ kubernetes: { namespace: 'apps', service_accounts: ['x'] } }), 'p: bindings[0].kubernetes.service_accounts: unknown field'],
    ['a jwt binding without claims', binding({ jwt: {} }), 'p: bindings[0].jwt.claims: is required'],
    ['a jwt binding with empty claims', binding({ jwt: { claims: {} } }), 'p: bindings[0].jwt.claims: must not be empty'],
    ['the second binding, by its index', { roles: ADMIN, bindings: [{ role: 'admin', jwt: { claims: { k: 'v' } } }, { role: 'admin' }] }, 'p: bindings[1]: needs exactly one of'],
    ['an unknown default_role', { roles: ADMIN, default_role: 'root' }, 'p: default_role: no role named "root" (roles: admin)'],
    ['a number for default_role', { roles: ADMIN, default_role: 5 }, 'p: default_role: must be a non-empty string'],
  ])('%s', (_, value, message) => {
    expect(refusal(() => readPolicy(value, 'p')).message).toContain(message);
  });

  it('names the file "policy" unless told', () => {
    expect(refusal(() => readPolicy({ version: '2' })).message).toMatch(/^policy: version: /);
  });
});

describe('parsePolicy refuses, naming the place', () => {
  it.each([
    ['two method sections', 'roles:\n  admin:\n    - {resources: "*", actions: "*"}\nbindings:\n  - role: admin\n    token: {metadata: {k: v}}\n    oidc: {claims: {k: v}}\n', 'policy.yml: bindings[0]: needs exactly one of'],
    ['an unknown resource', 'roles:\n  editor:\n    - resources: [flag, audits]\n      actions: [read]\n', 'policy.yml: roles.editor[0].resources[1]: unknown resource "audits"'],
    ['an unknown field', '{"roles": {}, "bindngs": []}', 'policy.yml: bindngs: unknown field'],
    ['an empty file', '', 'policy.yml: the file: must be a map'],
    ['a scalar file', 'admin', 'policy.yml: the file: must be a map'],
    ['version 2', 'version: 2', 'policy.yml: version: must be "1"'],
  ])('%s', (_, text, message) => {
    expect(refusal(() => parsePolicy(text, 'policy.yml')).message).toContain(message);
  });

  it.each([
    ['YAML', 'roles: [\n'],
    ['JSON', '{"roles": {"admin": [}'],
  ])('refuses invalid %s', (_, text) => {
    expect(refusal(() => parsePolicy(text, 'policy.yml')).message).toMatch(/^policy\.yml: not valid YAML or JSON at line \d+, column \d+: /);
  });

  it.each([
    ['YAML', 'roles:\n  admin: []\n  admin: []\n'],
    ['JSON', '{\n"roles": {},\n"roles": {}\n}'],
  ])('refuses duplicate keys in %s', (_, text) => {
    expect(refusal(() => parsePolicy(text, 'policy.yml')).message).toMatch(/^policy\.yml: not valid YAML or JSON at line \d+, column \d+: .*unique/);
  });

  // A syntax error names its line, as every refusal names its place.
  it.each([
    ['invalid YAML', 'version: "1"\nroles: {a: [}\nbindings: []\n', 2],
    ['a duplicate key', 'roles:\n  admin: []\n  admin: []\n', 3],
    ['a duplicate key in JSON', '{\n"roles": {},\n"roles": {}\n}', 3],
  ])('names the line of %s', (_, text, line) => {
    expect(refusal(() => parsePolicy(text, 'policy.yml')).message).toMatch(new RegExp(`line ${line}\\b`));
  });

  // A broken glob (an unclosed `{` or `!(`) would match no namespace: refused rather than silently granting nothing.
  it.each([['team-{a,b'], ['!(team-a']])('refuses the broken namespace glob %j', (glob) => {
    expect(refusal(() => readPolicy(rule({ namespaces: ['production', glob] }), 'p')).message).toContain('p: roles.r[0].namespaces[1]: not a valid glob');
  });
});

describe('the shipped example (docs/authorization.example.yml)', () => {
  const policy = parsePolicy(readFileSync(EXAMPLE, 'utf8'), EXAMPLE);

  it('has the roles and bindings its comments describe', () => {
    expect([...policy.roles.keys()]).toEqual(['admin', 'production-editor', 'team-editor', 'viewer', 'evaluator']);
    expect(policy.bindings.map((b) => [b.roles, b.match.method])).toEqual([
      [['admin'], 'token'],
      [['admin'], 'oidc'],
      [['viewer'], 'oidc'],
      [['production-editor'], 'github'],
      [['evaluator'], 'kubernetes'],
      [['team-editor'], 'jwt'],
    ]);
    expect(policy.defaultRole).toBeNull();
  });

  it('reads `*` as everything, everywhere', () => {
    expect(policy.roles.get('admin')).toEqual([{ resources: [...RESOURCES], actions: [...ACTIONS], namespaces: null }]);
  });
});

// Hardening issue 15: a file read while it is being written (or cut short by a full disk) must not widen access.
describe('parsePolicy refuses a file cut off where it ends', () => {
  /** Roles last, so that a cut can end the file inside a rule; an admin rule for everywhere, then narrower ones. */
  const ROLES_LAST = `bindings:
  - role: releaser
    jwt:
      claims:
        scope: flags:release
roles:
  reader:
    - resources: [namespace, flag, segment]
      actions: read
  releaser:
    - resources: flag
      actions: [create, update, delete]
      namespaces: [staging, "eu-*-live"]
    - resources: namespace
      actions: read
      namespaces:
        - staging
        - eu-*-live
`;
  const BINDINGS_LAST = `roles:
  editor:
    - resources: [flag]
      actions: [read]
      namespaces: [production]
bindings:
  - role: editor
    github:
      organization: acme-corp
      team: release-managers
`;

  /** Every rule of `cut` is one of `whole`'s, or a part of one: no resource, action or namespace it did not name. */
  function expectNoWider(cut: Policy, whole: Policy, text: string): void {
    for (const [role, rules] of cut.roles) {
      rules.forEach((rule, i) => {
        const full = whole.roles.get(role)?.[i];
        const where = `${JSON.stringify(text.slice(-40))}: roles.${role}[${i}]`;
        expect({ where, wider: full === undefined }).toEqual({ where, wider: false });
        expect({ where, resources: rule.resources.filter((r) => !full!.resources.includes(r)) }).toEqual({ where, resources: [] });
        expect({ where, actions: rule.actions.filter((a) => !full!.actions.includes(a)) }).toEqual({ where, actions: [] });
        const everywhere = full!.namespaces === null;
        const extra = rule.namespaces === null ? (everywhere ? [] : ['every namespace']) : everywhere ? [] : rule.namespaces.filter((n) => !full!.namespaces!.includes(n));
        expect({ where, namespaces: extra }).toEqual({ where, namespaces: [] });
      });
    }
  }

  it('a rule cut before its namespaces (at the end of a line) is refused, naming the rule', () => {
    const cut = ROLES_LAST.slice(0, ROLES_LAST.indexOf('      namespaces: [staging, "eu-*-live"]'));
    expect(refusal(() => parsePolicy(cut, 'policy.yml')).message).toBe(
      'policy.yml: roles.releaser[0]: the file ends with this rule, and it names no namespaces: it may have been cut off before them; write `namespaces: "*"` if it is for every namespace',
    );
  });

  it('a value cut mid-line is refused: a glob `eu-*-live` must not be read as `eu-*`', () => {
    const cut = ROLES_LAST.slice(0, ROLES_LAST.lastIndexOf('-live'));
    expect(cut.endsWith('- eu-*')).toBe(true);
    expect(refusal(() => parsePolicy(cut, 'policy.yml')).message).toBe(
      'policy.yml: roles.releaser[1]: the file ends inside this entry without a line break: it may have been cut off (a write not finished); end the file with a line break',
    );
  });

  it('a binding cut mid-line is refused: organization `acme-corp` must not be read as `acme`', () => {
    const cut = BINDINGS_LAST.slice(0, BINDINGS_LAST.indexOf('-corp'));
    expect(refusal(() => parsePolicy(cut, 'policy.yml')).message).toContain('policy.yml: bindings[0]: the file ends inside this entry without a line break');
  });

  it('no cut of a file anywhere, at any byte, grants more than the whole file', () => {
    const whole = parsePolicy(ROLES_LAST);
    let accepted = 0;
    for (let end = 0; end < ROLES_LAST.length; end++) {
      const text = ROLES_LAST.slice(0, end);
      let cut: Policy;
      try {
        cut = parsePolicy(text);
      } catch (e) {
        expect(e).toBeInstanceOf(PolicyError);
        continue;
      }
      accepted++;
      expectNoWider(cut, whole, text);
    }
    // Cuts after whole rules (and inside the bindings, before any role) are taken: the check is not "refuse all".
    expect(accepted).toBeGreaterThan(0);
  });

  it('every cut of a JSON policy is refused (its brackets close only at the end)', () => {
    const json = JSON.stringify({ roles: { admin: [{ resources: '*', actions: '*' }], editor: [{ resources: 'flag', actions: 'read', namespaces: ['production'] }] } });
    for (let end = 0; end < json.length; end++) expect(() => parsePolicy(json.slice(0, end))).toThrow(PolicyError);
    expect(parsePolicy(json).roles.get('editor')).toEqual([{ resources: ['flag'], actions: ['read'], namespaces: ['production'] }]);
  });

  it.each([
    ['a last rule that names its namespaces', 'roles:\n  r:\n    - resources: flag\n      actions: read\n      namespaces: "*"\n'],
    ['a last rule for everywhere written in brackets', 'roles:\n  r:\n    - { resources: flag, actions: read }\n'],
    ['a last role written in brackets', 'roles:\n  r: [{ resources: flag, actions: read }]'],
    ['a last rule ending in a closed list, without a line break', 'roles:\n  r:\n    - resources: flag\n      actions: read\n      namespaces: [production]'],
    ['a last binding ending in a quoted value, without a line break', 'roles:\n  r: []\nbindings:\n  - role: r\n    github:\n      organization: "acme"'],
    ['a file ending in default_role', 'roles:\n  r:\n    - resources: flag\n      actions: read\ndefault_role: r'],
  ])('accepts %s', (_, text) => {
    expect(() => parsePolicy(text)).not.toThrow();
  });
});
