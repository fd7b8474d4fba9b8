/**
 * Externally issued JWTs presented on every request as `Authorization: JWT <jwt>` (nothing is stored). Keys come
 * from `jwks_url` (fetched and refreshed by jose) or `public_key_file` (PEM). Verification follows Flipt's (hashicorp
 * cap): algorithms RS256, RS512, ES256, ES512 and EdDSA only (so never `none` or HMAC); `validate_claims.issuer`,
 * `.subject` and `.audiences` (any of them) when set; at least one of exp/nbf/iat, checked with 150 s leeway.
 * A signature check costs more than the rest of an evaluation, and clients send the same JWT until it expires: a
 * verified JWT is remembered (at most VERIFIED_MAX of them) until it expires, and for at most VERIFIED_MS, so a key
 * removed from the JWKS stops its JWTs within that time.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { UnauthenticatedError } from '../../../common/errors';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig, JwtMethodConfig } from '../../../config/config.types';
import { AuthMethod, Method } from '../../auth-method';
import type { AuthenticationRecord } from '../../authentication.record';
import { credentialOf, type CredentialRequest } from '../../credentials';

export const JWT_ALGORITHMS = ['RS256', 'RS512', 'ES256', 'ES512', 'EdDSA'];
export const JWT_LEEWAY_SECONDS = 150;

const VERIFIED_MS = 60_000;
const VERIFIED_MAX = 10_000;

const METADATA_PREFIX = 'io.flagpole.auth';
/** Fields of an object claim `user` and the metadata key each becomes. */
const USER_FIELDS: Array<[string, string]> = [
  ['email', 'email'],
  ['sub', 'sub'],
  ['image', 'picture'],
  ['name', 'name'],
  ['role', 'role'],
];

@Injectable()
export class JwtMethod implements AuthMethod, OnModuleInit {
  readonly name = 'jwt';
  readonly method = Method.METHOD_JWT;
  readonly sessionCompatible = false;
  readonly enabled: boolean;
  private readonly logger = new Logger('Authentication');
  private readonly config: JwtMethodConfig;
  private key?: KeyObject | JWTVerifyGetKey;
  /** Verified JWTs, by their text: the authentication and until when it may be served without verifying again. */
  private readonly verified = new Map<string, { authentication: AuthenticationRecord; until: number }>();

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    this.config = config.authentication.methods.jwt;
    this.enabled = this.config.enabled;
  }

  /** A public key file that cannot be read stops the start, as in Flipt. */
  onModuleInit(): void {
    if (!this.enabled) return;
    this.key = this.config.publicKeyFile
      ? createPublicKey(readFileSync(this.config.publicKeyFile))
      : createRemoteJWKSet(new URL(this.config.jwksUrl));
  }

  authenticate(request: CredentialRequest): AuthenticationRecord | null | Promise<AuthenticationRecord | null> {
    const credential = credentialOf(request, true);
    if (credential?.kind !== 'jwt') return null;
    const jwt = credential.value;
    const known = this.verified.get(jwt);
    if (known && Date.now() < known.until) return known.authentication;
    return this.verify(jwt).then((payload) => {
      const authentication: AuthenticationRecord = {
        id: '', method: Method.METHOD_JWT, expiresAt: null, createdAt: null, updatedAt: null, metadata: metadataOf(payload), claims: payload,
      };
      this.remember(jwt, authentication, payload);
      return authentication;
    });
  }

  private remember(jwt: string, authentication: AuthenticationRecord, payload: JWTPayload): void {
    const at = Date.now();
    const expires = payload.exp === undefined ? Infinity : (payload.exp + JWT_LEEWAY_SECONDS) * 1000;
    this.verified.delete(jwt);
    if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(jwt, { authentication, until: Math.min(expires, at + VERIFIED_MS) });
  }

  private async verify(jwt: string): Promise<JWTPayload> {
    const { issuer, subject, audiences } = this.config.validateClaims;
    try {
      const { payload } = await jwtVerify(jwt, this.key as JWTVerifyGetKey, {
        algorithms: JWT_ALGORITHMS,
        clockTolerance: JWT_LEEWAY_SECONDS,
        ...(issuer ? { issuer } : {}),
        ...(subject ? { subject } : {}),
        ...(audiences.length ? { audience: audiences } : {}),
      });
      checkTimeClaims(payload);
      return payload;
    } catch (e) {
      this.logger.debug(`unauthenticated: error validating jwt: ${(e as Error).message}`);
      throw new UnauthenticatedError();
    }
  }
}

/** What jose leaves to the caller: a JWT must carry some time claim, and must not be issued in the future. */
function checkTimeClaims(payload: JWTPayload): void {
  if (payload.exp === undefined && payload.nbf === undefined && payload.iat === undefined) {
    throw new Error('no exp, nbf or iat claim');
  }
  if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + JWT_LEEWAY_SECONDS) {
    throw new Error('"iat" claim is in the future');
  }
}

function metadataOf(payload: JWTPayload): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [claim, value] of Object.entries(payload)) {
    if (claim.startsWith(METADATA_PREFIX)) metadata[claim] = stringify(value);
  }
  if (payload.iss) metadata[`${METADATA_PREFIX}.jwt.issuer`] = payload.iss;
  const user = payload.user;
  if (user && typeof user === 'object' && !Array.isArray(user)) {
    for (const [field, key] of USER_FIELDS) {
      const value = (user as Record<string, unknown>)[field];
      if (value !== undefined && value !== null) metadata[`${METADATA_PREFIX}.jwt.${key}`] = stringify(value);
    }
  }
  return metadata;
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
