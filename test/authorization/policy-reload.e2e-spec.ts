/**
 * The policy file kept current while the server runs: a changed file takes effect without a restart (written in
 * place, replaced by rename as editors do, or swapped through a Kubernetes ConfigMap's `..data` link); a file that
 * does not parse leaves the last good policy in force and says why in /health; and a server does not start on a
 * policy file it cannot use.
 */
import { mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bearer, BOOTSTRAP, eventually } from '../auth/support';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { authorizationEnv, DENIED, policyFile, startAuthorized } from './support';

jest.setTimeout(90_000);

type Server = RunningFlagpole & { admin: ReturnType<typeof client> };

/** A policy binding tokens with metadata team=payments to `role`: `viewer` reads flags, `editor` also changes them. */
function policy(role: 'viewer' | 'editor' | 'nothing'): string {
  return `version: "1"
roles:
  admin:
    - resources: "*"
      actions: "*"
  viewer:
    - resources: [namespace, flag]
      actions: [read]
  editor:
    - resources: [namespace, flag]
      actions: [read, update]
  nothing: []
bindings:
  - role: admin
    token:
      metadata:
        io.flagpole.auth.token.name: initial_bootstrap_token
  - role: ${role}
    token:
      metadata:
        team: payments
`;
}

/** Not a valid policy: an unknown resource, at a place the error must name. */
const UNKNOWN_RESOURCE = policy('editor').replace('resources: [namespace, flag]\n      actions: [read, update]', 'resources: [namespace, flags]\n      actions: [read, update]');

async function start(path: string): Promise<{ fp: Server; team: ReturnType<typeof client> }> {
  const fp = await startAuthorized(path);
  expect((await fp.admin.post('/api/v1/namespaces/default/flags', { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE' })).status).toBe(200);
  const r = await fp.admin.post('/auth/v1/method/token', { name: 'payments', metadata: { team: 'payments' } });
  expect(r.status).toBe(200);
  return { fp, team: client(fp.url, bearer(r.body.clientToken)) };
}

const update = (api: ReturnType<typeof client>) => api.put('/api/v1/namespaces/default/flags/f', { name: 'f', enabled: true });

/** The authorization detail of /health, which it shows to a caller with a credential (docs/deployment.md, Health). */
async function authorizationHealth(fp: RunningFlagpole): Promise<Record<string, unknown>> {
  const r = await client(fp.url, bearer(BOOTSTRAP)).get('/health');
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('SERVING');
  return r.body.authorization;
}

async function expectCanUpdate(api: ReturnType<typeof client>): Promise<void> {
  const r = await update(api);
  expect({ status: r.status, body: r.status === 200 ? undefined : r.body }).toEqual({ status: 200, body: undefined });
}

async function expectCannotUpdate(api: ReturnType<typeof client>): Promise<void> {
  const r = await update(api);
  expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
}

function expectDeniedRead(r: { status: number; body: unknown }): void {
  expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
}

describe('policy reload', () => {
  let path: string;
  let fp: Server;
  let team: ReturnType<typeof client>;

  beforeAll(async () => {
    path = policyFile(policy('viewer'));
    ({ fp, team } = await start(path));
  });
  afterAll(() => fp?.close());

  it('starts with the file’s policy, described in /health without error', async () => {
    await expectCannotUpdate(team);
    expect((await team.get('/api/v1/namespaces/default/flags/f')).status).toBe(200);
    expect(await authorizationHealth(fp)).toEqual({
      policy: path,
      loadedAt: expect.any(String),
      roles: ['admin', 'viewer', 'editor', 'nothing'],
      bindings: 2,
      defaultRole: null,
    });
  });

  it('a file written in place takes effect without a restart, for credentials already in use', async () => {
    writeFileSync(path, policy('editor'));
    await eventually(() => expectCanUpdate(team));
    expect((await team.get('/auth/v1/self/permissions')).body.roles).toEqual(['editor']);
  });

  it('an invalid file leaves the last good policy in force and says why in /health', async () => {
    const before = (await authorizationHealth(fp)).loadedAt;
    writeFileSync(path, UNKNOWN_RESOURCE);
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toEqual(expect.any(String));
    });
    const health = await authorizationHealth(fp);
    expect(health).toMatchObject({ policy: path, loadedAt: before, roles: ['admin', 'viewer', 'editor', 'nothing'] });
    // The message names the file, the place in it and the problem.
    expect(health.error).toContain(path);
    expect(health.error).toContain('roles.editor[0].resources[1]');
    expect(health.error).toContain('unknown resource "flags"');
    // The editor binding of the last good file still holds.
    await expectCanUpdate(team);
    expect((await team.get('/auth/v1/self/permissions')).body.roles).toEqual(['editor']);
  });

  it('a later valid file is taken, and the error is gone', async () => {
    writeFileSync(path, policy('nothing'));
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toBeUndefined();
    });
    await expectCannotUpdate(team);
    expectDeniedRead(await team.get('/api/v1/namespaces/default/flags/f'));
    expect((await team.get('/auth/v1/self/permissions')).body.roles).toEqual(['nothing']);
  });

  it('a file that is not YAML at all is refused the same way', async () => {
    writeFileSync(path, 'roles: [unclosed\n');
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toContain(`${path}: not valid YAML or JSON`);
    });
    expect((await team.get('/auth/v1/self/permissions')).body.roles).toEqual(['nothing']);
  });

  it('going back to the last good text after a refused change clears the error', async () => {
    // The file holds invalid text (the test before); the last good policy is policy('nothing').
    expect((await authorizationHealth(fp)).error).toEqual(expect.any(String));
    writeFileSync(path, policy('nothing'));
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toBeUndefined();
    });
  });

  it('a file replaced by rename (a new file written beside it, then moved over it) is seen', async () => {
    const temp = join(dirname(path), '.policy.yml.tmp');
    writeFileSync(temp, policy('editor'));
    renameSync(temp, path);
    await eventually(() => expectCanUpdate(team));
    expect(await authorizationHealth(fp)).not.toHaveProperty('error');
    // And again: the watcher still follows the new file after a rename.
    writeFileSync(temp, policy('viewer'));
    renameSync(temp, path);
    await eventually(() => expectCannotUpdate(team));
    expect((await team.get('/auth/v1/self/permissions')).body.roles).toEqual(['viewer']);
  });
});

