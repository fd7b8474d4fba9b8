import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Method } from '../wire';
import { rolesOf, type CredentialFacts } from './bindings';
import { parsePolicy, readPolicy } from './policy';

const EXAMPLE = join(__dirname, '../../docs/authorization.example.yml');

const ROLES = {
  admin: [{ resources: '*', actions: '*' }],
  editor: [{ resources: 'flag', actions: '*' }],
  viewer: [{ resources: 'flag', actions: 'read' }],
  guest: [{ resources: 'namespace', actions: 'read' }],
};

/** A policy with the four roles above and the given bindings (and default role). */
const policyWith = (bindings: unknown[], defaultRole?: string) => readPolicy({ roles: ROLES, bindings, default_role: defaultRole }, 'test');

const token = (metadata: Record<string, string> = {}): CredentialFacts => ({ method: Method.METHOD_TOKEN, metadata });
const jwt = (claims?: Record<string, unknown>, metadata: Record<string, string> = {}): CredentialFacts => ({ method: Method.METHOD_JWT, metadata, claims });
const oidc = (claims?: Record<string, unknown>, metadata: Record<string, string> = {}): CredentialFacts => ({
  method: Method.METHOD_OIDC,
  metadata: { ...(claims ? { 'io.flagpole.auth.claims': JSON.stringify(claims) } : {}), ...metadata },
});
const github = (organizations?: unknown, teams?: unknown): CredentialFacts => ({
  method: Method.METHOD_GITHUB,
  metadata: {
    ...(organizations !== undefined ? { 'io.flagpole.auth.github.organizations': JSON.stringify(organizations) } : {}),
    ...(teams !== undefined ? { 'io.flagpole.auth.github.teams': JSON.stringify(teams) } : {}),
  },
});
const k8s = (namespace?: string, serviceAccount?: string): CredentialFacts => ({
  method: Method.METHOD_KUBERNETES,
  metadata: {
    ...(namespace !== undefined ? { 'io.flagpole.auth.k8s.namespace': namespace } : {}),
    ...(serviceAccount !== undefined ? { 'io.flagpole.auth.k8s.serviceaccount.name': serviceAccount } : {}),
  },
});

describe('rolesOf: token bindings', () => {
  const policy = policyWith([
    { role: 'admin', token: { metadata: { 'io.flagpole.auth.token.name': 'initial_bootstrap_token' } } },
    { role: 'editor', token: { metadata: { team: ['payments', 'checkout'], tier: 2 } } },
  ]);

  it.each<[string, CredentialFacts, string[]]>([
    ['the named token', token({ 'io.flagpole.auth.token.name': 'initial_bootstrap_token' }), ['admin']],
    ['another name', token({ 'io.flagpole.auth.token.name': 'ci' }), []],
    ['the name in another case', token({ 'io.flagpole.auth.token.name': 'Initial_Bootstrap_Token' }), []],
    ['no metadata', token(), []],
    ['one of the listed values, and a number as text', token({ team: 'checkout', tier: '2' }), ['editor']],
    ['every key needed: tier missing', token({ team: 'checkout' }), []],
    ['every key needed: tier wrong', token({ team: 'payments', tier: '3' }), []],
    ['a value not listed', token({ team: 'growth', tier: '2' }), []],
    ['both bindings', token({ 'io.flagpole.auth.token.name': 'initial_bootstrap_token', team: 'payments', tier: '2' }), ['admin', 'editor']],
    ['the same metadata on a JWT', jwt({}, { 'io.flagpole.auth.token.name': 'initial_bootstrap_token' }), []],
    ['the same metadata on an OIDC credential', oidc({}, { 'io.flagpole.auth.token.name': 'initial_bootstrap_token' }), []],
  ])('%s', (_, credential, roles) => {
    expect(rolesOf(policy, credential)).toEqual(roles);
  });
});

