/**
 * An import that would create its namespace needs `create` on `namespace` besides what the import route declares
 * (create, update and delete on flags and segments): the route cannot declare it, since it depends on whether the
 * namespace exists. Over the route (which the UI uses) and through the CLI's `--address` import, which calls it.
 * A refusal is Flipt's 403, creates nothing, and is in the audit trail as `denied`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer } from '../auth/support';
import { http, client, type RunningFlagpole } from '../support/flagpole';
import { loadConfig } from '../../src/config/config.loader';
import { runFlagsAsCodeCommand } from '../../src/flags-as-code/flags-as-code.command';
import { DENIED, policyFile, startAuthorized, tokenWithRole } from './support';

jest.setTimeout(60_000);

const POLICY = `
roles:
  admin: [{ resources: "*", actions: "*" }]
  importer:
    - { resources: [flag, segment], actions: "*" }
    - { resources: [namespace], actions: [read] }
  creating-importer:
    - { resources: [flag, segment], actions: "*" }
    - { resources: [namespace], actions: [create, read] }
bindings:
  - role: admin
    token: { metadata: { io.flagpole.auth.token.name: initial_bootstrap_token } }
`;

const DOCUMENT = 'version: "1.4"\nflags:\n- key: imported\n  name: Imported\n';

describe('an import that creates its namespace needs create on namespace', () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };
  let importer: string;
  let creator: string;
  const importAs = (token: string, ns: string) =>
    http(fp.url, 'POST', `/api/v1/namespaces/${ns}/import`, DOCUMENT, { ...bearer(token), 'content-type': 'application/yaml' });

  beforeAll(async () => {
    fp = await startAuthorized(policyFile(POLICY), { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' });
    importer = await tokenWithRole(fp.admin, 'importer');
    creator = await tokenWithRole(fp.admin, 'creating-importer');
    expect((await fp.admin.post('/api/v1/namespaces', { key: 'existing', name: 'Existing' })).status).toBe(200);
  });
  afterAll(() => fp?.close());

  it('refuses a role without it with 403 PermissionDenied, creating nothing', async () => {
    const r = await importAs(importer, 'fresh');
    expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
    expect((await fp.admin.get('/api/v1/namespaces/fresh')).status).toBe(404);
  });

  it('lets the same role import into a namespace that exists', async () => {
    const r = await importAs(importer, 'existing');
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 200, body: { namespaceCreated: false, flagsCreated: 1 } });
  });

  it('lets a role holding create on namespace import into a new one, which it creates', async () => {
    const r = await importAs(creator, 'made');
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 200, body: { namespaceKey: 'made', namespaceCreated: true, flagsCreated: 1 } });
    expect((await fp.admin.get('/api/v1/namespaces/made/flags/imported')).status).toBe(200);
  });

  it('refuses the CLI\'s import over --address alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-import-'));
    const file = join(dir, 'features.yml');
    writeFileSync(file, DOCUMENT.replace('version: "1.4"\n', 'version: "1.4"\nnamespace: by-cli\n'));
    const config = loadConfig({ argv: [], env: {} });
    const run = (token: string) => runFlagsAsCodeCommand(['import', file, '--address', fp.url, '--token', token], config);
    try {
      await expect(run(importer)).rejects.toThrow(/^POST \/api\/v1\/namespaces\/by-cli\/import\?*: 403 permission denied$/);
      expect((await fp.admin.get('/api/v1/namespaces/by-cli')).status).toBe(404);
      await run(creator); // prints what it did on standard error
      expect((await fp.admin.get('/api/v1/namespaces/by-cli/flags/imported')).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records the refusal in the audit trail as denied', async () => {
    type Event = { status: string; type: string; action: string; metadata: unknown; payload: Record<string, unknown> };
    let events: Event[] = [];
    const denied = () => events.find((e) => e.status === 'denied' && e.payload.namespace_key === 'fresh');
    for (let i = 0; i < 50 && !denied(); i++) {
      await new Promise((r) => setTimeout(r, 100));
      events = (await fp.admin.get('/api/v1/audit/events?type=namespace')).body.events;
    }
    expect(denied()).toMatchObject({
      type: 'namespace', action: 'updated', status: 'denied', metadata: { actor: { name: 'importer-token' } }, payload: { namespace_key: 'fresh' },
    });
  });
});
