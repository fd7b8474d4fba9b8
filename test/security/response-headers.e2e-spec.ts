/**
 * What browsers are told about Flagpole's answers: `X-Content-Type-Options: nosniff` on every API response, the web
 * UI's content security policy on the API explorer too, and `X-Forwarded-Prefix` taken only as a plain path.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../src/common/security-headers';
import { BOOTSTRAP, getWithoutRedirect, setCookies, TOKEN_REQUIRED } from '../auth/support';
import { startFakeGithub, type FakeGithub } from '../auth/support/fake-github';
import { client, http, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { browserDescribe, launchBrowser } from '../ui/support/browser';

describe('security headers', () => {
  let fp: RunningFlagpole;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('says nosniff on API answers and errors alike', async () => {
    const answers = [
      await api.get('/api/v1/namespaces'),
      await api.get('/api/v1/namespaces/missing'),
      await api.post('/api/v1/namespaces', '{"key":'),
      await api.post('/evaluate/v1/boolean', { flagKey: 'f', entityId: 'e', context: {} }),
      await api.delete('/health'),
      await api.get('/no/such/route'),
      await api.get('/meta/info'),
      await api.get('/health'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 400, 404, 501, 404, 200, 200]);
    for (const r of answers) expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives the API explorer the UI’s content security policy, so no other site can frame it', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js', '/docs-json']) {
      const r = await api.get(path);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});

describe('/metrics with metrics.require_authentication', () => {
  it('needs a credential when switched on with authentication required', async () => {
    const fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_METRICS_REQUIRE_AUTHENTICATION: 'true' });
    try {
      const refused = await http(fp.url, 'GET', '/metrics');
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { code: 16, message: 'request was not authenticated', details: [] } });
      expect(refused.text).not.toContain('flagpole_');
      const scraped = await http(fp.url, 'GET', '/metrics', undefined, { authorization: `Bearer ${BOOTSTRAP}` });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    } finally {
      await fp.close();
    }
  });

  it('stays open by default, and without authentication required', async () => {
    for (const env of [TOKEN_REQUIRED, { FLAGPOLE_METRICS_REQUIRE_AUTHENTICATION: 'true' }]) {
      const fp = await startFlagpole(env);
      try {
        expect((await http(fp.url, 'GET', '/metrics')).status).toBe(200);
      } finally {
        await fp.close();
      }
    }
  });
});

describe('X-Forwarded-Prefix', () => {
  const CLIENT_ID = 'gh-client';
  const CLIENT_SECRET = 'gh-secret';
  let github: FakeGithub;
  let fp: RunningFlagpole;
  beforeAll(async () => {
    github = await startFakeGithub(CLIENT_ID, CLIENT_SECRET, [{ id: 1, login: 'octocat', name: 'The Octocat' }]);
    const file = join(mkdtempSync(join(tmpdir(), 'flagpole-prefix-')), 'config.yml');
    writeFileSync(file, `
authentication:
  required: true
  session:
    domain: localhost
  methods:
    github:
      enabled: true
      server_url: ${github.url}
      api_url: ${github.apiUrl}
      client_id: ${CLIENT_ID}
      client_secret: ${CLIENT_SECRET}
      redirect_address: https://flags.example.com
`);
    fp = await startFlagpole({ FLAGPOLE_CONFIG: file });
  });
  afterAll(async () => {
    await fp?.close();
    await github?.close();
  });

  /** The login through GitHub, every call with `prefix`: the listed URL, the state cookie's path, the redirect. */
  async function loginWith(prefix: string) {
    const headers = { 'x-forwarded-prefix': prefix };
    const listed = (await client(fp.url).get('/auth/v1/method', undefined, headers)).body.methods
      .find((m: { method: string }) => m.method === 'METHOD_GITHUB').metadata.authorize_url as string;
    const authorize = await client(fp.url).get('/auth/v1/method/github/authorize?state=s', undefined, headers);
    const stateCookie = setCookies(authorize)[0];
    const state = new URL(authorize.body.authorizeUrl).searchParams.get('state')!;
    const callback = await getWithoutRedirect(fp.url, `/auth/v1/method/github/callback?code=${github.issueCode('octocat')}&state=${state}`, {
      ...headers,
      cookie: stateCookie.split(';')[0],
    });
    return { listed, cookiePath: /; Path=([^;]*)/.exec(stateCookie)?.[1], status: callback.status, location: callback.headers.get('location') };
  }

  it('is followed when it is a plain path', async () => {
    expect(await loginWith('/flags')).toEqual({
      listed: '/flags/auth/v1/method/github/authorize',
      cookiePath: '/flags/auth/v1/method/github/callback',
      status: 302,
      location: '/flags/',
    });
  });

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example', '/flags; Domain=evil.example', '/flags/../..//evil', '/'])(
    'is ignored when it is not a plain path: %s',
    async (prefix) => {
      expect(await loginWith(prefix)).toEqual({
        listed: '/auth/v1/method/github/authorize',
        cookiePath: '/auth/v1/method/github/callback',
        status: 302,
        location: '/',
      });
    },
  );
});

browserDescribe('the API explorer under its content security policy', () => {
  it('still renders in a real browser, with nothing refused', async () => {
    const [fp, browser] = await Promise.all([startFlagpole(), launchBrowser()]);
    try {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
      await page.goto(`${fp.url}/docs`);
      const title = page.locator('.swagger-ui .info .title');
      await title.waitFor({ timeout: 15_000 });
      expect(await title.textContent()).toContain('Flagpole');
      // Operations rendered: the script ran, and its styles and images loaded.
      await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
      await fp.close();
    }
  });
});