describe('rolesOf: self-named roles', () => {
  const policy = policyWith([{ role: 'editor', token: { metadata: { team: 'payments' } } }]);
  const withDefault = policyWith([], 'guest');

  it.each<[string, CredentialFacts, string[]]>([
    ['a token naming its role (io.flagpole.auth.role)', token({ 'io.flagpole.auth.role': 'viewer' }), ['viewer']],
    ["a token naming its role with Flipt's key (io.flipt.auth.role)", token({ 'io.flipt.auth.role': 'viewer' }), ['viewer']],
    ['a token naming roles under both keys', token({ 'io.flagpole.auth.role': 'viewer', 'io.flipt.auth.role': 'editor' }), ['editor', 'viewer']],
    ['a comma list, spaces trimmed, sorted', token({ 'io.flagpole.auth.role': ' viewer , admin,' }), ['admin', 'viewer']],
    ['an unknown role left out', token({ 'io.flagpole.auth.role': 'viewer,root' }), ['viewer']],
    ['a role name in another case is unknown', token({ 'io.flagpole.auth.role': 'Admin' }), []],
    ['a self-named role and a binding together', token({ 'io.flagpole.auth.role': 'viewer', team: 'payments' }), ['editor', 'viewer']],
    ['the same role twice, once', token({ 'io.flagpole.auth.role': 'editor,editor', 'io.flipt.auth.role': 'editor', team: 'payments' }), ['editor']],
    ['a JWT naming its role in a claim', jwt({ 'io.flagpole.auth.role': 'admin' }), ['admin']],
    ["a JWT naming its role with Flipt's claim", jwt({ 'io.flipt.auth.role': 'viewer' }), ['viewer']],
    ['a JWT claim as a comma list', jwt({ 'io.flagpole.auth.role': 'viewer,editor' }), ['editor', 'viewer']],
    ['a JWT claim as a list', jwt({ 'io.flagpole.auth.role': ['viewer', 'editor', 'root'] }), ['editor', 'viewer']],
    ['a JWT claim that is a number', jwt({ 'io.flagpole.auth.role': 5 }), []],
    // Only tokens (metadata set by their creator) and JWTs (claims signed by their issuer) may name a role.
    ['an OIDC credential with the role in its metadata', oidc({ sub: 'u' }, { 'io.flagpole.auth.role': 'admin' }), []],
    ["an OIDC credential with Flipt's key in its metadata", oidc({ sub: 'u' }, { 'io.flipt.auth.role': 'admin' }), []],
    ['an OIDC credential with the role as an ID token claim', oidc({ 'io.flagpole.auth.role': 'admin' }), []],
    ['an OIDC credential with facts in `claims`', { method: Method.METHOD_OIDC, metadata: {}, claims: { 'io.flagpole.auth.role': 'admin' } }, []],
    ['a GitHub credential with the role in its metadata', { method: Method.METHOD_GITHUB, metadata: { 'io.flagpole.auth.role': 'admin' } }, []],
    ['a Kubernetes credential with the role in its metadata', { method: Method.METHOD_KUBERNETES, metadata: { 'io.flipt.auth.role': 'admin' } }, []],
    ['a token with the role in `claims` (not metadata)', { method: Method.METHOD_TOKEN, metadata: {}, claims: { 'io.flagpole.auth.role': 'admin' } }, []],
  ])('%s', (_, credential, roles) => {
    expect(rolesOf(policy, credential)).toEqual(roles);
  });

  it.each<[string, CredentialFacts, string[]]>([
    ['a token naming a known role: no default', token({ 'io.flagpole.auth.role': 'viewer' }), ['viewer']],
    ['a token naming only unknown roles: the default', token({ 'io.flagpole.auth.role': 'root,superuser' }), ['guest']],
    ['a token naming nothing: the default', token({ 'io.flagpole.auth.role': ' , ' }), ['guest']],
    ['an OIDC credential naming admin: only the default', oidc({ sub: 'u' }, { 'io.flagpole.auth.role': 'admin' }), ['guest']],
  ])('with a default role: %s', (_, credential, roles) => {
    expect(rolesOf(withDefault, credential)).toEqual(roles);
  });
});

describe('rolesOf: default_role', () => {
  const bindings = [{ role: 'editor', jwt: { claims: { scope: 'flags' } } }];

  it.each<[string, string | undefined, CredentialFacts, string[]]>([
    ['a match: only what matched', 'guest', jwt({ scope: 'flags' }), ['editor']],
    ['no match: the default', 'guest', jwt({ scope: 'other' }), ['guest']],
    ['no match, any method: the default', 'guest', k8s('apps', 'x'), ['guest']],
    ['no match and no default: nothing', undefined, jwt({ scope: 'other' }), []],
    ['a default that a binding also gives: once', 'editor', jwt({ scope: 'flags' }), ['editor']],
  ])('%s', (_, defaultRole, credential, roles) => {
    expect(rolesOf(policyWith(bindings, defaultRole), credential)).toEqual(roles);
  });

  it('gives every role of a `roles` binding, sorted', () => {
    const policy = policyWith([{ roles: ['viewer', 'editor'], jwt: { claims: { scope: 'flags' } } }]);
    expect(rolesOf(policy, jwt({ scope: 'flags' }))).toEqual(['editor', 'viewer']);
  });
});

