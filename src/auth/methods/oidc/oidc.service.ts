/**
 * OpenID Connect login through the configured providers, with openid-client: discovery (once per provider, again
 * after a failure), the authorization URL (scopes with `openid`, a nonce of this login, PKCE S256 when `use_pkce`),
 * and the callback (the state checked against its cookie, code exchange, ID token verification — RS256 only, as
 * Flipt, and its `nonce` claim — and a session authentication that lives `session.token_lifetime`).
 *
 * Nonce and PKCE without server-side storage: both are HMACs of the login state (64 random bytes inside) under the
 * provider's client secret, so each login has its own, any instance can recompute them at the callback and nobody
 * without the secret can. The nonce binds the ID token to the browser that started the login: a code from the
 * attacker's own login, brought to the victim's callback with the victim's state, carries the wrong nonce. (Flipt
 * sends the constant configured `nonce`, default `static`, which binds nothing; that key is now ignored. Flipt also
 * keeps one PKCE verifier per process, which breaks when the callback reaches another instance.)
 */
import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { generators, Issuer, type BaseClient, type IdTokenClaims } from 'openid-client';
import { NotFoundError, UnauthenticatedError } from '../../../common/errors';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig, OidcProviderConfig } from '../../../config/config.types';
import { Method } from '../../auth-method';
import { AuthenticationStore } from '../../authentication.store';
import { toAuthenticationJson, type AuthenticationJson } from '../../authentication.record';
import { checkLoginState, newLoginState } from '../../login-state';
import type { CallbackQuery } from '../../login.dto';
import { OIDC_PATH, OidcMethod } from './oidc.method';

export interface OidcLogin {
  clientToken: string;
  authentication: AuthenticationJson;
}

@Injectable()
export class OidcService {
  private readonly providers: Record<string, OidcProviderConfig>;
  private readonly tokenLifetime: number;
  private readonly clients = new Map<string, Promise<BaseClient>>();

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly store: AuthenticationStore,
    private readonly method: OidcMethod,
  ) {
    this.providers = config.authentication.methods.oidc.providers;
    this.tokenLifetime = config.authentication.session.tokenLifetime;
  }

  async authorize(provider: string, originalState: string): Promise<{ state: string; authorizeUrl: string }> {
    const { config, client } = await this.provider(provider, 'authorize');
    const state = newLoginState(originalState);
    const scope = [...new Set(['openid', ...config.scopes])].join(' ');
    const authorizeUrl = client.authorizationUrl({
      scope,
      state,
      nonce: nonceOf(config, state),
      redirect_uri: redirectUri(config, provider),
      ...(config.usePKCE ? { code_challenge: generators.codeChallenge(verifierOf(config, state)), code_challenge_method: 'S256' } : {}),
    });
    return { state, authorizeUrl };
  }

  async callback(provider: string, query: CallbackQuery, stateCookie: string | undefined): Promise<OidcLogin> {
    const state = checkLoginState(query.state, stateCookie, 'OIDC');
    const { config, client } = await this.provider(provider, 'callback');
    let claims: IdTokenClaims;
    try {
      const tokens = await client.callback(
        redirectUri(config, provider),
        {
          code: query.code,
          state,
          ...(query.iss ? { iss: query.iss } : {}),
          ...(query.error ? { error: query.error, error_description: query.errorDescription } : {}),
        },
        {
          state,
          nonce: nonceOf(config, state),
          response_type: 'code',
          ...(config.usePKCE ? { code_verifier: verifierOf(config, state) } : {}),
        },
      );
      claims = tokens.claims();
    } catch (e) {
      throw new UnauthenticatedError(`handling OIDC callback: ${(e as Error).message}`);
    }
    const metadata = metadataOf(provider, claims);
    const expiresAt = new Date(Date.now() + this.tokenLifetime);
    const candidate = { id: '', method: Method.METHOD_OIDC, expiresAt, createdAt: null, updatedAt: null, metadata };
    // Flipt creates the session and then refuses each request; refusing at once creates nothing useless.
    if (!this.method.admits(candidate)) throw new UnauthenticatedError();
    const created = await this.store.create({ method: Method.METHOD_OIDC, metadata, expiresAt });
    return { clientToken: created.clientToken, authentication: toAuthenticationJson(created.authentication) };
  }

  private async provider(name: string, step: string): Promise<{ config: OidcProviderConfig; client: BaseClient }> {
    const config = Object.prototype.hasOwnProperty.call(this.providers, name) ? this.providers[name] : undefined;
    if (!config) throw new NotFoundError(`${step}: requested provider ${JSON.stringify(name)}: provider not found`);
    let client = this.clients.get(name);
    if (!client) {
      client = discover(config, redirectUri(config, name));
      this.clients.set(name, client);
      client.catch(() => this.clients.delete(name));
    }
    try {
      return { config, client: await client };
    } catch (e) {
      throw new UnauthenticatedError(`${step}: provider ${JSON.stringify(name)} is unreachable: ${(e as Error).message}`);
    }
  }
}

async function discover(config: OidcProviderConfig, redirect: string): Promise<BaseClient> {
  const issuer = await Issuer.discover(config.issuerURL);
  return new issuer.Client({
    client_id: config.clientId,
    client_secret: config.clientSecret,
    redirect_uris: [redirect],
    response_types: ['code'],
    id_token_signed_response_alg: 'RS256',
  });
}

function redirectUri(config: OidcProviderConfig, provider: string): string {
  return `${config.redirectAddress.replace(/\/+$/, '')}${OIDC_PATH}/${provider}/callback`;
}

function verifierOf(config: OidcProviderConfig, state: string): string {
  return createHmac('sha256', config.clientSecret).update(`pkce:${state}`).digest('base64url');
}

function nonceOf(config: OidcProviderConfig, state: string): string {
  return createHmac('sha256', config.clientSecret).update(`nonce:${state}`).digest('base64url');
}

const PREFIX = 'io.flagpole.auth';

function metadataOf(provider: string, claims: IdTokenClaims): Record<string, string> {
  const metadata: Record<string, string> = {
    [`${PREFIX}.oidc.provider`]: provider,
    [`${PREFIX}.claims`]: JSON.stringify(claims),
  };
  for (const field of ['email', 'name', 'profile', 'picture', 'sub'] as const) {
    const value = claims[field];
    if (typeof value === 'string' && value !== '') metadata[`${PREFIX}.oidc.${field}`] = value;
  }
  if (typeof claims.email_verified === 'boolean') metadata[`${PREFIX}.oidc.email_verified`] = String(claims.email_verified);
  for (const field of ['email', 'name', 'picture'] as const) {
    const value = metadata[`${PREFIX}.oidc.${field}`];
    if (value) metadata[`${PREFIX}.${field}`] = value;
  }
  return metadata;
}
