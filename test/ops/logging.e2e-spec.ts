/**
 * Request logs: one JSON line per request with method, route, path, status and duration, and never a credential —
 * not the Authorization header, not the session cookie, not a query string, not a body.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';

const SECRETS = ['Bearer-secret-token-value', 'cookie-secret-token-value', 'oauth-code-secret-value', 'body-secret-token-value'];

describe('request logs', () => {
  let fp: RunningFlagpole;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagpole-log-'));
    file = join(dir, 'logs', 'flagpole.log');
    fp = await startFlagpole({ FLAGPOLE_LOG_LEVEL: 'INFO', FLAGPOLE_LOG_ENCODING: 'json', FLAGPOLE_LOG_FILE: file });
  });
  afterAll(async () => {
    await fp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs method, route, path, status and duration, and nothing secret', async () => {
    const api = client(fp.url);
    await api.post('/api/v1/namespaces/default/flags', { key: 'f', name: 'F', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    await api.post(
      `/evaluate/v1/boolean?code=${SECRETS[2]}`,
      { flagKey: 'f', entityId: 'u', context: { token: SECRETS[3] } },
      { authorization: `Bearer ${SECRETS[0]}`, cookie: `flagpole_client_token=${SECRETS[1]}` },
    );
    await api.get('/api/v1/namespaces/default/flags/f', undefined, { authorization: `Bearer ${SECRETS[0]}` });
    await api.get('/health');
    await api.get('/no/such/path');

    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.context === 'HTTP');
    expect(requests.map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'POST /api/v1/namespaces/default/flags 200',
      'POST /evaluate/v1/boolean 200',
      'GET /api/v1/namespaces/default/flags/f 200',
      'GET /no/such/path 404',
    ]); // a successful health probe is not logged
    expect(requests[1]).toMatchObject({ L: 'INFO', route: '/evaluate/v1/boolean', M: expect.stringMatching(/^POST \/evaluate\/v1\/boolean 200 [\d.]+ms$/) });
    expect(requests[2].route).toMatch(/^\/api\/v1\/namespaces\/:\w+\/flags\/:\w+$/);
    expect(requests[3].route).toBeNull();
    for (const l of requests) expect(typeof l.durationMs).toBe('number');
    const all = readFileSync(file, 'utf8');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    expect(all.toLowerCase()).not.toContain('authorization');
    expect(all.toLowerCase()).not.toContain('cookie');
  });

  it('logs a wrong method (501 Method Not Allowed, client noise) at INFO, not as a server error', async () => {
    const r = await client(fp.url).patch('/api/v1/namespaces');
    expect(r.status).toBe(501);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.context === 'HTTP' && l.status === 501)).toEqual([
      expect.objectContaining({ L: 'INFO', method: 'PATCH', path: '/api/v1/namespaces' }),
    ]);
  });
});
