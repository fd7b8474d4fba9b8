/**
 * Login CSRF: an attacker who logs in to their own account at the provider and sends the victim's browser to
 * Flagpole's callback with that code must not log the victim in. Every callback needs the state cookie set by this
 * browser's authorize and the same `state`; an OIDC login also needs an ID token carrying the nonce of that very login.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { errorBody } from '../management/support';
import { Api, BOOTSTRAP, bearer, getWithoutRedirect, setCookies, TOKEN_REQUIRED } from './support';
import { FakeGithub, startFakeGithub } from './support/fake-github';
import { loginAtProvider, RunningProvider, startOidcProvider } from './support/oidc';

const REDIRECT = 'http://flagpole.test';
const OIDC_CALLBACK = '/auth/v1/method/oidc/alpha/callback';
const GITHUB_CALLBACK = '/auth/v1/method/github/callback';

let provider: RunningProvider;
let github: FakeGithub;
let fp: RunningFlagpole;
let api: Api;

beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: 'alpha-client',
    clientSecret: 'alpha-secret-0123456789',
    redirectUri: `${REDIRECT}${OIDC_CALLBACK}`,
  });
  github = await startFakeGithub('gh-client', 'gh-secret', [{ id: 7, login: 'mallory' }]);
  fp = await startFlagpole({
    ...TOKEN_REQUIRED,
    FLAGPOLE_AUTHENTICATION_SESSION_DOMAIN: 'localhost',
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_ISSUER_URL: provider.issuer,
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_CLIENT_ID: 'alpha-client',
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_CLIENT_SECRET: 'alpha-secret-0123456789',
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_REDIRECT_ADDRESS: REDIRECT,
    FLAGPOLE_AUTHENTICATION_METHODS_OIDC_PROVIDERS_ALPHA_SCOPES: 'email profile',
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_ENABLED: 'true',
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_SERVER_URL: github.url,
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_API_URL: github.apiUrl,
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_CLIENT_ID: 'gh-client',
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_CLIENT_SECRET: 'gh-secret',
    FLAGPOLE_AUTHENTICATION_METHODS_GITHUB_REDIRECT_ADDRESS: REDIRECT,
  });
  api = client(fp.url);
});
afterAll(async () => {
  await fp?.close();
  await provider?.close();
  await github?.close();
});

/** An authorize as a browser makes it: the state sent to the provider and the cookie holding it. */
async function authorize(path: string) {
  const r = await api.get(`${path}?state=orig`);
  expect(r.status).toBe(200);
  const url = new URL(r.body.authorizeUrl);
  return { url, state: url.searchParams.get('state')!, cookie: setCookies(r)[0].split(';')[0] };
}

/** The attacker's half: a login of their own at the provider, stopped before the callback. */
async function attackerOidcCode() {
  const own = await authorize('/auth/v1/method/oidc/alpha/authorize');
  const callback = await loginAtProvider(own.url.toString(), 'mallory');
  return { ...own, code: callback.searchParams.get('code')!, search: callback.searchParams };
}

function expectRefused(r: Awaited<ReturnType<typeof getWithoutRedirect>>, message: string) {
  expect({ status: r.status, body: r.body }).toEqual({ status: 401, body: errorBody(16, message) });
  expect(setCookies(r)).toEqual([]);
}

async function sessionsOf(method: string) {
  const r = await api.get(`/auth/v1/tokens?method=${method}&limit=100`, undefined, bearer(BOOTSTRAP));
  return r.body.authentications.length as number;
}