describe('rolesOf: OIDC bindings', () => {
  it.each<[string, Record<string, unknown>, CredentialFacts, boolean]>([
    ['a list claim holding the value', { groups: 'flag-admins' }, oidc({ groups: ['devs', 'flag-admins'] }), true],
    ['a scalar claim equal to the value', { groups: 'flag-admins' }, oidc({ groups: 'flag-admins' }), true],
    ['a list claim without it', { groups: 'flag-admins' }, oidc({ groups: ['devs'] }), false],
    ['a scalar claim not equal', { groups: 'flag-admins' }, oidc({ groups: 'flag-admins-2' }), false],
    ['a claim in another case', { groups: 'flag-admins' }, oidc({ groups: ['Flag-Admins'] }), false],
    ['the claim missing', { groups: 'flag-admins' }, oidc({ sub: 'u' }), false],
    ['a null claim', { groups: 'flag-admins' }, oidc({ groups: null }), false],
    ['an object claim', { groups: 'flag-admins' }, oidc({ groups: { 'flag-admins': true } }), false],
    ['a nested list claim (not flattened)', { groups: 'flag-admins' }, oidc({ groups: [['flag-admins']] }), false],
    ['one of several policy values', { groups: ['ops', 'flag-admins'] }, oidc({ groups: ['flag-admins'] }), true],
    ['every named claim needed (both held)', { groups: 'flag-admins', hd: 'example.com' }, oidc({ groups: ['flag-admins'], hd: 'example.com' }), true],
    ['every named claim needed (one missing)', { groups: 'flag-admins', hd: 'example.com' }, oidc({ groups: ['flag-admins'] }), false],
    ['a number claim compared as text', { level: 3 }, oidc({ level: 3 }), true],
    ['a number claim against text in the policy', { level: '3' }, oidc({ level: 3 }), true],
    ['a text claim against a number in the policy', { level: 3 }, oidc({ level: '3' }), true],
    ['a different number', { level: 3 }, oidc({ level: 30 }), false],
    ['numbers in a list claim', { level: 3 }, oidc({ level: [1, 3] }), true],
    ['a boolean claim compared as text', { email_verified: true }, oidc({ email_verified: true }), true],
    ['a false boolean claim', { email_verified: true }, oidc({ email_verified: false }), false],
    ['a dotted path into nested claims', { 'realm_access.roles': 'flags-admin' }, oidc({ realm_access: { roles: ['offline', 'flags-admin'] } }), true],
    ['a dotted path, value absent', { 'realm_access.roles': 'flags-admin' }, oidc({ realm_access: { roles: ['offline'] } }), false],
    ['a deeper dotted path to a scalar', { 'org.unit.name': 'platform' }, oidc({ org: { unit: { name: 'platform' } } }), true],
    ['a dotted path through a list', { 'orgs.name': 'platform' }, oidc({ orgs: [{ name: 'platform' }] }), false],
    ['a dotted path that stops short', { 'realm_access.roles': 'flags-admin' }, oidc({ realm_access: 'flags-admin' }), false],
    ['a claim whose name has dots', { 'https://example.com/groups': 'flag-admins' }, oidc({ 'https://example.com/groups': ['flag-admins'] }), true],
    ['a claim named like the path wins over the path', { 'realm_access.roles': 'flags-admin' }, oidc({ 'realm_access.roles': 'user', realm_access: { roles: ['flags-admin'] } }), false],
  ])('claims: %s', (_, claims, credential, matched) => {
    expect(rolesOf(policyWith([{ role: 'admin', oidc: { claims } }]), credential)).toEqual(matched ? ['admin'] : []);
  });

  it.each<[string, CredentialFacts]>([
    ['no claims in the metadata', { method: Method.METHOD_OIDC, metadata: {} }],
    ['claims that are not JSON', { method: Method.METHOD_OIDC, metadata: { 'io.flagpole.auth.claims': '{groups: flag-admins' } }],
    ['claims that are a JSON list', { method: Method.METHOD_OIDC, metadata: { 'io.flagpole.auth.claims': '["flag-admins"]' } }],
    ['claims given as `claims` rather than metadata', { method: Method.METHOD_OIDC, metadata: {}, claims: { groups: ['flag-admins'] } }],
    ['a JWT with the claim', jwt({ groups: ['flag-admins'] }, { 'io.flagpole.auth.claims': JSON.stringify({ groups: ['flag-admins'] }) })],
    ['a token with the claims metadata', token({ 'io.flagpole.auth.claims': JSON.stringify({ groups: ['flag-admins'] }) })],
  ])('claims: nothing for %s', (_, credential) => {
    expect(rolesOf(policyWith([{ role: 'admin', oidc: { claims: { groups: 'flag-admins' } } }]), credential)).toEqual([]);
  });

  it.each<[string, unknown, CredentialFacts, boolean]>([
    ['the domain', 'example.com', oidc({ email: 'ada@example.com' }), true],
    ['the domain in another case', 'example.com', oidc({ email: 'Ada@EXAMPLE.com' }), true],
    ['a policy domain in upper case', 'Example.COM', oidc({ email: 'ada@example.com' }), true],
    ['one of several domains', ['example.org', 'example.com'], oidc({ email: 'ada@example.com' }), true],
    ['a subdomain', 'example.com', oidc({ email: 'ada@mail.example.com' }), false],
    ['a domain that ends with it', 'example.com', oidc({ email: 'ada@badexample.com' }), false],
    ['a domain that starts with it', 'example.com', oidc({ email: 'ada@example.com.evil.test' }), false],
    ['the domain before another @', 'example.com', oidc({ email: 'ada@example.com@evil.test' }), false],
    ['no @', 'example.com', oidc({ email: 'example.com' }), false],
    ['no email', 'example.com', oidc({ sub: 'u' }), false],
    ['an email that is not text', 'example.com', oidc({ email: ['ada@example.com'] }), false],
    ['the email from metadata when the claims have none', 'example.com', oidc({ sub: 'u' }, { 'io.flagpole.auth.oidc.email': 'ada@example.com' }), true],
    ['the email claim before metadata', 'example.com', oidc({ email: 'ada@other.test' }, { 'io.flagpole.auth.oidc.email': 'ada@example.com' }), false],
    ['an address the provider has verified', 'example.com', oidc({ email: 'ada@example.com', email_verified: true }), true],
    ['an address the provider says is not verified', 'example.com', oidc({ email: 'ada@example.com', email_verified: false }), false],
    ['not verified, said in metadata', 'example.com', oidc({ email: 'ada@example.com' }, { 'io.flagpole.auth.oidc.email_verified': 'false' }), false],
  ])('email_domain: %s', (_, domain, credential, matched) => {
    expect(rolesOf(policyWith([{ role: 'viewer', oidc: { email_domain: domain } }]), credential)).toEqual(matched ? ['viewer'] : []);
  });

  it.each<[string, CredentialFacts, boolean]>([
    ['claim and domain', oidc({ groups: ['flag-admins'], email: 'ada@example.com' }), true],
    ['the claim only', oidc({ groups: ['flag-admins'], email: 'ada@other.test' }), false],
    ['the domain only', oidc({ groups: ['devs'], email: 'ada@example.com' }), false],
  ])('claims and email_domain both needed: %s', (_, credential, matched) => {
    const policy = policyWith([{ role: 'admin', oidc: { claims: { groups: 'flag-admins' }, email_domain: 'example.com' } }]);
    expect(rolesOf(policy, credential)).toEqual(matched ? ['admin'] : []);
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['the provider', { 'io.flagpole.auth.oidc.provider': 'google' }, true],
    ['another provider', { 'io.flagpole.auth.oidc.provider': 'gitlab' }, false],
    ['the provider in another case', { 'io.flagpole.auth.oidc.provider': 'Google' }, false],
    ['no provider', {}, false],
  ])('provider: %s', (_, metadata, matched) => {
    const policy = policyWith([{ role: 'admin', oidc: { provider: 'google', claims: { groups: 'flag-admins' } } }]);
    expect(rolesOf(policy, oidc({ groups: ['flag-admins'] }, metadata))).toEqual(matched ? ['admin'] : []);
  });

  it('matches any provider when the binding names none', () => {
    const policy = policyWith([{ role: 'admin', oidc: { claims: { groups: 'flag-admins' } } }]);
    expect(rolesOf(policy, oidc({ groups: ['flag-admins'] }, { 'io.flagpole.auth.oidc.provider': 'gitlab' }))).toEqual(['admin']);
  });
});

