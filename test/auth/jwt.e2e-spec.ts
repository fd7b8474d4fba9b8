/**
 * The JWT method: `Authorization: JWT <jwt>` verified with keys from `public_key_file` or a loopback `jwks_url`, made
 * by jose; every refusal Flipt's validator makes.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, bearer, expectUnauthenticated } from './support';

const ISSUER = 'https://issuer.flagpole.test';
const now = () => Math.floor(Date.now() / 1000);

async function sign(key: KeyLike, alg: string, claims: JWTPayload, kid?: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, ...(kid ? { kid } : {}) }).sign(key);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const jwtHeader = (jwt: string) => ({ authorization: `JWT ${jwt}` });

describe('JWT method with public_key_file', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let rsa: { privateKey: KeyLike; publicKey: KeyLike };
  let publicPem: string;
  const valid = (extra: JWTPayload = {}): JWTPayload => ({ iss: ISSUER, aud: 'flagpole', sub: 'ci', iat: now(), exp: now() + 600, ...extra });

  beforeAll(async () => {
    rsa = await generateKeyPair('RS256');
    publicPem = await exportSPKI(rsa.publicKey);
    const file = join(mkdtempSync(join(tmpdir(), 'flagpole-jwt-')), 'key.pem');
    writeFileSync(file, publicPem);
    fp = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE: file,
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_ISSUER: ISSUER,
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_AUDIENCES: 'flagpole other-audience',
    });
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  it('accepts a valid JWT and describes it as Flipt does', async () => {
    const jwt = await sign(rsa.privateKey, 'RS256', valid({
      'io.flagpole.auth.role': 'admin',
      'io.flagpole.auth.level': 3,
      user: { email: 'ada@example.com', sub: 'u1', image: 'https://img/a.png', name: 'Ada', role: 'editor' },
    }));
    expect((await api.get('/api/v1/namespaces', undefined, jwtHeader(jwt))).status).toBe(200);
    const self = await api.get('/auth/v1/self', undefined, jwtHeader(jwt));
    expect(self.body).toEqual({
      id: '',
      method: 'METHOD_JWT',
      metadata: {
        'io.flagpole.auth.role': 'admin',
        'io.flagpole.auth.level': '3',
        'io.flagpole.auth.jwt.issuer': ISSUER,
        'io.flagpole.auth.jwt.email': 'ada@example.com',
        'io.flagpole.auth.jwt.sub': 'u1',
        'io.flagpole.auth.jwt.picture': 'https://img/a.png',
        'io.flagpole.auth.jwt.name': 'Ada',
        'io.flagpole.auth.jwt.role': 'editor',
      },
    });
    // Any one of the configured audiences will do.
    const other = await sign(rsa.privateKey, 'RS256', valid({ aud: ['x', 'other-audience'] }));
    expect((await api.get('/api/v1/namespaces', undefined, jwtHeader(other))).status).toBe(200);
    // Expiring it changes nothing: there is nothing stored.
    expect((await api.put('/auth/v1/self/expire', undefined, jwtHeader(jwt))).status).toBe(200);
    expect((await api.get('/auth/v1/self', undefined, jwtHeader(jwt))).status).toBe(200);
  });

  it('accepts a JWT with only one time claim', async () => {
    for (const claims of [{ exp: now() + 60 }, { nbf: now() - 60 }, { iat: now() }]) {
      const jwt = await sign(rsa.privateKey, 'RS256', { iss: ISSUER, aud: 'flagpole', ...claims });
      expect((await api.get('/api/v1/namespaces', undefined, jwtHeader(jwt))).status).toBe(200);
    }
  });

  it('refuses alg none', async () => {
    const unsecured = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(valid())}.`;
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(unsecured)));
  });

  it('refuses a wrong signature, another key, and HMAC made with the public key', async () => {
    const other = await generateKeyPair('RS256');
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(await sign(other.privateKey, 'RS256', valid()))));
    const jwt = await sign(rsa.privateKey, 'RS256', valid());
    const [h, p, s] = jwt.split('.');
    const tampered = `${h}.${b64({ ...valid(), sub: 'root' })}.${s}`;
    expect(tampered).not.toBe(`${h}.${p}.${s}`);
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(tampered)));
    const head = b64({ alg: 'HS256', typ: 'JWT' });
    const body = b64(valid());
    const mac = createHmac('sha256', publicPem).update(`${head}.${body}`).digest('base64url');
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(`${head}.${body}.${mac}`)));
  });

  it.each([
    ['expired', { exp: now() - 3600 }],
    ['not yet valid', { nbf: now() + 3600 }],
    ['issued in the future', { iat: now() + 3600 }],
    ['of another issuer', { iss: 'https://evil.example' }],
    ['without issuer', { iss: undefined }],
    ['for another audience', { aud: 'someone-else' }],
    ['without audience', { aud: undefined }],
    ['without any time claim', { iat: undefined, exp: undefined }],
  ])('refuses a JWT %s', async (_, change) => {
    const claims = valid(change as JWTPayload);
    for (const k of Object.keys(claims)) if (claims[k] === undefined) delete claims[k];
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(await sign(rsa.privateKey, 'RS256', claims))));
  });

  it('takes JWTs only with the JWT scheme: as a Bearer token it is an unknown client token', async () => {
    const jwt = await sign(rsa.privateKey, 'RS256', valid());
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, bearer(jwt)));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { authorization: `jwt ${jwt}` }));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, { authorization: 'JWT ' }));
  });

  it('is listed as enabled and not session compatible', async () => {
    const methods = (await api.get('/auth/v1/method')).body.methods;
    expect(methods[4]).toEqual({ method: 'METHOD_JWT', enabled: true, sessionCompatible: false });
  });
});

describe('JWT method with jwks_url', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let jwks: Server;
  let fetches = 0;
  const keys: Record<string, { privateKey: KeyLike; publicKey: KeyLike; alg: string }> = {};

  beforeAll(async () => {
    for (const [kid, alg] of [['rsa-1', 'RS512'], ['ec-1', 'ES256'], ['ed-1', 'EdDSA'], ['ec-512', 'ES512']]) {
      keys[kid] = { ...(await generateKeyPair(alg, { crv: alg === 'EdDSA' ? 'Ed25519' : undefined })), alg };
    }
    const published = await Promise.all(
      Object.entries(keys).map(async ([kid, k]) => ({ ...(await exportJWK(k.publicKey)), kid, alg: k.alg, use: 'sig' })),
    );
    jwks = createServer((req, res) => {
      fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    fp = await startFlagpole({
      FLAGPOLE_AUTHENTICATION_REQUIRED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_ENABLED: 'true',
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
      FLAGPOLE_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_SUBJECT: 'service-a',
    });
    api = client(fp.url);
  });
  afterAll(async () => {
    await fp?.close();
    jwks?.close();
  });

  it('accepts every algorithm Flipt accepts, with the key the kid names', async () => {
    for (const [kid, k] of Object.entries(keys)) {
      const jwt = await sign(k.privateKey, k.alg, { sub: 'service-a', exp: now() + 60 }, kid);
      expect({ kid, status: (await api.get('/api/v1/namespaces', undefined, jwtHeader(jwt))).status }).toEqual({ kid, status: 200 });
    }
    expect(fetches).toBeGreaterThanOrEqual(1);
  });

  it('refuses another subject, an unknown key, and a key that signs for another kid', async () => {
    const k = keys['ec-1'];
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(await sign(k.privateKey, 'ES256', { sub: 'service-b', exp: now() + 60 }, 'ec-1'))));
    const stranger = await generateKeyPair('ES256');
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(await sign(stranger.privateKey, 'ES256', { sub: 'service-a', exp: now() + 60 }, 'ec-1'))));
    expectUnauthenticated(await api.get('/api/v1/namespaces', undefined, jwtHeader(await sign(stranger.privateKey, 'ES256', { sub: 'service-a', exp: now() + 60 }, 'nope'))));
  });
});
