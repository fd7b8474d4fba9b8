import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidError } from '../common/errors';
import { loadConfig } from '../config/config.loader';
import { UsageError } from '../common/usage-error';
import { runPolicyCommand } from './policy.command';

const EXAMPLE = join(__dirname, '..', '..', 'docs', 'authorization.example.yml');
const config = loadConfig({ argv: [], env: {} });

function run(...args: string[]): string[] {
  const lines: string[] = [];
  runPolicyCommand(args, config, (l) => lines.push(l));
  return lines;
}

describe('flagpole policy', () => {
  it('checks the shipped example and says what it holds', () => {
    expect(run(EXAMPLE)).toEqual([`${EXAMPLE}: no problem found: 5 roles (admin, production-editor, team-editor, viewer, evaluator), 6 bindings, default role none`]);
  });

  it("prints a credential's roles and permissions, outside namespaces and in those asked about", () => {
    const lines = run(EXAMPLE, '--method', 'token', '--metadata', 'io.flagpole.auth.role=production-editor', '--namespace', 'production', '--namespace', 'staging');
    expect(lines.slice(1)).toEqual([
      'roles: production-editor',
      'outside namespaces: nothing',
      'in namespace production: namespace read; flag create/read/update/delete; segment create/read/update/delete; audit read',
      'in namespace staging: nothing',
    ]);
  });

  it('takes the file as --policy too (`flagpole validate --policy FILE`)', () => {
    expect(run('--policy', EXAMPLE, '--method', 'token', '--metadata', 'io.flipt.auth.role=viewer')[1]).toBe('roles: viewer');
    expect(() => run(EXAMPLE, '--policy', EXAMPLE)).toThrow(UsageError);
  });

  it('reads OIDC claims and JWT claims from --claims', () => {
    expect(run(EXAMPLE, '--method', 'oidc', '--claims', '{"groups":["flag-admins"]}')[1]).toBe('roles: admin');
    expect(run(EXAMPLE, '--method', 'jwt', '--claims', '{"scope":"flags:team-edit"}').slice(1)).toEqual([
      'roles: team-editor',
      'outside namespaces: nothing',
      '  in namespaces team-*: namespace, flag, segment create/read/update/delete',
    ]);
  });

  it('names the place of a problem in the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-cmd-'));
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, 'roles:\n  viewer:\n    - resources: [flags]\n      actions: [read]\n');
    expect(() => run(bad)).toThrow(new InvalidError(`${bad}: roles.viewer[0].resources[0]: unknown resource "flags" (namespace, flag, segment, authentication, audit or *)`));
    expect(() => run(join(dir, 'missing.yml'))).toThrow(InvalidError);
  });

  it('refuses a bad command line with its usage', () => {
    expect(() => run(EXAMPLE, '--method', 'saml')).toThrow(UsageError);
    expect(() => run(EXAMPLE, '--metadata', 'a=b')).toThrow(UsageError);
    expect(() => run(EXAMPLE, '--method', 'token', '--metadata', 'novalue')).toThrow(UsageError);
    expect(() => run()).toThrow(UsageError);
  });
});
