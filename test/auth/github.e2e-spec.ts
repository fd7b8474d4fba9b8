/**
 * GitHub login against a loopback fake of GitHub (support/fake-github.ts), configured through a YAML file as an
 * operator would: the flow, its `codehost` aliases, state refusals, and allowed organizations and teams.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { TIMESTAMP, UUID } from '../management/support';
import { BOOTSTRAP, expectUnauthenticated, getWithoutRedirect, setCookies } from './support';
import { FakeGithub, startFakeGithub } from './support/fake-github';

const CLIENT_ID = 'gh-client';
const CLIENT_SECRET = 'gh-secret';

function configFile(github: FakeGithub, extra = ''): string {
  const file = join(mkdtempSync(join(tmpdir(), 'flagpole-gh-')), 'config.yml');
  writeFileSync(file, `
authentication:
  required: true
  session:
    domain: localhost
  methods:
    token:
      enabled: true
      bootstrap:
        token: ${BOOTSTRAP}
    github:
      enabled: true
      server_url: ${github.url}
      api_url: ${github.apiUrl}
      client_id: ${CLIENT_ID}
      client_secret: ${CLIENT_SECRET}
      redirect_address: https://flags.example.com
${extra}`);
  return file;
}

/** Authorize, "approve" at GitHub, and bring the code back to the callback with the state cookie. */
async function login(fp: RunningFlagpole, user: string, base = '/auth/v1/method/github') {
  const authorize = await client(fp.url).get(`${base}/authorize?state=s`);
  expect(authorize.status).toBe(200);
  const state = new URL(authorize.body.authorizeUrl).searchParams.get('state')!;
  const cookie = setCookies(authorize)[0].split(';')[0];
  return getWithoutRedirect(fp.url, `${base}/callback?code=${fakeGithub.issueCode(user)}&state=${state}`, { cookie });
}

let fakeGithub: FakeGithub;
beforeAll(async () => {
  fakeGithub = await startFakeGithub(CLIENT_ID, CLIENT_SECRET, [
    { id: 1, login: 'octocat', name: 'The Octocat', email: 'octocat@example.com' },
    { id: 2, login: 'admin', orgs: ['Flagpole-Org', 'unrelated'], teams: ['Flagpole-Org/admins', 'Flagpole-Org/readers', 'unrelated/x'] },
    { id: 3, login: 'reader', orgs: ['Flagpole-Org'], teams: ['Flagpole-Org/readers'] },
    { id: 4, login: 'partner', orgs: ['partner-org'], teams: [] },
    { id: 5, login: 'outsider', orgs: ['unrelated'] },
  ]);
});
afterAll(() => fakeGithub?.close());

