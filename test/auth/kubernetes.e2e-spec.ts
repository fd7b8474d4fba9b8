/**
 * The Kubernetes method against a loopback fake cluster (support/fake-cluster.ts): the exchange, its aliases and
 * body spellings, what the cluster must vouch for, and the service-account allow-list.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from 'jose';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { TIMESTAMP, UUID } from '../management/support';
import { Api, bearer, BOOTSTRAP, expectUnauthenticated, sleep, TOKEN_REQUIRED } from './support';
import { FakeCluster, makeCa, startFakeCluster } from './support/fake-cluster';

const EXCHANGE = '/auth/v1/method/kubernetes/serviceaccount';

function k8sEnv(cluster: FakeCluster, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...TOKEN_REQUIRED,
    FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_DISCOVERY_URL: cluster.url,
    FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_CA_PATH: cluster.caPath,
    FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH: cluster.tokenPath,
    ...extra,
  };
}

function expectRefusedVerifying(r: { status: number; body: any }, reason: RegExp = /.+/) {
  expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: 16 });
  expect(r.body.message).toMatch(/^verifying service account: /);
  expect(r.body.message.replace('verifying service account: ', '')).toMatch(reason);
}

describe('Kubernetes service-account exchange', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-k8s-'));
  let cluster: FakeCluster;
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    cluster = await startFakeCluster(dir);
    fp = await startFlagpole(k8sEnv(cluster));
    api = client(fp.url);
  });
  afterAll(async () => {
    await fp?.close();
    await cluster?.close();
  });

  it('exchanges a valid service-account token for a client token that expires with it', async () => {
    const sa = await cluster.token({ namespace: 'prod', name: 'flag-reader', pod: 'reader-1', expiresIn: 1800 });
    const r = await api.post(EXCHANGE, { service_account_token: sa });
    expect(r.status).toBe(200);
    const exp = JSON.parse(Buffer.from(sa.split('.')[1], 'base64url').toString()).exp as number;
    expect(r.body).toEqual({
      clientToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}=$/),
      authentication: {
        id: UUID,
        method: 'METHOD_KUBERNETES',
        expiresAt: new Date(exp * 1000).toISOString().replace('.000Z', 'Z'),
        createdAt: TIMESTAMP,
        updatedAt: TIMESTAMP,
        metadata: {
          'io.flagpole.auth.k8s.namespace': 'prod',
          'io.flagpole.auth.k8s.pod.name': 'reader-1',
          'io.flagpole.auth.k8s.pod.uid': UUID,
          'io.flagpole.auth.k8s.serviceaccount.name': 'flag-reader',
          'io.flagpole.auth.k8s.serviceaccount.uid': UUID,
        },
      },
    });
    expect((await api.get('/api/v1/namespaces', undefined, bearer(r.body.clientToken))).status).toBe(200);
    expect((await api.get('/auth/v1/self', undefined, bearer(r.body.clientToken))).body).toEqual(r.body.authentication);
    // Flagpole presented its own service-account token to the cluster.
    expect(cluster.seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(cluster.seen)).toEqual(new Set(['Bearer flagpole-reader-token']));
  });

  it('takes the camelCase field and serves the seed’s orchestrator path too', async () => {
    const sa = await cluster.token({ namespace: 'prod', name: 'flag-reader' });
    expect((await api.post(EXCHANGE, { serviceAccountToken: sa })).status).toBe(200);
    const alias = await api.post('/auth/v1/method/orchestrator/serviceaccount', { service_account_token: sa });
    expect(alias.status).toBe(200);
    expect(alias.body.authentication.method).toBe('METHOD_KUBERNETES');
  });

  it('needs no other credential, and is listed as enabled', async () => {
    const methods = (await api.get('/auth/v1/method')).body.methods;
    expect(methods[3]).toEqual({ method: 'METHOD_KUBERNETES', enabled: true, sessionCompatible: false });
  });

  it('the client token stops working when the service-account token expires', async () => {
    const sa = await cluster.token({ namespace: 'prod', name: 'flag-reader', expiresIn: 2 });
    const r = await api.post(EXCHANGE, { service_account_token: sa });
    expect(r.status).toBe(200);
    expect((await api.get('/api/v1/namespaces', undefined, bearer(r.body.clientToken))).status).toBe(200);
    await sleep(2100);
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer(r.body.clientToken)));
  });

  it('refuses tokens the cluster does not vouch for', async () => {
    const stranger = await generateKeyPair('RS256');
    expectRefusedVerifying(await api.post(EXCHANGE, { service_account_token: await cluster.token({ namespace: 'prod', name: 'x', expiresIn: -60 }) }), /exp/);
    expectRefusedVerifying(await api.post(EXCHANGE, { service_account_token: await cluster.token({ namespace: 'prod', name: 'x' }, { key: stranger.privateKey }) }));
    expectRefusedVerifying(await api.post(EXCHANGE, { service_account_token: await cluster.token({ namespace: 'prod', name: 'x' }, { issuer: 'https://other.cluster' }) }), /iss/);
    const valid = await cluster.token({ namespace: 'prod', name: 'x' });
    const [, payload] = valid.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expectRefusedVerifying(await api.post(EXCHANGE, { service_account_token: none }));
    expectRefusedVerifying(await api.post(EXCHANGE, { service_account_token: 'not-a-jwt' }));
  });

  it('refuses a request without token as invalid', async () => {
    const r = await api.post(EXCHANGE, {});
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { code: 3, message: 'invalid field service_account_token: must not be empty', details: [] },
    });
  });
});

describe('Kubernetes allow-list and trust', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-k8s-'));
  let cluster: FakeCluster;
  beforeAll(async () => {
    cluster = await startFakeCluster(dir);
  });
  afterAll(() => cluster?.close());

  it('admits only service accounts matching allowed_service_accounts, and creates nothing for the others', async () => {
    const fp = await startFlagpole(k8sEnv(cluster, { FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ALLOWED_SERVICE_ACCOUNTS: 'prod/* */flag-reader' }));
    try {
      const api = client(fp.url);
      for (const [namespace, name] of [['prod', 'anything'], ['staging', 'flag-reader']]) {
        expect((await api.post(EXCHANGE, { service_account_token: await cluster.token({ namespace, name }) })).status).toBe(200);
      }
      for (const [namespace, name] of [['staging', 'deployer'], ['production', 'x']]) {
        expectUnauthenticated(await api.post(EXCHANGE, { service_account_token: await cluster.token({ namespace, name }) }));
      }
      const listed = await api.get('/auth/v1/tokens?method=METHOD_KUBERNETES', undefined, bearer(BOOTSTRAP));
      expect(listed.body.authentications.map((a: any) => a.metadata['io.flagpole.auth.k8s.namespace'])).toEqual(['prod', 'staging']);
    } finally {
      await fp.close();
    }
  });

  it('trusts only the configured CA', async () => {
    const other = await makeCa('someone-else');
    const caPath = join(dir, 'other-ca.crt');
    writeFileSync(caPath, other.cert);
    const fp = await startFlagpole(k8sEnv(cluster, { FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_CA_PATH: caPath }));
    try {
      const r = await client(fp.url).post(EXCHANGE, { service_account_token: await cluster.token({ namespace: 'prod', name: 'x' }) });
      expectRefusedVerifying(r, /certificate/);
    } finally {
      await fp.close();
    }
  });

  it('does not start without its CA file', async () => {
    await expect(startFlagpole(k8sEnv(cluster, { FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_CA_PATH: join(dir, 'missing.crt') }))).rejects.toThrow(/missing\.crt/);
  });
});
