/**
 * A loopback stand-in for a Kubernetes API server's service-account issuer: HTTPS with a certificate from a CA made
 * here, `/.well-known/openid-configuration` and `/openid/v1/jwks` (both only for callers presenting the reader
 * token, as RBAC would demand), and service-account tokens signed with jose like the cluster's.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import * as selfsigned from 'selfsigned';

export const CLUSTER_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const READER_TOKEN = 'flagpole-reader-token';

export interface ServiceAccount {
  namespace: string;
  name: string;
  pod?: string;
  /** Seconds from now; negative = already expired. */
  expiresIn?: number;
}

export interface FakeCluster {
  url: string;
  caPath: string;
  tokenPath: string;
  /** Authorization headers the cluster received, in order. */
  seen: string[];
  token(sa: ServiceAccount, options?: { key?: KeyLike; kid?: string; issuer?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function makeCa(commonName: string) {
  return selfsigned.generate([{ name: 'commonName', value: commonName }], {
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
}

export async function startFakeCluster(dir: string): Promise<FakeCluster> {
  const ca = await makeCa('fake-cluster-ca');
  const tls = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  const caPath = join(dir, 'ca.crt');
  const tokenPath = join(dir, 'token');
  writeFileSync(caPath, ca.cert);
  writeFileSync(tokenPath, `${READER_TOKEN}\n`);

  const signer = await generateKeyPair('RS256');
  const kid = 'sa-key-1';
  const jwks = { keys: [{ ...(await exportJWK(signer.publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  const seen: string[] = [];
  let url = '';

  const server: Server = createServer({ key: tls.private, cert: tls.cert }, (req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${READER_TOKEN}`) {
      res.statusCode = 401;
      return res.end('{"kind":"Status","status":"Failure","code":401}');
    }
    if (req.url === '/.well-known/openid-configuration') {
      return res.end(JSON.stringify({
        issuer: CLUSTER_ISSUER,
        jwks_uri: `${url}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }));
    }
    if (req.url === '/openid/v1/jwks') return res.end(JSON.stringify(jwks));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    caPath,
    tokenPath,
    seen,
    async token(sa, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const pod = sa.pod ?? `${sa.name}-7d9f8-abcde`;
      return new SignJWT({
        'kubernetes.io': {
          namespace: sa.namespace,
          pod: { name: pod, uid: randomUUID() },
          serviceaccount: { name: sa.name, uid: randomUUID() },
        },
      })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid })
        .setIssuer(options.issuer ?? CLUSTER_ISSUER)
        .setSubject(`system:serviceaccount:${sa.namespace}:${sa.name}`)
        .setAudience([CLUSTER_ISSUER])
        .setIssuedAt(now - 10)
        .setNotBefore(now - 10)
        .setExpirationTime(now + (sa.expiresIn ?? 3600))
        .sign(options.key ?? signer.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