// Hardening issue 15: a file read half-written (written in place in pieces, or cut short by a full disk).
describe('a policy file cut off in the middle of a rule', () => {
  /** Bindings first and roles last, so that a cut can end the file inside the editor's rule. */
  const NARROW = `version: "1"
bindings:
  - role: admin
    token:
      metadata:
        io.flagpole.auth.token.name: initial_bootstrap_token
  - role: editor
    token:
      metadata:
        team: payments
roles:
  admin:
    - resources: "*"
      actions: "*"
  editor:
    - resources: [namespace, flag]
      actions: [read, update]
      namespaces: [production]
`;
  /** What a reader sees before the last line is written: the editor's rule without its namespaces (everywhere). */
  const CUT = NARROW.slice(0, NARROW.indexOf('      namespaces: [production]'));
  const REASON = 'roles.editor[0]: the file ends with this rule, and it names no namespaces: it may have been cut off before them';
  let path: string;
  let fp: Server;
  let team: ReturnType<typeof client>;

  beforeAll(async () => {
    path = policyFile(NARROW);
    ({ fp, team } = await start(path));
  });
  afterAll(() => fp?.close());

  it('is refused on reload: the last good policy stays, the reason is in /health, and access is not widened', async () => {
    await expectCannotUpdate(team);
    const before = (await authorizationHealth(fp)).loadedAt;
    writeFileSync(path, CUT);
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toEqual(expect.stringContaining(`${path}: ${REASON}`));
    });
    expect(await authorizationHealth(fp)).toMatchObject({ loadedAt: before, roles: ['admin', 'editor'] });
    // The editor still may not change flags outside production.
    await expectCannotUpdate(team);
    expect((await team.get('/auth/v1/self/permissions')).body.namespaces.default).toBeUndefined();
    // The rest of the file arrives: taken, and the error is gone.
    writeFileSync(path, NARROW);
    await eventually(async () => {
      expect((await authorizationHealth(fp)).error).toBeUndefined();
    });
    await expectCannotUpdate(team);
  });

  it('stops the start, naming the file and the rule', async () => {
    const cut = policyFile(CUT);
    await expect(startFlagpole(authorizationEnv(cut))).rejects.toThrow(`authorization.local.policy.path: ${cut}: ${REASON}`);
  });
});

describe('policy from a Kubernetes ConfigMap volume', () => {
  // Kubelet's layout: the file is a link through `..data`, itself a link to a timestamped directory; an update writes
  // a new directory and renames a new `..data` link over the old one, so the file itself never changes.
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-configmap-'));
  let fp: Server;
  let team: ReturnType<typeof client>;

  function publish(version: string, text: string): void {
    mkdirSync(join(dir, version));
    writeFileSync(join(dir, version, 'policy.yml'), text);
    symlinkSync(version, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
  }

  beforeAll(async () => {
    publish('..2026_11_27_10_00_00.1', policy('viewer'));
    symlinkSync(join('..data', 'policy.yml'), join(dir, 'policy.yml'));
    ({ fp, team } = await start(join(dir, 'policy.yml')));
  });
  afterAll(() => fp?.close());

  it('an update of the ConfigMap takes effect', async () => {
    await expectCannotUpdate(team);
    publish('..2026_11_27_10_05_00.2', policy('editor'));
    await eventually(() => expectCanUpdate(team));
    publish('..2026_11_27_10_10_00.3', policy('viewer'));
    await eventually(() => expectCannotUpdate(team));
  });
});

describe('a server with an unusable policy file', () => {
  it('does not start on an invalid file or without the file, and says which file and what is wrong', async () => {
    const invalid = policyFile(UNKNOWN_RESOURCE);
    const undefinedRole = policyFile(policy('viewer').replace('- role: viewer', '- role: auditor'));
    const missing = join(mkdtempSync(join(tmpdir(), 'flagpole-policy-')), 'missing.yml');
    await expect(startFlagpole(authorizationEnv(invalid))).rejects.toThrow(
      `authorization.local.policy.path: ${invalid}: roles.editor[0].resources[1]: unknown resource "flags"`,
    );
    await expect(startFlagpole(authorizationEnv(undefinedRole))).rejects.toThrow(`${undefinedRole}: bindings[1].role: no role named "auditor"`);
    await expect(startFlagpole(authorizationEnv(missing))).rejects.toThrow(`authorization.local.policy.path: cannot read ${missing}`);
  });
});