describe('rolesOf: GitHub bindings', () => {
  it.each<[string, CredentialFacts, boolean]>([
    ['a member', github(['other', 'acme']), true],
    ['the organisation in another case', github(['ACME']), true],
    ['not a member', github(['acme-labs']), false],
    ['no organisations', github([]), false],
    ['no organisations metadata', github(), false],
    ['organisations that are not a list', github({ acme: true }), false],
    ['organisations that are not JSON', { method: Method.METHOD_GITHUB, metadata: { 'io.flagpole.auth.github.organizations': 'acme' } }, false],
    ['the organisation on a token', token({ 'io.flagpole.auth.github.organizations': '["acme"]' }), false],
  ])('organisation only: %s', (_, credential, matched) => {
    expect(rolesOf(policyWith([{ role: 'editor', github: { organization: 'Acme' } }]), credential)).toEqual(matched ? ['editor'] : []);
  });

  it.each<[string, CredentialFacts, boolean]>([
    ['in the team', github(['acme'], { acme: ['devs', 'release-managers'] }), true],
    ['in another listed team', github(['acme'], { acme: ['sre'] }), true],
    ['teams keyed by the organisation in another case', github(['ACME'], { ACME: ['release-managers'] }), true],
    ['not in the team', github(['acme'], { acme: ['devs'] }), false],
    ['a team slug in another case', github(['acme'], { acme: ['Release-Managers'] }), true],
    ['the team in another organisation', github(['acme', 'other'], { other: ['release-managers'] }), false],
    ['the team but not the organisation', github(['other'], { acme: ['release-managers'] }), false],
    ['no teams metadata', github(['acme']), false],
    ['teams not keyed by organisation', github(['acme'], ['release-managers']), false],
    ['teams of an organisation not a list', github(['acme'], { acme: 'release-managers' }), false],
  ])('organisation and team: %s', (_, credential, matched) => {
    const policy = policyWith([{ role: 'editor', github: { organization: 'acme', team: ['release-managers', 'sre'] } }]);
    expect(rolesOf(policy, credential)).toEqual(matched ? ['editor'] : []);
  });
});

