import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Grant, grantOf } from './grant';
import { ACTIONS, parsePolicy, readPolicy, type Action, type PolicyRule, type Resource } from './policy';

const EXAMPLE = join(__dirname, '../../docs/authorization.example.yml');

/** A grant of rules written as in a policy file (so `*` and omitted namespaces mean what they mean there). */
function grant(...rules: Array<Record<string, unknown>>): Grant {
  return grantOf(readPolicy({ roles: { r: rules } }), ['r']);
}

const rule = (resources: Resource[], actions: Action[], namespaces: string[] | null): PolicyRule => ({ resources, actions, namespaces });

describe('Grant.allows', () => {
  const unlimited = grant({ resources: ['flag'], actions: ['read', 'update'] });
  const named = grant({ resources: ['flag'], actions: ['read'], namespaces: ['production', 'staging'] });
  const glob = grant({ resources: ['flag', 'segment'], actions: '*', namespaces: ['team-*'] });
  const mixed = grant({ resources: ['flag'], actions: ['read'], namespaces: ['production', 'team-?'] });

  it.each<[string, Grant, Action, Resource, string | null, boolean]>([
    ['unlimited: any namespace', unlimited, 'read', 'flag', 'production', true],
    ['unlimited: another namespace', unlimited, 'update', 'flag', 'anything-else', true],
    ['unlimited: where no namespace is named', unlimited, 'read', 'flag', null, true],
    ['unlimited: an action not granted', unlimited, 'delete', 'flag', 'production', false],
    ['unlimited: a resource not granted', unlimited, 'read', 'segment', 'production', false],
    ['named: the namespace', named, 'read', 'flag', 'production', true],
    ['named: the other namespace', named, 'read', 'flag', 'staging', true],
    ['named: a namespace starting with the name', named, 'read', 'flag', 'production-2', false],
    ['named: a namespace inside the name', named, 'read', 'flag', 'prod', false],
    ['named: the name in another case', named, 'read', 'flag', 'Production', false],
    ['named: another namespace', named, 'read', 'flag', 'default', false],
    ['named: no namespace (a limited rule never applies there)', named, 'read', 'flag', null, false],
    ['named: an action not granted', named, 'update', 'flag', 'production', false],
    ['glob: a namespace it matches', glob, 'create', 'segment', 'team-payments', true],
    ['glob: another it matches', glob, 'delete', 'flag', 'team-a', true],
    ['glob: the prefix without the dash', glob, 'read', 'flag', 'team', false],
    ['glob: a longer prefix', glob, 'read', 'flag', 'teams-a', false],
    ['glob: the pattern inside a longer name', glob, 'read', 'flag', 'my-team-a', false],
    ['glob: no namespace', glob, 'read', 'flag', null, false],
    ['glob: a resource not granted', glob, 'read', 'namespace', 'team-a', false],
    ['glob `?`: one character', mixed, 'read', 'flag', 'team-a', true],
    ['glob `?`: two characters', mixed, 'read', 'flag', 'team-ab', false],
    ['names and globs: the name', mixed, 'read', 'flag', 'production', true],
  ])('%s', (_, g, action, resource, namespace, allowed) => {
    expect(g.allows(action, resource, namespace)).toBe(allowed);
  });

  it('allows nothing with no rules', () => {
    const none = new Grant([], []);
    for (const action of ACTIONS) {
      expect(none.allows(action, 'flag', 'production')).toBe(false);
      expect(none.allows(action, 'namespace', null)).toBe(false);
    }
  });

  it('joins the rules of several roles', () => {
    const policy = readPolicy({
      roles: {
        reader: [{ resources: 'flag', actions: 'read' }],
        writer: [{ resources: 'flag', actions: 'update', namespaces: 'production' }],
      },
    });
    const both = grantOf(policy, ['reader', 'writer']);
    expect(both.roles).toEqual(['reader', 'writer']);
    expect(both.allows('read', 'flag', 'staging')).toBe(true);
    expect(both.allows('update', 'flag', 'production')).toBe(true);
    expect(both.allows('update', 'flag', 'staging')).toBe(false);
    expect(grantOf(policy, ['reader']).allows('update', 'flag', 'production')).toBe(false);
  });

  it('gives nothing for a role the policy does not have', () => {
    const policy = readPolicy({ roles: { reader: [{ resources: 'flag', actions: 'read' }] } });
    expect(grantOf(policy, ['root']).allows('read', 'flag', 'production')).toBe(false);
    expect(grantOf(policy, ['root']).rules).toEqual([]);
  });

  it('never applies a glob matching the text "undefined" where no namespace is named', () => {
    const g = grant({ resources: 'flag', actions: 'read', namespaces: ['undef*', '*ned'] });
    expect(g.allows('read', 'flag', 'undefined')).toBe(true);
    expect(g.allows('read', 'flag', null)).toBe(false);
  });
});

