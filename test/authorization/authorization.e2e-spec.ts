/**
 * Authorization end to end with the example policy (docs/authorization.example.yml): roles carried by static tokens,
 * 403 with Flipt's PermissionDenied body and nothing changed on a denial, the namespace list cut to what the caller
 * may read, evaluation needing read on the namespace, tokens that cannot outgrant their creator, the permissions
 * route, and denials in the audit trail.
 */
import { bearer } from '../auth/support';
import { client, type RunningFlagpole } from '../support/flagpole';
import { DENIED, policyFile, startAuthorized, tokenWithRole } from './support';

jest.setTimeout(60_000);

describe('authorization with the example policy', () => {
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };
  const as = (token: string) => client(fp.url, bearer(token));

  beforeAll(async () => {
    fp = await startAuthorized(undefined, { FLAGPOLE_AUDIT_STORAGE_ENABLED: 'true' });
    for (const key of ['production', 'staging', 'team-a', 'other']) {
      expect((await fp.admin.post('/api/v1/namespaces', { key, name: key })).status).toBe(200);
      expect((await fp.admin.post(`/api/v1/namespaces/${key}/flags`, { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
    }
  });
  afterAll(() => fp?.close());

  it('a viewer reads everywhere and changes nothing; the refusal is 403 PermissionDenied and nothing is written', async () => {
    const viewer = as(await tokenWithRole(fp.admin, 'viewer'));
    expect((await viewer.get('/api/v1/namespaces/production/flags/f')).status).toBe(200);
    const r = await viewer.put('/api/v1/namespaces/production/flags/f', { name: 'changed', enabled: false });
    expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
    expect((await fp.admin.get('/api/v1/namespaces/production/flags/f')).body).toMatchObject({ name: 'f', enabled: true });
    const created = await viewer.post('/api/v1/namespaces', { key: 'sneaky', name: 'sneaky' });
    expect(created.status).toBe(403);
    expect((await fp.admin.get('/api/v1/namespaces/sneaky')).status).toBe(404);
  });

  it('an editor of production edits there and nowhere else', async () => {
    const editor = as(await tokenWithRole(fp.admin, 'production-editor'));
    expect((await editor.put('/api/v1/namespaces/production/flags/f', { name: 'f', enabled: false })).status).toBe(200);
    expect((await editor.put('/api/v1/namespaces/staging/flags/f', { name: 'f', enabled: false })).status).toBe(403);
    expect((await editor.get('/api/v1/namespaces/staging/flags/f')).status).toBe(403);
    // It reads the namespace but may not change or delete it.
    expect((await editor.get('/api/v1/namespaces/production')).status).toBe(200);
    expect((await editor.delete('/api/v1/namespaces/production')).status).toBe(403);
  });

  it('a team editor works in the namespaces its glob names, including creating them', async () => {
    const team = as(await tokenWithRole(fp.admin, 'team-editor'));
    expect((await team.post('/api/v1/namespaces', { key: 'team-b', name: 'b' })).status).toBe(200);
    expect((await team.post('/api/v1/namespaces/team-b/flags', { key: 'g', name: 'g' })).status).toBe(200);
    expect((await team.post('/api/v1/namespaces', { key: 'teamless', name: 'x' })).status).toBe(403);
  });

  it('the namespace list shows only what the caller may read, counted and paged as such', async () => {
    const team = as(await tokenWithRole(fp.admin, 'team-editor'));
    const r = await team.get('/api/v1/namespaces');
    expect(r.status).toBe(200);
    expect(r.body.namespaces.map((n: { key: string }) => n.key).sort()).toEqual(['team-a', 'team-b']);
    expect(r.body.totalCount).toBe(2);
    const page = await team.get('/api/v1/namespaces?limit=1');
    expect(page.body.namespaces).toHaveLength(1);
    expect(page.body.nextPageToken).not.toBe('');
  });

  it('evaluation needs read on the namespace: an evaluator evaluates in its namespaces only and reads no flags', async () => {
    const evaluator = as(await tokenWithRole(fp.admin, 'evaluator'));
    const ok = await evaluator.post('/evaluate/v1/boolean', { namespaceKey: 'staging', flagKey: 'f', entityId: 'e' });
    expect(ok.status).toBe(200);
    const refused = await evaluator.post('/evaluate/v1/boolean', { namespaceKey: 'other', flagKey: 'f', entityId: 'e' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: DENIED });
    expect((await evaluator.get('/api/v1/namespaces/staging/flags')).status).toBe(403);
    const ofrep = await evaluator.post('/ofrep/v1/evaluate/flags/f', { context: { targetingKey: 'e' } }, { 'x-flipt-namespace': 'production' });
    expect(ofrep.status).toBe(200);
  });

  it('a v2 batch spanning namespaces is allowed when each of them is (issue 38, item 16)', async () => {
    const evaluator = as(await tokenWithRole(fp.admin, 'evaluator'));
    const item = (namespaceKey: string) => ({ namespaceKey, flagKey: 'f', entityId: 'e', context: {} });
    const both = await evaluator.post('/evaluate/v1/batch', { requests: [item('production'), item('staging'), item('production')] });
    expect(both.status).toBe(200);
    expect(both.body.responses).toHaveLength(3);
    const beyond = await evaluator.post('/evaluate/v1/batch', { requests: [item('staging'), item('other')] });
    expect({ status: beyond.status, body: beyond.body }).toEqual({ status: 403, body: DENIED });
  });

  it('a credential no binding matches may ask who it is, and nothing else', async () => {
    const nobody = as(await tokenWithRole(fp.admin, 'no-such-role'));
    expect((await nobody.get('/auth/v1/self')).status).toBe(200);
    expect((await nobody.get('/api/v1/namespaces')).body).toMatchObject({ namespaces: [], totalCount: 0 });
    expect((await nobody.get('/api/v1/namespaces/default')).status).toBe(403);
    expect((await nobody.get('/auth/v1/tokens')).status).toBe(403);
  });

  it('creating tokens needs create on authentication', async () => {
    const token = await tokenWithRole(fp.admin, 'production-editor');
    // Tokens are the admin's: an editor may not create any.
    const r = await as(token).post('/auth/v1/method/token', { name: 'x', metadata: { 'io.flagpole.auth.role': 'viewer' } });
    expect(r.status).toBe(403);
  });

  it('GET /auth/v1/self/permissions says what the caller may do, namespace by namespace', async () => {
    const editor = as(await tokenWithRole(fp.admin, 'production-editor'));
    const r = await editor.get('/auth/v1/self/permissions');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      authorizationRequired: true,
      roles: ['production-editor'],
      global: {},
      namespaces: { production: { namespace: ['read'], flag: ['create', 'read', 'update', 'delete'], segment: ['create', 'read', 'update', 'delete'], audit: ['read'] } },
    });
  });

  it('denied writes are in the audit trail with status denied', async () => {
    const viewer = as(await tokenWithRole(fp.admin, 'viewer'));
    expect((await viewer.delete('/api/v1/namespaces/staging/flags/f')).status).toBe(403);
    let events: Array<{ status: string; type: string; action: string; payload: Record<string, unknown> }> = [];
    // This delete's event, not an earlier test's denied write: the trail stores events in batches (100 ms), so an
    // older denial can be listed before this one arrives.
    const deniedDelete = () => events.find((e) => e.status === 'denied' && e.type === 'flag' && e.action === 'deleted');
    for (let i = 0; i < 50 && !deniedDelete(); i++) {
      await new Promise((r) => setTimeout(r, 100));
      events = (await fp.admin.get('/api/v1/audit/events?namespaceKey=staging')).body.events;
    }
    expect(deniedDelete()).toMatchObject({ type: 'flag', action: 'deleted', payload: { key: 'f', namespace_key: 'staging' } });
    // The flag is still there.
    expect((await fp.admin.get('/api/v1/namespaces/staging/flags/f')).status).toBe(200);
  });
});

describe('tokens cannot outgrant their creator', () => {
  const POLICY = `
roles:
  admin: [{ resources: "*", actions: "*" }]
  issuer:
    - { resources: [authentication], actions: "*" }
    - { resources: [namespace, flag], actions: [read], namespaces: ["team-*"] }
  team-reader: [{ resources: [namespace, flag], actions: [read], namespaces: ["team-*"] }]
  team-a-reader: [{ resources: [flag], actions: [read], namespaces: [team-a] }]
  everywhere-reader: [{ resources: [flag], actions: [read] }]
bindings:
  - role: admin
    token: { metadata: { io.flagpole.auth.token.name: initial_bootstrap_token } }
`;
  let fp: RunningFlagpole & { admin: ReturnType<typeof client> };
  let issuer: ReturnType<typeof client>;
  const make = (role: string, namespaceKey?: string) =>
    issuer.post('/auth/v1/method/token', { name: `${role}-made`, metadata: { 'io.flagpole.auth.role': role }, ...(namespaceKey ? { namespaceKey } : {}) });

  beforeAll(async () => {
    fp = await startAuthorized(policyFile(POLICY));
    issuer = client(fp.url, bearer(await tokenWithRole(fp.admin, 'issuer')));
  });
  afterAll(() => fp?.close());

  it('gives roles within its own, and refuses more, naming why', async () => {
    expect((await make('team-reader')).status).toBe(200);
    expect((await make('team-a-reader')).status).toBe(200);
    // A namespaced token is judged in its namespace: reading flags in team-b is within team-*.
    expect((await make('everywhere-reader', 'team-b')).status).toBe(200);
    for (const [role, ns] of [['admin', undefined], ['everywhere-reader', undefined], ['everywhere-reader', 'other']] as const) {
      const r = await make(role, ns);
      expect({ role, ns, status: r.status, body: r.body }).toEqual({
        role, ns, status: 403, body: { code: 7, message: `permission denied: the token's roles (${role}) allow more than yours`, details: [] },
      });
    }
  });
});