describe('rolesOf: Kubernetes bindings', () => {
  it.each<[string, CredentialFacts, boolean]>([
    ['a service account of the namespace', k8s('apps', 'anything'), true],
    ['without a service account name', k8s('apps'), true],
    ['another namespace', k8s('apps-2', 'anything'), false],
    ['the namespace in another case', k8s('Apps', 'anything'), false],
    ['no namespace', k8s(undefined, 'anything'), false],
    ['the namespace on a token', token({ 'io.flagpole.auth.k8s.namespace': 'apps' }), false],
  ])('namespace only: %s', (_, credential, matched) => {
    expect(rolesOf(policyWith([{ role: 'guest', kubernetes: { namespace: 'apps' } }]), credential)).toEqual(matched ? ['guest'] : []);
  });

  it.each<[string, CredentialFacts, boolean]>([
    ['a named service account', k8s('apps', 'deployer'), true],
    ['the other named service account', k8s('apps', 'evaluator'), true],
    ['another service account', k8s('apps', 'default'), false],
    ['a named service account of another namespace', k8s('tools', 'deployer'), false],
    ['no service account name', k8s('apps'), false],
  ])('namespace and service accounts: %s', (_, credential, matched) => {
    const policy = policyWith([{ role: 'guest', kubernetes: { namespace: 'apps', service_account: ['deployer', 'evaluator'] } }]);
    expect(rolesOf(policy, credential)).toEqual(matched ? ['guest'] : []);
  });
});