describe('Grant.summary', () => {
  const g = grant(
    { resources: ['namespace'], actions: ['read'] },
    { resources: ['flag', 'segment'], actions: '*', namespaces: ['team-*'] },
    { resources: ['flag'], actions: ['read'], namespaces: ['production'] },
  );

  it.each<[string | null, Record<string, Action[]>]>([
    ['team-a', { namespace: ['read'], flag: ['create', 'read', 'update', 'delete'], segment: ['create', 'read', 'update', 'delete'] }],
    ['production', { namespace: ['read'], flag: ['read'] }],
    ['staging', { namespace: ['read'] }],
    [null, { namespace: ['read'] }],
  ])('in %j', (namespace, summary) => {
    expect(g.summary(namespace)).toEqual(summary);
  });

  it('is empty with no rules', () => {
    expect(new Grant([], []).summary(null)).toEqual({});
  });
});

describe('Grant.covers', () => {
  const everything = grant({ resources: '*', actions: '*' });
  const readFlags = grant({ resources: 'flag', actions: 'read' });
  const readFlagsInProduction = grant({ resources: 'flag', actions: 'read', namespaces: 'production' });
  const teamGlob = grant({ resources: ['flag', 'segment'], actions: '*', namespaces: 'team-*' });

  it.each<[string, Grant, Grant, string | null, boolean]>([
    ['everything covers everything', everything, everything, null, true],
    ['everything covers a limited rule', everything, teamGlob, null, true],
    ['a grant covers itself', teamGlob, teamGlob, null, true],
    ['anything covers no rules', new Grant([], []), new Grant([], []), null, true],
    ['no rules do not cover a rule', new Grant([], []), readFlags, null, false],
    ['a narrower grant does not cover a wider one', readFlags, everything, null, false],
    ['another action is not covered', readFlags, grant({ resources: 'flag', actions: ['read', 'update'] }), null, false],
    ['another resource is not covered', readFlags, grant({ resources: ['flag', 'segment'], actions: 'read' }), null, false],
    // Outside any namespace (tokens, the namespace list) only an unlimited rule counts.
    ['an unlimited rule needs an unlimited rule', readFlagsInProduction, readFlags, null, false],
    ['an unlimited rule is not made of named ones', grant({ resources: 'flag', actions: 'read', namespaces: ['production', 'staging', '*-x'] }), readFlags, null, false],
    ['an unlimited rule, needed for the same action', grant({ resources: 'flag', actions: 'update' }, { resources: 'flag', actions: 'read', namespaces: 'production' }), readFlags, null, false],
    ['a named rule covers the same name', readFlagsInProduction, readFlagsInProduction, null, true],
    ['a named rule does not cover another name', readFlagsInProduction, grant({ resources: 'flag', actions: 'read', namespaces: 'staging' }), null, false],
    ['a named rule does not cover one name more', readFlagsInProduction, grant({ resources: 'flag', actions: 'read', namespaces: ['production', 'staging'] }), null, false],
    ['an unlimited rule covers names', readFlags, readFlagsInProduction, null, true],
    ['names spread over two rules', grant({ resources: 'flag', actions: 'read', namespaces: 'a' }, { resources: 'flag', actions: 'read', namespaces: 'b' }), grant({ resources: 'flag', actions: 'read', namespaces: ['a', 'b'] }), null, true],
    ['a glob covers a name it matches', teamGlob, grant({ resources: 'flag', actions: 'update', namespaces: 'team-payments' }), null, true],
    ['a glob does not cover a name it does not match', teamGlob, grant({ resources: 'flag', actions: 'update', namespaces: 'payments' }), null, false],
    ['a glob covers the same glob', teamGlob, grant({ resources: 'segment', actions: 'delete', namespaces: 'team-*' }), null, true],
    // A glob must be one of ours word for word, even when ours matches all it could match.
    ['a glob does not cover a narrower glob', teamGlob, grant({ resources: 'flag', actions: 'read', namespaces: 'team-a*' }), null, false],
    ['a glob does not cover a `?` glob it contains', teamGlob, grant({ resources: 'flag', actions: 'read', namespaces: 'team-?' }), null, false],
    ['names do not cover a glob', grant({ resources: 'flag', actions: 'read', namespaces: ['team-a', 'team-b'] }), grant({ resources: 'flag', actions: 'read', namespaces: 'team-*' }), null, false],
    ['an unlimited rule covers a glob', readFlags, grant({ resources: 'flag', actions: 'read', namespaces: 'team-*' }), null, true],
    ['the same glob in a rule for another action does not', grant({ resources: 'flag', actions: 'read', namespaces: 'team-*' }), grant({ resources: 'flag', actions: 'update', namespaces: 'team-*' }), null, false],
    ['a glob does not cover an unlimited rule', teamGlob, grant({ resources: 'flag', actions: 'read' }), null, false],
    // A namespaced token: what it would do is judged in its namespace only.
    ['in a namespace: a named rule there covers an unlimited rule', readFlagsInProduction, readFlags, 'production', true],
    ['in another namespace: not covered', readFlagsInProduction, readFlags, 'staging', false],
    ['in a namespace a glob matches: covered', teamGlob, grant({ resources: ['flag', 'segment'], actions: '*' }), 'team-a', true],
    ['in a namespace a glob does not match: not covered', teamGlob, grant({ resources: 'flag', actions: 'read' }), 'production', false],
    ['in a namespace: a narrower glob judged by the namespace', teamGlob, grant({ resources: 'flag', actions: 'read', namespaces: 'team-a*' }), 'team-ab', true],
    ['in a namespace: a resource not held there is not covered', readFlagsInProduction, everything, 'production', false],
  ])('%s', (_, ours, theirs, namespace, covered) => {
    expect(ours.covers(theirs, namespace)).toBe(covered);
  });

  it('is judged action by action on rules built directly', () => {
    const ours = new Grant(['a'], [rule(['flag'], ['read'], ['team-*']), rule(['flag'], ['update'], ['team-*'])]);
    expect(ours.covers(new Grant(['b'], [rule(['flag'], ['read', 'update'], ['team-*'])]), null)).toBe(true);
    expect(ours.covers(new Grant(['b'], [rule(['flag'], ['read', 'delete'], ['team-*'])]), null)).toBe(false);
  });
});

