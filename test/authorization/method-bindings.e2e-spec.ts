/**
 * Authorization bindings, one authentication method at a time, each against the real parts its authentication suite
 * drives (a real OpenID Provider, the fake GitHub, the fake cluster, signed JWTs, static tokens): a credential a
 * binding matches gets that binding's roles and may do what they allow, one no binding matches gets a 403
 * PermissionDenied, and GET /auth/v1/self/permissions names the roles each holds.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose';
import { client, type HttpResult, type RunningFlagpole } from '../support/flagpole';
import { bearer, BOOTSTRAP, getWithoutRedirect, setCookies } from '../auth/support';
import { startFakeCluster, type FakeCluster } from '../auth/support/fake-cluster';
import { startFakeGithub, type FakeGithub } from '../auth/support/fake-github';
import { loginAtProvider, startOidcProvider, type RunningProvider } from '../auth/support/oidc';
import { DENIED, policyFile, startAuthorized } from './support';

jest.setTimeout(90_000);

type Api = ReturnType<typeof client>;
type Server = RunningFlagpole & { admin: Api };

/**
 * The roles every suite uses, the bootstrap token as admin (to set up namespaces), and the bindings under test.
 * `editor` edits flags and segments of `payments` only; `reader` reads everywhere.
 */
function policy(bindings: string): string {
  return `version: "1"
roles:
  admin:
    - resources: "*"
      actions: "*"
  editor:
    - resources: [flag, segment]
      actions: "*"
      namespaces: [payments]
    - resources: [namespace]
      actions: [read]
      namespaces: [payments]
  reader:
    - resources: [namespace, flag, segment]
      actions: [read]
bindings:
  - role: admin
    token:
      metadata:
        io.flagpole.auth.token.name: initial_bootstrap_token
${bindings}`;
}

const ALL = ['create', 'read', 'update', 'delete'];
const READ = { namespace: ['read'], flag: ['read'], segment: ['read'] };
/** The permissions answer of a credential holding only `editor`. */
const EDITOR_PERMISSIONS = { authorizationRequired: true, roles: ['editor'], global: {}, namespaces: { payments: { namespace: ['read'], flag: ALL, segment: ALL } } };
/** The permissions answer of a credential holding only `reader` (the namespaces are those seed() makes, and default). */
const READER_PERMISSIONS = { authorizationRequired: true, roles: ['reader'], global: READ, namespaces: { default: READ, payments: READ, search: READ } };
const NO_PERMISSIONS = { authorizationRequired: true, roles: [], global: {}, namespaces: {} };

