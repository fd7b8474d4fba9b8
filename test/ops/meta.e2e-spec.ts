/** `/meta/info` and `/meta/config` as Flipt serves them (facts §2.5, §13.1). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';

const BOOTSTRAP = 'bootstrap-secret-value-1234';

function keysDeep(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysDeep(v, out);
    }
  }
  return out;
}

describe('meta', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
      FLAGPOLE_CACHE_REDIS_PASSWORD: 'redis-secret-value',
    });
  });
  afterAll(() => fp?.close());

  it('GET /meta/info: version, build, platform, authentication and storage', async () => {
    const r = await client(fp.url).get('/meta/info');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(r.body).toMatchObject({
      version: pkg.version,
      nodeVersion: process.version,
      updateAvailable: false,
      isRelease: true,
      os: 'linux',
      arch: process.arch === 'x64' ? 'amd64' : process.arch,
      authentication: { required: false },
      storage: { type: 'database' },
    });
    expect(r.body.version).not.toBe('');
  });

  it('GET /meta/config: the effective configuration with Flipt names and no secret', async () => {
    const r = await client(fp.url).get('/meta/config');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    for (const section of ['log', 'ui', 'authentication', 'audit', 'cache', 'cors', 'server', 'storage', 'db', 'tracing']) {
      expect(r.body[section]).toBeDefined();
    }
    expect(r.body.server).toMatchObject({ host: '127.0.0.1', protocol: 'http', httpPort: 8080 }); // grpcPort 0 is left out (omitempty)
    expect(keysDeep(r.body)).not.toContain('password');
    expect(r.text).not.toContain(BOOTSTRAP);
    expect(r.text).not.toContain('redis-secret-value');
    expect(r.text).not.toContain('flagpole.db'); // db.url is never shown
  });

  it('requires authentication when it is required, as in Flipt', async () => {
    const secured = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: BOOTSTRAP,
    });
    try {
      const api = client(secured.url);
      expect((await api.get('/meta/info')).status).toBe(401);
      const ok = await api.get('/meta/info', undefined, { authorization: `Bearer ${BOOTSTRAP}` });
      expect(ok).toMatchObject({ status: 200, body: { authentication: { required: true } } });
    } finally {
      await secured.close();
    }
  });
});
