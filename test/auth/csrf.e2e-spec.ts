/** Cross-origin (CSRF) protection, on when `authentication.session.csrf.key` is set (Go's CrossOriginProtection). */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import type { Api } from './support';

describe('cross-origin protection', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const ns = (key: string) => ({ key, name: key });
  beforeAll(async () => {
    fp = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_SESSION_CSRF_KEY: 'any-value',
      FLAGPOLE_AUTHENTICATION_SESSION_CSRF_TRUSTED_ORIGINS: 'https://admin.example.com',
    });
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('refuses unsafe cross-site browser requests with Go’s plain-text 403', async () => {
    const r = await api.post('/api/v1/namespaces', ns('a'), { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('cross-origin request detected from Sec-Fetch-Site header\n');
    const old = await api.delete('/auth/v1/tokens/x', undefined, { origin: 'https://evil.example' });
    expect(old.status).toBe(403);
    expect(old.text).toBe('cross-origin request detected, and/or browser is out of date: Sec-Fetch-Site is missing, and Origin does not match Host\n');
    expect((await api.get('/api/v1/namespaces/a')).status).toBe(404);
  });

  it('lets same-origin, trusted-origin, non-browser and safe requests through', async () => {
    expect((await api.post('/api/v1/namespaces', ns('b'), { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await api.post('/api/v1/namespaces', ns('c'), { 'sec-fetch-site': 'cross-site', origin: 'https://admin.example.com' })).status).toBe(200);
    expect((await api.post('/api/v1/namespaces', ns('d'))).status).toBe(200);
    expect((await api.post('/api/v1/namespaces', ns('e'), { origin: fp.url })).status).toBe(200);
    expect((await api.get('/api/v1/namespaces', undefined, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).status).toBe(200);
  });

  it('is off without a key', async () => {
    const open = await startFlagpole();
    try {
      const r = await client(open.url).post('/api/v1/namespaces', ns('x'), { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
      expect(r.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