describe('what the shipped example (docs/authorization.example.yml) allows', () => {
  const policy = parsePolicy(readFileSync(EXAMPLE, 'utf8'), EXAMPLE);
  const of = (role: string) => grantOf(policy, [role]);

  it.each<[string, Action, Resource, string | null, boolean]>([
    // admin: everything, everywhere: tokens, namespaces, the audit trail.
    ['admin', 'create', 'authentication', null, true],
    ['admin', 'delete', 'namespace', 'production', true],
    ['admin', 'read', 'audit', null, true],
    ['admin', 'update', 'flag', 'team-a', true],
    // production-editor: flags and segments of production; reads, but does not change, the namespace itself.
    ['production-editor', 'update', 'flag', 'production', true],
    ['production-editor', 'delete', 'segment', 'production', true],
    ['production-editor', 'read', 'namespace', 'production', true],
    ['production-editor', 'update', 'namespace', 'production', false],
    ['production-editor', 'read', 'audit', 'production', true],
    ['production-editor', 'read', 'flag', 'staging', false],
    ['production-editor', 'read', 'namespace', null, false],
    ['production-editor', 'create', 'authentication', null, false],
    // team-editor: every namespace named team-*, and may create such namespaces.
    ['team-editor', 'create', 'namespace', 'team-payments', true],
    ['team-editor', 'delete', 'flag', 'team-payments', true],
    ['team-editor', 'update', 'segment', 'team-a', true],
    ['team-editor', 'read', 'flag', 'production', false],
    ['team-editor', 'create', 'namespace', 'payments', false],
    ['team-editor', 'read', 'namespace', null, false],
    // viewer: reads flags, segments and namespaces everywhere; changes nothing.
    ['viewer', 'read', 'flag', 'production', true],
    ['viewer', 'read', 'segment', 'team-a', true],
    ['viewer', 'read', 'namespace', null, true],
    ['viewer', 'update', 'flag', 'production', false],
    ['viewer', 'read', 'audit', null, false],
    ['viewer', 'read', 'authentication', null, false],
    // evaluator: read on the namespace in production and staging, nothing else.
    ['evaluator', 'read', 'namespace', 'production', true],
    ['evaluator', 'read', 'namespace', 'staging', true],
    ['evaluator', 'read', 'namespace', 'team-a', false],
    ['evaluator', 'read', 'flag', 'production', false],
    ['evaluator', 'read', 'namespace', null, false],
  ])('%s: %s %s in %j → %s', (role, action, resource, namespace, allowed) => {
    expect(of(role).allows(action, resource, namespace)).toBe(allowed);
  });

  it.each<[string, string, string | null, boolean]>([
    ['admin', 'viewer', null, true],
    ['viewer', 'admin', null, false],
    ['admin', 'production-editor', null, true],
    ['production-editor', 'evaluator', 'production', true],
    ['production-editor', 'evaluator', null, false],
    ['viewer', 'evaluator', null, true],
    ['team-editor', 'viewer', 'team-a', true],
    ['team-editor', 'viewer', null, false],
    ['production-editor', 'team-editor', null, false],
  ])('%s covers %s (namespace %j): %s', (ours, theirs, namespace, covered) => {
    expect(of(ours).covers(of(theirs), namespace)).toBe(covered);
  });
});
