/**
 * The cluster's service-account issuer as Flipt reaches it: `<discovery_url>/.well-known/openid-configuration`, then its
 * `jwks_uri`, both over HTTPS trusting only `ca_path` and carrying Flagpole's own service-account token (read anew
 * for every fetch: projected tokens rotate). The issuer named by the document is the one tokens must carry (the
 * discovery URL itself may differ, as in-cluster it usually does). Keys are fetched again when a token names one
 * not seen yet (at most every REFRESH_MS) and after MAX_AGE_MS.
 */
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { KubernetesMethodConfig } from '../../../config/config.types';

const REFRESH_MS = 10_000;
const MAX_AGE_MS = 60 * 60_000;
const TIMEOUT_MS = 10_000;

export interface ClusterIssuer {
  issuer: string;
  algorithms: string[];
  keys: JWTVerifyGetKey;
  knows(kid: string | undefined): boolean;
}

export class ClusterKeys {
  private readonly agent: Agent;
  private current?: { issuer: ClusterIssuer; fetchedAt: number };
  private pending?: Promise<ClusterIssuer>;

  /** Reads the CA at once: a missing CA file stops the start, as in Flipt. */
  constructor(private readonly config: KubernetesMethodConfig) {
    this.agent = new Agent({ ca: readFileSync(config.caPath) });
  }

  /** The issuer and its keys; `kid` of the token at hand, to fetch again when the keys do not know it yet. */
  async get(kid?: string): Promise<ClusterIssuer> {
    const c = this.current;
    const age = c ? Date.now() - c.fetchedAt : Infinity;
    if (c && age < MAX_AGE_MS && (c.issuer.knows(kid) || age < REFRESH_MS)) return c.issuer;
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(): Promise<ClusterIssuer> {
    const base = this.config.discoveryURL.replace(/\/+$/, '');
    const discovery = (await this.getJson(`${base}/.well-known/openid-configuration`)) as {
      issuer?: unknown;
      jwks_uri?: unknown;
      id_token_signing_alg_values_supported?: unknown;
    };
    if (typeof discovery.issuer !== 'string' || typeof discovery.jwks_uri !== 'string') {
      throw new Error('discovery document has no issuer or jwks_uri');
    }
    const jwks = (await this.getJson(discovery.jwks_uri)) as JSONWebKeySet;
    if (!Array.isArray(jwks?.keys)) throw new Error('JWKS has no keys');
    const kids = new Set(jwks.keys.map((k) => k.kid));
    const algs = discovery.id_token_signing_alg_values_supported;
    const issuer: ClusterIssuer = {
      issuer: discovery.issuer,
      algorithms: Array.isArray(algs) && algs.every((a) => typeof a === 'string') ? algs : ['RS256'],
      keys: createLocalJWKSet(jwks),
      knows: (kid) => kid === undefined || kids.has(kid),
    };
    this.current = { issuer, fetchedAt: Date.now() };
    return issuer;
  }

  private getJson(url: string): Promise<unknown> {
    const token = readFileSync(this.config.serviceAccountTokenPath, 'utf8').trim();
    const secure = url.startsWith('https:');
    return new Promise((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'GET',
          ...(secure ? { agent: this.agent } : {}),
          headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          timeout: TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
            try {
              resolve(JSON.parse(body));
            } catch {
              reject(new Error(`GET ${url}: not JSON`));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`GET ${url}: timed out`)));
      req.on('error', reject);
      req.end();
    });
  }
}