describe('rolesOf: JWT bindings', () => {
  it.each<[string, CredentialFacts, boolean]>([
    ['a scalar claim equal', jwt({ scope: 'flags:team-edit' }), true],
    ['a list claim holding it', jwt({ scope: ['flags:read', 'flags:team-edit'] }), true],
    ['a space-separated scope string (OAuth 2) holding it', jwt({ scope: 'openid flags:team-edit' }), true],
    ['a space-separated scope string without it', jwt({ scope: 'openid flags:team-editor' }), false],
    ['another value', jwt({ scope: 'flags:read' }), false],
    ['the claim missing', jwt({ sub: 'svc' }), false],
    ['no claims at all', jwt(), false],
    ['the claim only in metadata', jwt(undefined, { scope: 'flags:team-edit' }), false],
    ['a number claim compared as text', jwt({ scope: 'flags:team-edit', tier: 2 }), true],
    ['an OIDC credential with the claim', oidc({ scope: 'flags:team-edit', tier: 2 }), false],
  ])('%s', (_, credential, matched) => {
    const policy = policyWith([{ role: 'editor', jwt: { claims: { scope: 'flags:team-edit' } } }, { role: 'viewer', jwt: { claims: { tier: '2' } } }]);
    const roles = rolesOf(policy, credential);
    expect(roles.includes('editor')).toBe(matched);
    expect(roles.includes('viewer')).toBe(credential.method === Method.METHOD_JWT && credential.claims?.tier === 2);
  });

  it.each<[string, CredentialFacts, boolean]>([
    ['a nested claim by its dotted path', jwt({ realm_access: { roles: ['flags-admin'] } }), true],
    ['a boolean nested claim', jwt({ realm_access: { roles: [true] } }), false],
    ['the nested claim absent', jwt({ realm_access: {} }), false],
  ])('%s', (_, credential, matched) => {
    expect(rolesOf(policyWith([{ role: 'admin', jwt: { claims: { 'realm_access.roles': 'flags-admin' } } }]), credential)).toEqual(matched ? ['admin'] : []);
  });
});

describe('rolesOf under the shipped example (docs/authorization.example.yml)', () => {
  const policy = parsePolicy(readFileSync(EXAMPLE, 'utf8'), EXAMPLE);

  it.each<[string, CredentialFacts, string[]]>([
    ['the bootstrap token, by its name', token({ 'io.flagpole.auth.token.name': 'initial_bootstrap_token' }), ['admin']],
    ['a token of another name', token({ 'io.flagpole.auth.token.name': 'ci' }), []],
    ['a token naming viewer (the check in its header)', token({ 'io.flagpole.auth.role': 'viewer' }), ['viewer']],
    ["a token naming evaluator with Flipt's key", token({ 'io.flipt.auth.role': 'evaluator' }), ['evaluator']],
    ['a token with no metadata: no default role', token(), []],
    ['an OIDC member of flag-admins', oidc({ groups: ['flag-admins'] }), ['admin']],
    ['an OIDC user at example.com', oidc({ email: 'ada@example.com' }), ['viewer']],
    ['an OIDC flag-admin at example.com', oidc({ groups: ['flag-admins'], email: 'ada@Example.com' }), ['admin', 'viewer']],
    ['an OIDC user elsewhere', oidc({ groups: ['devs'], email: 'ada@example.org' }), []],
    ['an OIDC credential naming admin in its metadata', oidc({ email: 'ada@example.org' }, { 'io.flagpole.auth.role': 'admin' }), []],
    ['a GitHub release manager of acme', github(['acme'], { acme: ['release-managers'] }), ['production-editor']],
    ['a GitHub member of acme in another team', github(['acme'], { acme: ['devs'] }), []],
    ['a GitHub member of acme without teams', github(['acme']), []],
    ['a Kubernetes service account in apps', k8s('apps', 'checkout'), ['evaluator']],
    ['a Kubernetes service account elsewhere', k8s('default', 'checkout'), []],
    ['a JWT with scope flags:team-edit', jwt({ scope: 'flags:team-edit' }), ['team-editor']],
    ['a JWT naming admin itself', jwt({ 'io.flagpole.auth.role': 'admin' }), ['admin']],
    ['a JWT with another scope', jwt({ scope: 'flags:read' }), []],
  ])('%s', (_, credential, roles) => {
    expect(rolesOf(policy, credential)).toEqual(roles);
  });
});
