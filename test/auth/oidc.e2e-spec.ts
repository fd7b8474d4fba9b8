/**
 * OIDC login against two real OpenID Providers (oidc-provider, in child processes) configured at once — one with
 * PKCE required — through the whole browser flow: authorize, the provider's login and consent, the callback, and the
 * session cookie. Flagpole's redirect address is a made-up host: the test carries the callback over by hand.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { TIMESTAMP, UUID } from '../management/support';
import { Api, BOOTSTRAP, expectUnauthenticated, getWithoutRedirect, setCookies, TOKEN_REQUIRED } from './support';
import { loginAtProvider, RunningProvider, startOidcProvider } from './support/oidc';

const REDIRECT = 'http://flagpole.test';
const SECRETS = { alpha: 'alpha-secret-0123456789', beta: 'beta-secret-0123456789' };

function oidcEnv(providers: Record<string, RunningProvider>, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...TOKEN_REQUIRED,
    FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'flagpole.test',
    FLAGPOLE_AUTHENTICATION_SESSION_SECURE: 'true',
    FLAGPOLE_AUTHENTICATION_SESSION_TOKEN_LIFETIME: '2h',
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
    ...extra,
  };
  for (const [name, p] of Object.entries(providers)) {
    const key = `FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_${name.toUpperCase()}`;
    env[`${key}_ISSUER_URL`] = p.issuer;
    env[`${key}_CLIENT_ID`] = `${name}-client`;
    env[`${key}_CLIENT_SECRET`] = SECRETS[name as keyof typeof SECRETS];
    env[`${key}_REDIRECT_ADDRESS`] = `${REDIRECT}/`;
    env[`${key}_SCOPES`] = 'email profile';
    if (name === 'beta') env[`${key}_USE_PKCE`] = 'true';
  }
  return env;
}

/** Authorize at Flagpole, log in at the provider, and hand the callback to Flagpole with the state cookie. */
async function login(fp: RunningFlagpole, provider: string, user: string, headers: Record<string, string> = {}) {
  const api = client(fp.url);
  const authorize = await api.get(`/auth/v1/method/oidc/${provider}/authorize?state=orig`, undefined, headers);
  expect(authorize.status).toBe(200);
  const stateCookie = setCookies(authorize)[0].split(';')[0];
  const callback = await loginAtProvider(authorize.body.authorizeUrl, user);
  expect(callback.origin + callback.pathname).toBe(`${REDIRECT}/auth/v1/method/oidc/${provider}/callback`);
  const r = await getWithoutRedirect(fp.url, `/auth/v1/method/oidc/${provider}/callback${callback.search}`, { ...headers, cookie: stateCookie });
  return { authorize, callback, r };
}