describe('GitHub login', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_CONFIG: configFile(fakeGithub, '      scopes: [user:email]') });
  });
  afterAll(() => fp?.close());

  it('is listed, and answers GitHub’s authorize URL with the state cookie (also under codehost)', async () => {
    const api = client(fp.url);
    expect((await api.get('/auth/v1/method')).body.methods[1]).toEqual({
      method: 'METHOD_GITHUB', enabled: true, sessionCompatible: true,
      metadata: { authorize_url: '/auth/v1/method/github/authorize', callback_url: '/auth/v1/method/github/callback' },
    });
    for (const base of ['/auth/v1/method/github', '/auth/v1/method/codehost']) {
      const r = await api.get(`${base}/authorize?state=orig`);
      expect(r.status).toBe(200);
      const url = new URL(r.body.authorizeUrl);
      expect(url.origin + url.pathname).toBe(`${fakeGithub.url}/login/oauth/authorize`);
      const q = Object.fromEntries(url.searchParams);
      expect(q).toMatchObject({
        client_id: CLIENT_ID,
        redirect_uri: 'https://flags.example.com/auth/v1/method/github/callback',
        scope: 'user:email',
      });
      expect(JSON.parse(Buffer.from(q.state, 'base64url').toString()).original_state).toBe('orig');
      // session.domain localhost: no Domain attribute; not secure.
      expect(setCookies(r)).toEqual([
        expect.stringMatching(new RegExp(`^flagpole_client_state=${q.state}; Path=/auth/v1/method/github/callback; Expires=[^;]+; HttpOnly; SameSite=Lax$`)),
      ]);
    }
  });

  it('logs a user in: profile metadata, session cookie, 302 to /', async () => {
    const before = Date.now();
    const r = await login(fp, 'octocat');
    const after = Date.now();
    expect({ status: r.status, location: r.headers.get('location') }).toEqual({ status: 302, location: '/' });
    expect(r.body).toEqual({
      clientToken: '',
      authentication: {
        id: UUID,
        method: 'METHOD_GITHUB',
        expiresAt: TIMESTAMP,
        createdAt: TIMESTAMP,
        updatedAt: TIMESTAMP,
        metadata: {
          'io.flagpole.auth.github.name': 'The Octocat',
          'io.flagpole.auth.github.email': 'octocat@example.com',
          'io.flagpole.auth.github.picture': 'https://avatars.example/1',
          'io.flagpole.auth.github.sub': '1',
          'io.flagpole.auth.github.preferred_username': 'octocat',
          'io.flagpole.auth.email': 'octocat@example.com',
          'io.flagpole.auth.name': 'The Octocat',
          'io.flagpole.auth.picture': 'https://avatars.example/1',
        },
      },
    });
    const [cookie] = setCookies(r);
    expect(cookie).toMatch(/^flagpole_client_token=[A-Za-z0-9_-]{43}=; Path=\/; Expires=[^;]+ GMT; HttpOnly; SameSite=Strict$/);
    // A day from the login, however long it took (an HTTP date drops the milliseconds).
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + 24 * 3_600_000);
    const session = { cookie: cookie.split(';')[0] };
    expect((await client(fp.url).get('/auth/v1/self', undefined, session)).body).toEqual(r.body.authentication);
  });

  it('works through the codehost aliases too', async () => {
    expect((await login(fp, 'octocat', '/auth/v1/method/codehost')).status).toBe(302);
  });

  it('refuses a callback without or with another state, and a bad or reused code', async () => {
    const code = fakeGithub.issueCode('octocat');
    const missing = await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${code}&state=abc`);
    expect({ status: missing.status, message: missing.body.message }).toEqual({ status: 401, message: 'handling GitHub callback: missing state parameter' });
    const other = await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${code}&state=abc`, { cookie: 'flagpole_client_state=xyz' });
    expect(other.body.message).toBe('handling GitHub callback: unexpected state parameter');
    const bad = await getWithoutRedirect(fp.url, '/auth/v1/method/github/callback?code=forged&state=abc', { cookie: 'flagpole_client_state=abc' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 401, code: 16 });
    expect(bad.body.message).toContain('bad_verification_code');
    expect((await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${code}&state=abc`, { cookie: 'flagpole_client_state=abc' })).status).toBe(302);
    expect((await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${code}&state=abc`, { cookie: 'flagpole_client_state=abc' })).status).toBe(401);
  });
});

describe('GitHub allowed organizations and teams', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({
      FLAGPOLE_CONFIG: configFile(fakeGithub, `      scopes: [read:org]
      allowed_organizations: [Flagpole-Org, partner-org]
      allowed_teams:
        Flagpole-Org: [admins]`),
    });
  });
  afterAll(() => fp?.close());

  it('admits members of an allowed organization in an allowed team, and records what it checked', async () => {
    const r = await login(fp, 'admin');
    expect(r.status).toBe(302);
    expect(r.body.authentication.metadata).toMatchObject({
      'io.flagpole.auth.github.preferred_username': 'admin',
      'io.flagpole.auth.github.organizations': '["Flagpole-Org"]',
      'io.flagpole.auth.github.teams': '{"Flagpole-Org":["admins"]}',
    });
  });

  it('admits any member of an allowed organization without team restriction', async () => {
    const r = await login(fp, 'partner');
    expect(r.status).toBe(302);
    expect(r.body.authentication.metadata['io.flagpole.auth.github.organizations']).toBe('["partner-org"]');
  });

  it('refuses members of no allowed organization, or outside the allowed teams, and creates no session', async () => {
    expectUnauthenticated(await login(fp, 'reader'));
    expectUnauthenticated(await login(fp, 'outsider'));
    const sessions = await client(fp.url).get('/auth/v1/tokens?method=METHOD_GITHUB', undefined, { authorization: `Bearer ${BOOTSTRAP}` });
    expect(sessions.body.authentications.map((a: any) => a.metadata['io.flagpole.auth.github.preferred_username']).sort()).toEqual(['admin', 'partner']);
  });
});
