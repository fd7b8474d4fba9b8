/**
 * CSRF protection decides on the route a request reaches, not on how its path is spelled: every spelling Fastify
 * routes to a protected handler is refused alike (issue 15, item 3). Sent over raw sockets, so that the paths reach
 * the server exactly as written.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { head, RawConnection, statusOf } from './support/raw-http';

const SPELLINGS = ['/api/v1/namespaces', '//api/v1/namespaces', '/api//v1/namespaces', '/%61pi/v1/namespaces', '/api/v1/namespaces/', '/api/v1/%6eamespaces'];

async function post(base: string, path: string, body: object, headers: Record<string, string> = {}): Promise<{ status?: number; text: string }> {
  const payload = JSON.stringify(body);
  const c = new RawConnection(base);
  try {
    await c.connected();
    c.send(head('POST', path, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), connection: 'close', ...headers }) + payload);
    const text = await c.response(3_000);
    return { status: statusOf(text), text: text.slice(text.indexOf('\r\n\r\n') + 4) };
  } finally {
    c.destroy();
  }
}

describe('cross-origin protection, whatever the path spelling', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_AUTHENTICATION_SESSION_CSRF_KEY: 'any-value' });
  });
  afterAll(() => fp?.close());

  it.each(SPELLINGS)('reaches the namespace handler at %s', async (path) => {
    const key = `ns${SPELLINGS.indexOf(path)}`;
    expect(await post(fp.url, path, { key, name: key })).toMatchObject({ status: 200 });
    expect((await client(fp.url).get(`/api/v1/namespaces/${key}`)).status).toBe(200);
  });

  it.each(SPELLINGS)('refuses a cross-site POST to %s', async (path) => {
    const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    expect(await post(fp.url, path, { key: 'evil', name: 'evil' }, crossSite)).toEqual({
      status: 403,
      text: 'cross-origin request detected from Sec-Fetch-Site header\n',
    });
    const oldBrowser = { origin: 'https://evil.example' };
    expect((await post(fp.url, path, { key: 'evil', name: 'evil' }, oldBrowser)).status).toBe(403);
    expect((await client(fp.url).get('/api/v1/namespaces/evil')).status).toBe(404);
  });

  it('refuses the other spellings of an auth route too', async () => {
    for (const path of ['//auth/v1/method/token', '/%61uth/v1/method/token', '/auth//v1/method/token']) {
      const r = await post(fp.url, path, { name: 'x' }, { 'sec-fetch-site': 'cross-site' });
      expect({ path, status: r.status }).toEqual({ path, status: 403 });
    }
  });
});