/** Two namespaces with one flag each, made by the admin. */
async function seed(fp: Server): Promise<void> {
  for (const key of ['payments', 'search']) {
    expect((await fp.admin.post('/api/v1/namespaces', { key, name: key })).status).toBe(200);
    expect((await fp.admin.post(`/api/v1/namespaces/${key}/flags`, { key: 'f', name: 'f', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status).toBe(200);
  }
}

function expectDenied(r: HttpResult): void {
  expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: DENIED });
}

const editFlag = (api: Api, namespace: string, headers: Record<string, string>) =>
  api.put(`/api/v1/namespaces/${namespace}/flags/f`, { name: 'edited', enabled: false }, headers);

/** The editor edits in payments, not in search; and the admin sees only the allowed change. */
async function expectEditorOfPayments(fp: Server, headers: Record<string, string>): Promise<void> {
  const api = client(fp.url);
  expect((await editFlag(api, 'payments', headers)).status).toBe(200);
  expectDenied(await editFlag(api, 'search', headers));
  expect((await fp.admin.get('/api/v1/namespaces/payments/flags/f')).body).toMatchObject({ name: 'edited' });
  expect((await fp.admin.get('/api/v1/namespaces/search/flags/f')).body).toMatchObject({ name: 'f' });
  // Put the flag back for the next credential.
  expect((await fp.admin.put('/api/v1/namespaces/payments/flags/f', { name: 'f', enabled: true })).status).toBe(200);
}

async function permissions(fp: Server, headers: Record<string, string>) {
  const r = await client(fp.url).get('/auth/v1/self/permissions', undefined, headers);
  expect(r.status).toBe(200);
  return r.body;
}

describe('OIDC bindings (a real OpenID Provider)', () => {
  // The provider (test/auth/support/oidc-provider.mjs) gives every login the claims sub=<login>, name and
  // email=<login>@example.com, and here a `groups` list to some: the claim identity providers carry teams in.
  const REDIRECT = 'http://flagpole.test';
  const SECRET = 'alpha-secret-0123456789';
  let provider: RunningProvider;
  let fp: Server;

  beforeAll(async () => {
    provider = await startOidcProvider({
      clientId: 'alpha-client',
      clientSecret: SECRET,
      redirectUri: `${REDIRECT}/auth/v1/method/oidc/alpha/callback`,
      claims: { ada: { groups: ['staff', 'payments-team'] }, eve: { groups: ['staff'] } },
    });
    const bindings = `
  - role: editor
    oidc:
      claims:
        groups: [payments-team, someone-else]
  # Both conditions: grace's claim and her address's domain.
  - role: reader
    oidc:
      claims:
        sub: grace
      email_domain: EXAMPLE.com
  # A domain nobody here has.
  - role: admin
    oidc:
      email_domain: example.org
  # Another provider's users only.
  - role: admin
    oidc:
      provider: beta
      claims:
        sub: ada
`;
    fp = await startAuthorized(policyFile(policy(bindings)), {
      FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flagpole.test',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_ISSUER_URL: provider.issuer,
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_CLIENT_ID: 'alpha-client',
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_CLIENT_SECRET: SECRET,
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_REDIRECT_ADDRESS: `${REDIRECT}/`,
      FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_SCOPES: 'email profile',
    });
    await seed(fp);
  });
  afterAll(async () => {
    await fp?.close();
    await provider?.close();
  });

  /** Logs `user` in through the provider and returns the session cookie header. */
  async function session(user: string): Promise<Record<string, string>> {
    const authorize = await client(fp.url).get('/auth/v1/method/oidc/alpha/authorize');
    expect(authorize.status).toBe(200);
    const state = setCookies(authorize)[0].split(';')[0];
    const callback = await loginAtProvider(authorize.body.authorizeUrl, user);
    const r = await getWithoutRedirect(fp.url, `/auth/v1/method/oidc/alpha/callback${callback.search}`, { cookie: state });
    expect(r.status).toBe(302);
    return { cookie: setCookies(r).find((c) => c.startsWith('flagpole_client_token='))!.split(';')[0] };
  }

  it('a user in the group the claim binding names edits in its namespace and nowhere else', async () => {
    const ada = await session('ada');
    await expectEditorOfPayments(fp, ada);
    // Neither the other domain's nor the other provider's binding applies.
    expect(await permissions(fp, ada)).toEqual(EDITOR_PERMISSIONS);
  });

  it('a binding with claims and an email domain needs both (the domain compared without case)', async () => {
    const grace = await session('grace');
    expect((await client(fp.url).get('/api/v1/namespaces/search/flags/f', undefined, grace)).status).toBe(200);
    expectDenied(await editFlag(client(fp.url), 'payments', grace));
    expect(await permissions(fp, grace)).toEqual(READER_PERMISSIONS);
  });

  it('a user no binding matches (in another group) is authenticated and may do nothing', async () => {
    const eve = await session('eve');
    expect((await client(fp.url).get('/auth/v1/self', undefined, eve)).status).toBe(200);
    expectDenied(await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, eve));
    expectDenied(await editFlag(client(fp.url), 'payments', eve));
    expect(await permissions(fp, eve)).toEqual(NO_PERMISSIONS);
  });
});

