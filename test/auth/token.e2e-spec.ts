/**
 * Static tokens and required mode: bootstrap, the /auth/v1 API, every refusal, cookies, expiry, namespaced tokens,
 * the `exclude` switches, and that no token reaches the log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl, dropDatabase } from '../support/databases';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { expectError, TIMESTAMP, UUID } from '../management/support';
import {
  Api, BOOTSTRAP, bearer, createToken, expectNotRefused, expectUnauthenticated, logLines, setCookies, sleep, TOKEN_REQUIRED,
} from './support';

describe('authentication off (the default)', () => {
  let fp: RunningFlagpole;
  let api: Api;
  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('enforces nothing, ignores credentials, and has no self', async () => {
    expect((await api.get('/api/v1/namespaces')).status).toBe(200);
    expect((await api.get('/api/v1/namespaces', undefined, bearer('nonsense'))).status).toBe(200);
    expectUnauthenticated(await api.get('/auth/v1/self'));
    expectUnauthenticated(await api.get('/auth/v1/self', undefined, bearer('nonsense')));
  });

  it('lists all five methods in Flipt order, all disabled', async () => {
    const r = await api.get('/auth/v1/method');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      methods: [
        { method: 'METHOD_TOKEN', enabled: false, sessionCompatible: false },
        {
          method: 'METHOD_GITHUB', enabled: false, sessionCompatible: true,
          metadata: { authorize_url: '/auth/v1/method/github/authorize', callback_url: '/auth/v1/method/github/callback' },
        },
        { method: 'METHOD_OIDC', enabled: false, sessionCompatible: true, metadata: { providers: {} } },
        { method: 'METHOD_KUBERNETES', enabled: false, sessionCompatible: false },
        { method: 'METHOD_JWT', enabled: false, sessionCompatible: false },
      ],
    });
  });

  it('does not mount the routes of disabled methods', async () => {
    expectError(await api.post('/auth/v1/method/token', { name: 'x' }), 404, 5, 'Not Found');
    expectError(await api.post('/auth/v1/method/kubernetes/serviceaccount', {}), 404, 5, 'Not Found');
    expectError(await api.get('/auth/v1/method/github/authorize'), 404, 5, 'Not Found');
  });
});

describe('required mode with static tokens', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const admin = bearer(BOOTSTRAP);
  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('refuses a request without credential, with an unknown token, or with another scheme', async () => {
    expectUnauthenticated(await api.get('/api/v1/namespaces'));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer('nope')));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { authorization: `Basic ${BOOTSTRAP}` }));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { authorization: `bearer ${BOOTSTRAP}` }));
    expectUnauthenticated(await api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e' }));
    expectUnauthenticated(await api.get('/internal/v1/evaluation/snapshot/namespace/default'));
    expectUnauthenticated(await api.get('/auth/v1/tokens'));
    expectUnauthenticated(await api.post('/auth/v1/method/token', { name: 'x' }));
    expectUnauthenticated(await api.get('/meta/info'));
  });

  it('keeps health and the method list open', async () => {
    expectNotRefused(await api.get('/health'));
    expect((await api.get('/auth/v1/method')).body.methods[0]).toEqual({ method: 'METHOD_TOKEN', enabled: true, sessionCompatible: false });
  });

  it('accepts the bootstrap token, which describes itself', async () => {
    expect((await api.get('/api/v1/namespaces', undefined, admin)).status).toBe(200);
    const self = await api.get('/auth/v1/self', undefined, admin);
    expect(self.status).toBe(200);
    expect(self.body).toEqual({
      id: UUID,
      method: 'METHOD_TOKEN',
      createdAt: TIMESTAMP,
      updatedAt: TIMESTAMP,
      metadata: {
        'io.flagpole.auth.token.name': 'initial_bootstrap_token',
        'io.flagpole.auth.token.description': 'Initial token created when bootstrapping authentication',
      },
    });
  });

  it('creates tokens that authenticate, and stores only what Flipt stores', async () => {
    const r = await api.post(
      '/auth/v1/method/token',
      { name: 'Access Token', description: 'Some Description', metadata: { team: 'core' } },
      admin,
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      clientToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}=$/),
      authentication: {
        id: UUID,
        method: 'METHOD_TOKEN',
        createdAt: TIMESTAMP,
        updatedAt: TIMESTAMP,
        metadata: { team: 'core', 'io.flagpole.auth.token.name': 'Access Token', 'io.flagpole.auth.token.description': 'Some Description' },
      },
    });
    const self = await api.get('/auth/v1/self', undefined, bearer(r.body.clientToken));
    expect(self.body).toEqual(r.body.authentication);
    const unnamed = await createToken(api, { name: undefined });
    expect(unnamed.authentication.metadata).toEqual({ 'io.flagpole.auth.token.name': '' });
  });

  it('reads the token from the session cookie when there is no Authorization header', async () => {
    const { clientToken } = await createToken(api);
    const cookie = { cookie: `other=1; flagpole_client_token=${clientToken}` };
    expect((await api.get('/api/v1/namespaces', undefined, cookie)).status).toBe(200);
    // Any Authorization header, even one of another scheme, means the cookie is not looked at.
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { ...cookie, authorization: 'Basic abc' }));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { cookie: 'flagpole_client_token=nope' }));
  });

  it('clears the session cookies when a request under /auth/v1 with the cookie is refused', async () => {
    const r = await api.get('/auth/v1/tokens', undefined, { cookie: 'flagpole_client_token=nope' });
    expectUnauthenticated(r);
    expect(setCookies(r)).toEqual(['flagpole_client_state=; Max-Age=0; Path=/', 'flagpole_client_token=; Max-Age=0; Path=/']);
    expect(setCookies(await api.get('/api/v1/namespaces', undefined, { cookie: 'flagpole_client_token=nope' }))).toEqual([]);
  });

  it('refuses expired tokens', async () => {
    const past = await createToken(api, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.authentication).toMatchObject({ expiresAt: TIMESTAMP });
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer(past.clientToken)));

    const soon = await createToken(api, { expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await api.get('/api/v1/namespaces', undefined, bearer(soon.clientToken))).status).toBe(200);
    await sleep(1600);
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer(soon.clientToken)));
  });

  it('refuses a malformed expiry', async () => {
    const r = await api.post('/auth/v1/method/token', { name: 'x', expiresAt: 'tomorrow' }, admin);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
    expect(r.body.message).toContain('expiresAt');
  });

  it('refuses a deleted token at once', async () => {
    const t = await createToken(api);
    expect((await api.get('/api/v1/namespaces', undefined, bearer(t.clientToken))).status).toBe(200);
    const del = await api.delete(`/auth/v1/tokens/${t.authentication.id}`, undefined, admin);
    expect({ status: del.status, body: del.body }).toEqual({ status: 200, body: {} });
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer(t.clientToken)));
  });

  it('gets a token by id, and answers Flipt’s 404 for an unknown one; deleting an unknown id is fine', async () => {
    const t = await createToken(api, { name: 'lookup' });
    const r = await api.get(`/auth/v1/tokens/${t.authentication.id}`, undefined, admin);
    expect(r.body).toEqual(t.authentication);
    expectError(await api.get('/auth/v1/tokens/nope', undefined, admin), 404, 5, 'getting authentication by token: resource not found');
    expect((await api.delete('/auth/v1/tokens/nope', undefined, admin)).body).toEqual({});
  });

  it('expires its own authentication and clears the session cookies', async () => {
    const t = await createToken(api);
    const r = await api.put('/auth/v1/self/expire', undefined, bearer(t.clientToken));
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: {} });
    expect(setCookies(r)).toEqual(['flagpole_client_state=; Max-Age=0; Path=/', 'flagpole_client_token=; Max-Age=0; Path=/']);
    expectUnauthenticated(await api.get('/auth/v1/self', undefined, bearer(t.clientToken)));
  });

  it('can move its own expiry to a given earlier time (never later: self-expire.e2e-spec.ts)', async () => {
    const t = await createToken(api, { expiresAt: new Date(Date.now() + 7_200_000).toISOString() });
    const earlier = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api.put(`/auth/v1/self/expire?expiresAt=${earlier}`, undefined, bearer(t.clientToken))).status).toBe(200);
    const self = await api.get('/auth/v1/self', undefined, bearer(t.clientToken));
    expect(self.status).toBe(200);
    expect(Date.parse(self.body.expiresAt)).toBe(Date.parse(earlier));
  });
});

describe('listing tokens', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const admin = bearer(BOOTSTRAP);
  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
    api = client(fp.url);
    for (let i = 0; i < 104; i++) await createToken(api, { name: `t${i}` });
  });
  afterAll(() => fp?.close());

  const names = (r: { body: { authentications: Array<{ metadata: Record<string, string> }> } }) =>
    r.body.authentications.map((a) => a.metadata['io.flagpole.auth.token.name']);

  it('pages by 25 by default, oldest first, with a plain decimal offset as page token', async () => {
    const first = await api.get('/auth/v1/tokens', undefined, admin);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['authentications', 'nextPageToken']);
    expect(names(first)).toEqual(['initial_bootstrap_token', ...Array.from({ length: 24 }, (_, i) => `t${i}`)]);
    expect(first.body.nextPageToken).toBe('25');
    const second = await api.get('/auth/v1/tokens?pageToken=25', undefined, admin);
    expect(names(second)[0]).toBe('t24');
    expect(second.body.nextPageToken).toBe('50');
  });

  it('clamps the page size to 100 and ends with an empty token', async () => {
    const big = await api.get('/auth/v1/tokens?limit=1000', undefined, admin);
    expect(big.body.authentications).toHaveLength(100);
    expect(big.body.nextPageToken).toBe('100');
    const last = await api.get(`/auth/v1/tokens?limit=10&page_token=100`, undefined, admin);
    expect(names(last)).toEqual(['t99', 't100', 't101', 't102', 't103']);
    expect(last.body.nextPageToken).toBe('');
  });

  it('reads a page token that is not a number as the start', async () => {
    expect(names(await api.get('/auth/v1/tokens?limit=1&pageToken=abc', undefined, admin))).toEqual(['initial_bootstrap_token']);
  });

  it('filters by method name or number', async () => {
    expect((await api.get('/auth/v1/tokens?method=METHOD_KUBERNETES', undefined, admin)).body).toEqual({ authentications: [], nextPageToken: '' });
    expect((await api.get('/auth/v1/tokens?method=1&limit=5', undefined, admin)).body.authentications).toHaveLength(5);
    expect((await api.get('/auth/v1/tokens?method=METHOD_NONE&limit=5', undefined, admin)).body.authentications).toHaveLength(5);
    expect((await api.get('/auth/v1/tokens?method=METHOD_BOGUS', undefined, admin)).status).toBe(400);
  });

  it('refuses a negative limit with 400 naming it', async () => {
    const r = await api.get('/auth/v1/tokens?limit=-1', undefined, admin);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
    expect(r.body.message).toContain('limit');
  });
});

describe('namespaced tokens', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let scoped: Record<string, string>;
  const admin = bearer(BOOTSTRAP);
  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
    api = client(fp.url);
    for (const ns of ['prod', 'staging']) {
      expect((await api.post('/api/v1/namespaces', { key: ns, name: ns }, admin)).status).toBe(200);
      expect((await api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE' }, admin)).status).toBe(200);
    }
    const t = await createToken(api, { name: 'prod only', namespaceKey: 'prod' });
    expect(t.authentication.metadata['io.flagpole.auth.token.namespace']).toBe('prod');
    scoped = bearer(t.clientToken);
  });
  afterAll(() => fp?.close());

  it('work on paths in their namespace', async () => {
    for (const path of ['/api/v1/namespaces/prod', '/api/v1/namespaces/prod/flags', '/api/v1/namespaces/prod/flags/f',
      '/api/v1/namespaces/prod/segments', '/api/v1/namespaces/prod/flags/f/rules', '/api/v1/namespaces/prod/flags/f/rollouts',
      '/internal/v1/evaluation/snapshot/namespace/prod']) {
      expect({ path, status: (await api.get(path, undefined, scoped)).status }).toEqual({ path, status: 200 });
    }
    expect((await api.put('/api/v1/namespaces/prod', { name: 'Production' }, scoped)).status).toBe(200);
    expect((await api.post('/api/v1/namespaces/prod/flags/f/variants', { key: 'v' }, scoped)).status).toBe(200);
  });

  it('are refused in another namespace, including the default one', async () => {
    for (const path of ['/api/v1/namespaces/staging', '/api/v1/namespaces/staging/flags', '/api/v1/namespaces/default/flags',
      '/api/v1/namespaces/staging/flags/f/rules', '/api/v1/namespaces/staging/flags/f/rollouts', '/api/v1/namespaces/staging/segments',
      '/internal/v1/evaluation/snapshot/namespace/staging']) {
      const r = await api.get(path, undefined, scoped);
      expect({ path, status: r.status }).toEqual({ path, status: 401 });
      expectUnauthenticated(r);
    }
    expectUnauthenticated(await api.post('/api/v1/namespaces/staging/flags/f/variants', { key: 'v' }, scoped));
    expectUnauthenticated(await api.post('/api/v1/namespaces', { key: 'other', name: 'other' }, scoped));
  });

  it('follow the namespace of legacy routes from the query or body (empty = default)', async () => {
    expect((await api.get('/api/v1/flags?namespaceKey=prod', undefined, scoped)).status).toBe(200);
    expect((await api.get('/api/v1/flags/f?namespace_key=prod', undefined, scoped)).status).toBe(200);
    expectUnauthenticated(await api.get('/api/v1/flags', undefined, scoped));
    expect((await api.post('/api/v1/flags', { key: 'g', name: 'g', namespaceKey: 'prod' }, scoped)).status).toBe(200);
    expectUnauthenticated(await api.post('/api/v1/flags', { key: 'g', name: 'g' }, scoped));
    // The path wins over the body.
    expectUnauthenticated(await api.post('/api/v1/namespaces/staging/flags', { key: 'h', name: 'h', namespaceKey: 'prod' }, scoped));
  });

  it('evaluate in their namespace only, and every item of a batch must be in it', async () => {
    const evaluation = { flagKey: 'f', entityId: 'e', context: {} };
    expect((await api.post('/evaluate/v1/boolean', { ...evaluation, namespaceKey: 'prod' }, scoped)).status).toBe(200);
    expectUnauthenticated(await api.post('/evaluate/v1/boolean', evaluation, scoped));
    expectUnauthenticated(await api.post('/evaluate/v1/variant', { ...evaluation, namespaceKey: 'staging' }, scoped));
    const item = { ...evaluation, namespaceKey: 'prod' };
    expect((await api.post('/evaluate/v1/batch', { requests: [item, { ...item, namespace_key: 'prod' }] }, scoped)).status).toBe(200);
    expectUnauthenticated(await api.post('/evaluate/v1/batch', { requests: [item, evaluation] }, scoped));
    expectUnauthenticated(await api.post('/evaluate/v1/batch', { requests: [] }, scoped));
    expectNotRefused(await api.post('/api/v1/evaluate', { ...evaluation, namespaceKey: 'prod' }, scoped));
    expectNotRefused(await api.post('/api/v1/namespaces/prod/evaluate', evaluation, scoped));
    expectUnauthenticated(await api.post('/api/v1/evaluate', evaluation, scoped));
    expectNotRefused(await api.post('/api/v1/batch-evaluate', { namespaceKey: 'prod', requests: [item] }, scoped));
  });

  it('are refused wherever no single namespace is named', async () => {
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, scoped));
    expectUnauthenticated(await api.get('/auth/v1/self', undefined, scoped));
    expectUnauthenticated(await api.get('/auth/v1/tokens', undefined, scoped));
    expectUnauthenticated(await api.put('/auth/v1/self/expire', undefined, scoped));
    expectUnauthenticated(await api.post('/auth/v1/method/token', { name: 'escalate' }, scoped));
    expectUnauthenticated(await api.post('/auth/v1/method/token', { name: 'escalate', namespaceKey: 'prod' }, scoped));
    expectUnauthenticated(await api.get('/meta/info', undefined, scoped));
  });
});

describe('authentication.exclude', () => {
  it('management opens /api/v1 (legacy evaluation included) and nothing else', async () => {
    const fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_MANAGEMENT: 'true' });
    try {
      const api = client(fp.url);
      expect((await api.get('/api/v1/namespaces')).status).toBe(200);
      expectNotRefused(await api.post('/api/v1/evaluate', { flagKey: 'f', entityId: 'e' }));
      expectUnauthenticated(await api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e' }));
      expectUnauthenticated(await api.get('/internal/v1/evaluation/snapshot/namespace/default'));
      expectUnauthenticated(await api.get('/auth/v1/tokens'));
    } finally {
      await fp.close();
    }
  });

  it('evaluation opens /evaluate/v1 and the snapshot, and nothing else', async () => {
    const fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_AUTHENTICATION_EXCLUDE_EVALUATION: 'true' });
    try {
      const api = client(fp.url);
      expectNotRefused(await api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e' }));
      expect((await api.get('/internal/v1/evaluation/snapshot/namespace/default')).status).toBe(200);
      expectUnauthenticated(await api.post('/api/v1/evaluate', { flagKey: 'f', entityId: 'e' }));
      expectUnauthenticated(await api.get('/api/v1/namespaces'));
    } finally {
      await fp.close();
    }
  });

  it('works with no method at all: required with nothing enabled refuses everything but the open routes', async () => {
    const fp = await startFlagpole({ FLAGPOLE_AUTHENTICATION_REQUIRED: 'true' });
    try {
      const api = client(fp.url);
      expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer('anything')));
      expectNotRefused(await api.get('/health'));
      expect((await api.get('/auth/v1/method')).status).toBe(200);
    } finally {
      await fp.close();
    }
  });
});

describe('bootstrap and logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-auth-log-'));
  const logFile = join(dir, 'flagpole.log');
  let dbUrl: string;
  const env = () => ({
    FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_EXPIRATION: '1h',
    FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_METADATA_IS_BOOTSTRAP: 'true',
    FLAGPOLE_LOG_LEVEL: 'DEBUG',
    FLAGPOLE_LOG_ENCODING: 'json',
    FLAGPOLE_LOG_FILE: logFile,
    FLAGPOLE_DB_URL: dbUrl,
  });
  beforeAll(async () => {
    dbUrl = await freshDatabaseUrl(dir);
  });
  afterAll(() => dropDatabase(dbUrl));

  it('creates a random bootstrap token once, logs it once under client_token, and never logs another token', async () => {
    const fp = await startFlagpole(env());
    const secrets: string[] = [];
    try {
      const api = client(fp.url);
      const created = logLines(logFile).filter((l) => l.includes('access token created'));
      expect(created).toHaveLength(1);
      const line = JSON.parse(created[0]);
      expect(line).toMatchObject({ M: 'access token created', client_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}=$/) });
      const bootstrap = line.client_token as string;
      const self = await api.get('/auth/v1/self', undefined, bearer(bootstrap));
      expect(self.body.metadata).toEqual({
        is_bootstrap: 'true',
        'io.flagpole.auth.token.name': 'initial_bootstrap_token',
        'io.flagpole.auth.token.description': 'Initial token created when bootstrapping authentication',
      });
      const expiresIn = Date.parse(self.body.expiresAt) - Date.now();
      expect(expiresIn).toBeGreaterThan(3_500_000);
      expect(expiresIn).toBeLessThanOrEqual(3_600_000);

      // Tokens made and used in every way, refused ones included, must not reach the log.
      for (const body of [{ name: 'a' }, { name: 'b', namespaceKey: 'default' }, { name: 'c', expiresAt: '2000-01-01T00:00:00Z' }]) {
        const t = await createToken(api, body, bearer(bootstrap));
        secrets.push(t.clientToken);
        await api.get('/api/v1/namespaces', undefined, bearer(t.clientToken));
        await api.get('/auth/v1/tokens', undefined, { cookie: `flagpole_client_token=${t.clientToken}` });
        await api.put('/auth/v1/self/expire', undefined, bearer(t.clientToken));
      }
      secrets.push('wrong-token-value-123');
      await api.get('/api/v1/namespaces', undefined, bearer('wrong-token-value-123'));
      const log = logLines(logFile).join('\n');
      expect(log.split(bootstrap).length - 1).toBe(1);
      for (const s of secrets) expect(log).not.toContain(s);
    } finally {
      await fp.close();
    }

    // A restart finds a static token and creates none.
    const again = await startFlagpole(env());
    try {
      expect(logLines(logFile).filter((l) => l.includes('access token created'))).toHaveLength(1);
      const api = client(again.url);
      const listed = await api.get('/auth/v1/tokens?limit=100', undefined, bearer(JSON.parse(logLines(logFile).find((l) => l.includes('access token created'))!).client_token));
      const names = listed.body.authentications.map((a: { metadata: Record<string, string> }) => a.metadata['io.flagpole.auth.token.name']);
      expect(names.filter((n: string) => n === 'initial_bootstrap_token')).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('uses the configured bootstrap token value', async () => {
    const fp = await startFlagpole(TOKEN_REQUIRED);
    try {
      expect((await client(fp.url).get('/auth/v1/self', undefined, bearer(BOOTSTRAP))).status).toBe(200);
    } finally {
      await fp.close();
    }
  });
});