describe('OIDC callback', () => {
  it('refuses a callback without state, with or without a state cookie, and creates no session', async () => {
    const before = await sessionsOf('METHOD_OIDC');
    const attack = await attackerOidcCode();
    const noState = `${OIDC_CALLBACK}?code=${attack.code}`;
    expectRefused(await getWithoutRedirect(fp.url, noState), 'handling OIDC callback: missing state parameter');
    const victim = await authorize('/auth/v1/method/oidc/alpha/authorize');
    expectRefused(await getWithoutRedirect(fp.url, noState, { cookie: victim.cookie }), 'handling OIDC callback: missing state parameter');
    expectRefused(await getWithoutRedirect(fp.url, `${noState}&state=`, { cookie: victim.cookie }), 'handling OIDC callback: missing state parameter');
    expect(await sessionsOf('METHOD_OIDC')).toBe(before);
  });

  it('refuses a state without the cookie, or another login’s state', async () => {
    const attack = await attackerOidcCode();
    const withState = `${OIDC_CALLBACK}?${attack.search}`;
    expectRefused(await getWithoutRedirect(fp.url, withState), 'handling OIDC callback: missing state parameter');
    const victim = await authorize('/auth/v1/method/oidc/alpha/authorize');
    expectRefused(await getWithoutRedirect(fp.url, withState, { cookie: victim.cookie }), 'handling OIDC callback: unexpected state parameter');
  });

  it('refuses another login’s code even with the victim’s own state and cookie: the ID token’s nonce is not this login’s', async () => {
    const before = await sessionsOf('METHOD_OIDC');
    const attack = await attackerOidcCode();
    const victim = await authorize('/auth/v1/method/oidc/alpha/authorize');
    const forged = new URLSearchParams(attack.search);
    forged.set('state', victim.state);
    const r = await getWithoutRedirect(fp.url, `${OIDC_CALLBACK}?${forged}`, { cookie: victim.cookie });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: 16 });
    expect(r.body.message).toMatch(/^handling OIDC callback: .*nonce/);
    expect(setCookies(r)).toEqual([]);
    expect(await sessionsOf('METHOD_OIDC')).toBe(before);
  });

  it('sends a fresh random nonce with each login, and accepts the ID token that carries it', async () => {
    const a = await authorize('/auth/v1/method/oidc/alpha/authorize');
    const b = await authorize('/auth/v1/method/oidc/alpha/authorize');
    const [na, nb] = [a.url.searchParams.get('nonce'), b.url.searchParams.get('nonce')];
    expect(na).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nb).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(na).not.toBe(nb);

    const callback = await loginAtProvider(a.url.toString(), 'ada');
    const r = await getWithoutRedirect(fp.url, `${OIDC_CALLBACK}${callback.search}`, { cookie: a.cookie });
    expect(r.status).toBe(302);
    expect(JSON.parse(r.body.authentication.metadata['io.flagpole.auth.claims']).nonce).toBe(na);
  });
});

describe('GitHub callback', () => {
  it('refuses a callback without state, with or without a state cookie, and creates no session', async () => {
    const before = await sessionsOf('METHOD_GITHUB');
    expectRefused(
      await getWithoutRedirect(fp.url, `${GITHUB_CALLBACK}?code=${github.issueCode('mallory')}`),
      'handling GitHub callback: missing state parameter',
    );
    const victim = await authorize('/auth/v1/method/github/authorize');
    expectRefused(
      await getWithoutRedirect(fp.url, `${GITHUB_CALLBACK}?code=${github.issueCode('mallory')}&state=`, { cookie: victim.cookie }),
      'handling GitHub callback: missing state parameter',
    );
    expectRefused(
      await getWithoutRedirect(fp.url, `/auth/v1/method/codehost/callback?code=${github.issueCode('mallory')}`, { cookie: victim.cookie }),
      'handling GitHub callback: missing state parameter',
    );
    expect(await sessionsOf('METHOD_GITHUB')).toBe(before);
  });

  it('refuses a state without the cookie, or another login’s state, and completes the browser’s own login', async () => {
    const attacker = await authorize('/auth/v1/method/github/authorize');
    const victim = await authorize('/auth/v1/method/github/authorize');
    expectRefused(
      await getWithoutRedirect(fp.url, `${GITHUB_CALLBACK}?code=${github.issueCode('mallory')}&state=${attacker.state}`),
      'handling GitHub callback: missing state parameter',
    );
    expectRefused(
      await getWithoutRedirect(fp.url, `${GITHUB_CALLBACK}?code=${github.issueCode('mallory')}&state=${attacker.state}`, { cookie: victim.cookie }),
      'handling GitHub callback: unexpected state parameter',
    );
    const own = await getWithoutRedirect(fp.url, `${GITHUB_CALLBACK}?code=${github.issueCode('mallory')}&state=${victim.state}`, { cookie: victim.cookie });
    expect(own.status).toBe(302);
  });
});