describe('OIDC with two providers', () => {
  const providers: Record<string, RunningProvider> = {};
  let fp: RunningFlagpole;
  let api: Api;

  beforeAll(async () => {
    for (const name of ['alpha', 'beta'] as const) {
      providers[name] = await startOidcProvider({
        clientId: `${name}-client`,
        clientSecret: SECRETS[name],
        redirectUri: `${REDIRECT}/auth/v1/method/oidc/${name}/callback`,
        pkceRequired: name === 'beta',
      });
    }
    fp = await startFlagpole(oidcEnv(providers));
    api = client(fp.url);
  });
  afterAll(async () => {
    await fp?.close();
    for (const p of Object.values(providers)) await p.close();
  });

  it('lists both providers with their login URLs, behind a proxy prefix too', async () => {
    const oidc = (await api.get('/auth/v1/method')).body.methods[2];
    expect(oidc).toEqual({
      method: 'METHOD_OIDC',
      enabled: true,
      sessionCompatible: true,
      metadata: {
        providers: {
          alpha: { authorize_url: '/auth/v1/method/oidc/alpha/authorize', callback_url: '/auth/v1/method/oidc/alpha/callback' },
          beta: { authorize_url: '/auth/v1/method/oidc/beta/authorize', callback_url: '/auth/v1/method/oidc/beta/callback' },
        },
      },
    });
    const proxied = (await api.get('/auth/v1/method', undefined, { 'x-forwarded-prefix': '/flags' })).body.methods[2];
    expect(proxied.metadata.providers.alpha.authorize_url).toBe('/flags/auth/v1/method/oidc/alpha/authorize');
  });

  it('answers the provider URL with the state, and sets the state cookie', async () => {
    const before = Date.now();
    const r = await api.get('/auth/v1/method/oidc/alpha/authorize?state=orig');
    const after = Date.now();
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['authorizeUrl']);
    const url = new URL(r.body.authorizeUrl);
    expect(url.origin).toBe(providers.alpha.issuer);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: 'alpha-client',
      response_type: 'code',
      redirect_uri: `${REDIRECT}/auth/v1/method/oidc/alpha/callback`,
      scope: 'openid email profile',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(q.code_challenge).toBeUndefined();
    expect(JSON.parse(Buffer.from(q.state, 'base64url').toString())).toEqual({
      security_token: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/),
      original_state: 'orig',
    });
    const [cookie] = setCookies(r);
    expect(cookie).toMatch(new RegExp(
      `^flagpole_client_state=${q.state}; Domain=flagpole\\.test; Path=/auth/v1/method/oidc/alpha/callback; Expires=[^;]+ GMT; HttpOnly; Secure; SameSite=Lax$`,
    ));
    // Ten minutes from when the server answered, however long the request took (an HTTP date drops the milliseconds).
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
    expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + 10 * 60_000);
  });

  it('sends a PKCE challenge for the provider that uses it', async () => {
    const r = await api.get('/auth/v1/method/oidc/beta/authorize');
    const q = Object.fromEntries(new URL(r.body.authorizeUrl).searchParams);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge_method).toBe('S256');
  });

  it.each(['alpha', 'beta'])('logs a user in through %s: session cookie, 302 to /, and a working session', async (provider) => {
    const before = Date.now();
    const { authorize, r } = await login(fp, provider, `ada-${provider}`);
    const after = Date.now();
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 302 });
    expect(r.headers.get('location')).toBe('/');
    expect(r.body).toEqual({
      clientToken: '',
      authentication: {
        id: UUID,
        method: 'METHOD_OIDC',
        expiresAt: TIMESTAMP,
        createdAt: TIMESTAMP,
        updatedAt: TIMESTAMP,
        metadata: {
          'io.flagpole.auth.oidc.provider': provider,
          'io.flagpole.auth.claims': expect.any(String),
          'io.flagpole.auth.oidc.email': `ada-${provider}@example.com`,
          'io.flagpole.auth.oidc.email_verified': 'true',
          'io.flagpole.auth.oidc.name': `User ada-${provider}`,
          'io.flagpole.auth.oidc.picture': `https://img.example/ada-${provider}.png`,
          'io.flagpole.auth.oidc.sub': `ada-${provider}`,
          'io.flagpole.auth.email': `ada-${provider}@example.com`,
          'io.flagpole.auth.name': `User ada-${provider}`,
          'io.flagpole.auth.picture': `https://img.example/ada-${provider}.png`,
        },
      },
    });
    const claims = JSON.parse(r.body.authentication.metadata['io.flagpole.auth.claims']);
    expect(claims).toMatchObject({
      sub: `ada-${provider}`, aud: `${provider}-client`, iss: providers[provider].issuer,
      nonce: new URL(authorize.body.authorizeUrl).searchParams.get('nonce'),
    });
    // Two hours from the login, however long it took.
    const expiresAt = Date.parse(r.body.authentication.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 2 * 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 2 * 3_600_000);

    const [cookie] = setCookies(r);
    const token = /^flagpole_client_token=([^;]+)/.exec(cookie)![1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(cookie).toMatch(/^flagpole_client_token=[^;]+; Domain=flagpole\.test; Path=\/; Expires=[^;]+ GMT; HttpOnly; Secure; SameSite=Strict$/);
    const session = { cookie: `flagpole_client_token=${token}` };
    expect((await api.get('/api/v1/namespaces', undefined, session)).status).toBe(200);
    expect((await api.get('/auth/v1/self', undefined, session)).body).toEqual(r.body.authentication);

    // Logging out: expire self clears the cookies, and the session is over.
    const out = await api.put('/auth/v1/self/expire', undefined, session);
    expect(setCookies(out)).toEqual([
      'flagpole_client_state=; Max-Age=0; Domain=flagpole.test; Path=/',
      'flagpole_client_token=; Max-Age=0; Domain=flagpole.test; Path=/',
    ]);
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, session));
  });

  it('follows X-Forwarded-Prefix in the state cookie path and the redirect', async () => {
    const headers = { 'x-forwarded-prefix': '/flags' };
    const { authorize, r } = await login(fp, 'alpha', 'proxied', headers);
    expect(setCookies(authorize)[0]).toContain('; Path=/flags/auth/v1/method/oidc/alpha/callback;');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/flags/');
  });

  it('refuses a callback without the state cookie, with another state, with a bad or reused code', async () => {
    const authorize = await api.get('/auth/v1/method/oidc/alpha/authorize?state=x');
    const stateCookie = setCookies(authorize)[0].split(';')[0];
    const callback = await loginAtProvider(authorize.body.authorizeUrl, 'eve');
    const path = `/auth/v1/method/oidc/alpha/callback${callback.search}`;

    const missing = await api.get(path);
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 401, body: { code: 16, message: 'handling OIDC callback: missing state parameter', details: [] },
    });
    const other = await api.get(path, undefined, { cookie: 'flagpole_client_state=someone-elses' });
    expect(other.body.message).toBe('handling OIDC callback: unexpected state parameter');
    const badCode = new URLSearchParams(callback.search);
    badCode.set('code', 'forged');
    const forged = await api.get(`/auth/v1/method/oidc/alpha/callback?${badCode}`, undefined, { cookie: stateCookie });
    expect({ status: forged.status, code: forged.body.code }).toEqual({ status: 401, code: 16 });

    expect((await getWithoutRedirect(fp.url, path, { cookie: stateCookie })).status).toBe(302);
    const replay = await getWithoutRedirect(fp.url, path, { cookie: stateCookie });
    expect({ status: replay.status, code: replay.body.code }).toEqual({ status: 401, code: 16 });
    // None of the refusals created a session.
    const sessions = await api.get('/auth/v1/tokens?method=METHOD_OIDC&limit=100', undefined, { authorization: `Bearer ${BOOTSTRAP}` });
    expect(sessions.body.authentications.filter((a: any) => a.metadata['io.flagpole.auth.oidc.sub'] === 'eve')).toHaveLength(1);
  });

  it('answers Flipt’s 404 for an unknown provider', async () => {
    const r = await api.get('/auth/v1/method/oidc/gamma/authorize');
    expect({ status: r.status, body: r.body }).toEqual({
      status: 404, body: { code: 5, message: 'authorize: requested provider "gamma": provider not found not found', details: [] },
    });
  });

  it('keeps sessions to the emails of email_matches', async () => {
    const strict = await startFlagpole(oidcEnv(providers, { FLAGPOLE_AUTHENTICATION_METHODS_OIDC_EMAIL_MATCHES: '^alice@example\\.com$' }));
    try {
      expect((await login(strict, 'alpha', 'alice')).r.status).toBe(302);
      expectUnauthenticated((await login(strict, 'beta', 'mallory')).r);
    } finally {
      await strict.close();
    }
  });
});