describe('GitHub bindings (organisation and team, read:org)', () => {
  let github: FakeGithub;
  let fp: Server;

  beforeAll(async () => {
    github = await startFakeGithub('gh-client', 'gh-secret', [
      { id: 1, login: 'releaser', orgs: ['ACME'], teams: ['ACME/release-managers', 'ACME/docs'] },
      { id: 2, login: 'writer', orgs: ['ACME'], teams: ['ACME/docs'] },
      { id: 3, login: 'outsider', orgs: ['other'], teams: ['other/release-managers'] },
    ]);
    const bindings = `
  - role: editor
    github:
      organization: acme
      team: [release-managers, on-call]
  - role: reader
    github:
      organization: acme
      team: docs
`;
    fp = await startAuthorized(policyFile(policy(bindings)), {
      FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'localhost',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_SERVER_URL: github.url,
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_API_URL: github.apiUrl,
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_CLIENT_ID: 'gh-client',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_CLIENT_SECRET: 'gh-secret',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_REDIRECT_ADDRESS: 'https://flags.example.com',
      FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_SCOPES: 'read:org',
    });
    await seed(fp);
  });
  afterAll(async () => {
    await fp?.close();
    await github?.close();
  });

  /** Logs `user` in through the fake GitHub and returns the session cookie header. */
  async function session(user: string): Promise<Record<string, string>> {
    const authorize = await client(fp.url).get('/auth/v1/method/github/authorize?state=s');
    expect(authorize.status).toBe(200);
    const state = new URL(authorize.body.authorizeUrl).searchParams.get('state')!;
    const cookie = setCookies(authorize)[0].split(';')[0];
    const r = await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${github.issueCode(user)}&state=${state}`, { cookie });
    expect(r.status).toBe(302);
    return { cookie: setCookies(r).find((c) => c.startsWith('flagpole_client_token='))!.split(';')[0] };
  }

  it('a member of the bound team edits in its namespace; the organisation is compared without case', async () => {
    const releaser = await session('releaser');
    await expectEditorOfPayments(fp, releaser);
    expect((await permissions(fp, releaser)).roles).toEqual(['editor', 'reader']);
  });

  it('a member of another team of the organisation gets that team’s role only', async () => {
    const writer = await session('writer');
    expect((await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, writer)).status).toBe(200);
    expectDenied(await editFlag(client(fp.url), 'payments', writer));
    expect(await permissions(fp, writer)).toEqual(READER_PERMISSIONS);
  });

  it('a team of the same name in another organisation counts for nothing', async () => {
    const outsider = await session('outsider');
    expectDenied(await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, outsider));
    expect(await permissions(fp, outsider)).toEqual(NO_PERMISSIONS);
  });
});

describe('Kubernetes bindings (service-account namespace and name)', () => {
  const EXCHANGE = '/auth/v1/method/kubernetes/serviceaccount';
  let cluster: FakeCluster;
  let fp: Server;

  beforeAll(async () => {
    cluster = await startFakeCluster(mkdtempSync(join(tmpdir(), 'flagpole-k8s-')));
    const bindings = `
  - role: editor
    kubernetes:
      namespace: apps
      service_account: [flag-writer]
  - role: reader
    kubernetes:
      namespace: apps
`;
    fp = await startAuthorized(policyFile(policy(bindings)), {
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_DISCOVERY_URL: cluster.url,
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_CA_PATH: cluster.caPath,
      FLAGPOLE_AUTHENTICATION_METHODS_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH: cluster.tokenPath,
    });
    await seed(fp);
  });
  afterAll(async () => {
    await fp?.close();
    await cluster?.close();
  });

  /** Exchanges a service-account token of `namespace/name` for a client token. */
  async function credential(namespace: string, name: string): Promise<Record<string, string>> {
    const r = await client(fp.url).post(EXCHANGE, { service_account_token: await cluster.token({ namespace, name }) });
    expect(r.status).toBe(200);
    return bearer(r.body.clientToken);
  }

  it('the named service account of the namespace edits in its namespace (and reads, as any account there)', async () => {
    const writer = await credential('apps', 'flag-writer');
    await expectEditorOfPayments(fp, writer);
    expect((await permissions(fp, writer)).roles).toEqual(['editor', 'reader']);
  });

  it('another service account of the namespace only reads', async () => {
    const other = await credential('apps', 'batch-job');
    expect((await client(fp.url).get('/api/v1/namespaces/search/flags/f', undefined, other)).status).toBe(200);
    expectDenied(await editFlag(client(fp.url), 'payments', other));
    expect(await permissions(fp, other)).toEqual(READER_PERMISSIONS);
  });

  it('an account of the same name in another namespace may do nothing', async () => {
    const stranger = await credential('tools', 'flag-writer');
    expectDenied(await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, stranger));
    expect(await permissions(fp, stranger)).toEqual(NO_PERMISSIONS);
  });
});

describe('JWT bindings (claims, and the role a JWT names)', () => {
  const ISSUER = 'https://issuer.flagpole.test';
  let key: { privateKey: KeyLike; publicKey: KeyLike };
  let fp: Server;

  beforeAll(async () => {
    key = await generateKeyPair('RS256');
    const keyFile = join(mkdtempSync(join(tmpdir(), 'flagpole-jwt-')), 'key.pem');
    writeFileSync(keyFile, await exportSPKI(key.publicKey));
    const bindings = `
  # A list claim holding one of the values.
  - role: editor
    jwt:
      claims:
        groups: [payments-team, billing-team]
  # A nested claim, by its dotted path.
  - role: reader
    jwt:
      claims:
        org.tier: 2
`;
    fp = await startAuthorized(policyFile(policy(bindings)), {
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE: keyFile,
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_ISSUER: ISSUER,
    });
    await seed(fp);
  });
  afterAll(() => fp?.close());

  async function jwt(claims: JWTPayload): Promise<Record<string, string>> {
    const now = Math.floor(Date.now() / 1000);
    const signed = await new SignJWT({ iss: ISSUER, sub: 'svc', iat: now, exp: now + 600, ...claims }).setProtectedHeader({ alg: 'RS256' }).sign(key.privateKey);
    return { authorization: `JWT ${signed}` };
  }

  it('a JWT with a bound claim value edits in its namespace and nowhere else', async () => {
    const token = await jwt({ groups: ['ops', 'payments-team'] });
    await expectEditorOfPayments(fp, token);
    expect(await permissions(fp, token)).toEqual(EDITOR_PERMISSIONS);
  });

  it('a nested claim is found by its dotted path, and a number matches its text', async () => {
    const token = await jwt({ org: { tier: 2 } });
    expect((await client(fp.url).get('/api/v1/namespaces/search/flags/f', undefined, token)).status).toBe(200);
    expectDenied(await editFlag(client(fp.url), 'search', token));
    expect(await permissions(fp, token)).toEqual(READER_PERMISSIONS);
  });

  it.each(['io.flagpole.auth.role', 'io.flipt.auth.role'])('a JWT naming its role in %s holds it', async (claim) => {
    const token = await jwt({ [claim]: 'reader' });
    expect((await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, token)).status).toBe(200);
    expectDenied(await editFlag(client(fp.url), 'payments', token));
    expect(await permissions(fp, token)).toEqual(READER_PERMISSIONS);
  });

  it('a JWT with other claim values, or naming a role the policy lacks, may do nothing', async () => {
    for (const claims of [{ groups: ['search-team'] }, { org: { tier: 3 } }, { 'io.flagpole.auth.role': 'superuser' }]) {
      const token = await jwt(claims);
      expectDenied(await client(fp.url).get('/api/v1/namespaces/payments/flags/f', undefined, token));
      expect({ claims, permissions: await permissions(fp, token) }).toEqual({ claims, permissions: NO_PERMISSIONS });
    }
  });
});

describe('static token bindings (metadata)', () => {
  let fp: Server;

  beforeAll(async () => {
    const bindings = `
  - role: editor
    token:
      metadata:
        team: [payments, billing]
        env: prod
`;
    fp = await startAuthorized(policyFile(policy(bindings)));
    await seed(fp);
  });
  afterAll(() => fp?.close());

  async function token(metadata: Record<string, string>): Promise<Record<string, string>> {
    const r = await fp.admin.post('/auth/v1/method/token', { name: 'bound', metadata });
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 200 });
    return bearer(r.body.clientToken);
  }

  it('a token whose metadata has every bound value edits in its namespace and nowhere else', async () => {
    const t = await token({ team: 'billing', env: 'prod' });
    await expectEditorOfPayments(fp, t);
    expect(await permissions(fp, t)).toEqual(EDITOR_PERMISSIONS);
  });

  it('a token missing one of the bound keys, or with another value, may do nothing', async () => {
    for (const metadata of [{ team: 'payments' }, { team: 'search', env: 'prod' }] as Array<Record<string, string>>) {
      const t = await token(metadata);
      expectDenied(await editFlag(client(fp.url), 'payments', t));
      expect({ metadata, permissions: await permissions(fp, t) }).toEqual({ metadata, permissions: NO_PERMISSIONS });
    }
  });

  it('the bootstrap token holds admin by its name', async () => {
    expect((await permissions(fp, bearer(BOOTSTRAP))).roles).toEqual(['admin']);
  });
});
