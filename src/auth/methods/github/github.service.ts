/**
 * GitHub login as Flipt does it: the OAuth web flow against `server_url` (the code exchange by openid-client's plain
 * OAuth 2.0 client), then the user from `api_url`, and with scope `read:org` their organizations and teams, which
 * `allowed_organizations` / `allowed_teams` may require. The session lives `session.token_lifetime`.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Issuer, type BaseClient } from 'openid-client';
import { UnauthenticatedError } from '../../../common/errors';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig, GithubMethodConfig } from '../../../config/config.types';
import { Method } from '../../auth-method';
import { AuthenticationStore } from '../../authentication.store';
import { toAuthenticationJson, type AuthenticationJson } from '../../authentication.record';
import { checkLoginState, newLoginState } from '../../login-state';
import type { CallbackQuery } from '../../login.dto';
import { GITHUB_PATH } from './github.method';

const API_TIMEOUT_MS = 5_000;
const PREFIX = 'io.flagpole.auth';

interface GithubUser {
  id?: number;
  login?: string;
  name?: string | null;
  email?: string | null;
  avatar_url?: string | null;
}

interface GithubTeam {
  slug: string;
  organization: { login: string };
}

export interface GithubLogin {
  clientToken: string;
  authentication: AuthenticationJson;
}

@Injectable()
export class GithubService {
  private readonly config: GithubMethodConfig;
  private readonly tokenLifetime: number;
  private readonly client: BaseClient;
  private readonly redirectUri: string;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly store: AuthenticationStore,
  ) {
    this.config = config.authentication.methods.github;
    this.tokenLifetime = config.authentication.session.tokenLifetime;
    const server = this.config.serverUrl.replace(/\/+$/, '');
    this.redirectUri = `${this.config.redirectAddress.replace(/\/+$/, '')}${GITHUB_PATH}/callback`;
    const issuer = new Issuer({
      issuer: server,
      authorization_endpoint: `${server}/login/oauth/authorize`,
      token_endpoint: `${server}/login/oauth/access_token`,
    });
    this.client = new issuer.Client({
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
      redirect_uris: [this.redirectUri],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
  }

  authorize(originalState: string): { state: string; authorizeUrl: string } {
    const state = newLoginState(originalState);
    const authorizeUrl = this.client.authorizationUrl({
      // openid-client would ask for `openid`, which GitHub does not know.
      scope: this.config.scopes.length ? this.config.scopes.join(' ') : undefined,
      state,
      redirect_uri: this.redirectUri,
    });
    return { state, authorizeUrl };
  }

  async callback(query: CallbackQuery, stateCookie: string | undefined): Promise<GithubLogin> {
    const state = checkLoginState(query.state, stateCookie, 'GitHub');
    let accessToken: string;
    try {
      const tokens = await this.client.oauthCallback(
        this.redirectUri,
        { code: query.code, state, ...(query.error ? { error: query.error, error_description: query.errorDescription } : {}) },
        { state },
      );
      // GitHub reports a bad code with status 200 and an `error` field.
      const error = tokens.error as string | undefined;
      if (error) throw new Error(`${error}: ${String(tokens.error_description ?? '')}`);
      if (!tokens.access_token) throw new Error('no access token in the response');
      accessToken = tokens.access_token;
    } catch (e) {
      throw new UnauthenticatedError(`handling GitHub callback: ${(e as Error).message}`);
    }
    const metadata = await this.metadataOf(accessToken);
    const expiresAt = new Date(Date.now() + this.tokenLifetime);
    const created = await this.store.create({ method: Method.METHOD_GITHUB, metadata, expiresAt });
    return { clientToken: created.clientToken, authentication: toAuthenticationJson(created.authentication) };
  }

  private async metadataOf(accessToken: string): Promise<Record<string, string>> {
    const user = await this.api<GithubUser>('/user', accessToken);
    const metadata: Record<string, string> = {};
    const put = (key: string, value: unknown) => {
      if (value !== undefined && value !== null && value !== '') metadata[key] = String(value);
    };
    put(`${PREFIX}.github.name`, user.name);
    put(`${PREFIX}.github.email`, user.email);
    put(`${PREFIX}.github.picture`, user.avatar_url);
    put(`${PREFIX}.github.sub`, user.id);
    put(`${PREFIX}.github.preferred_username`, user.login);
    put(`${PREFIX}.email`, user.email);
    put(`${PREFIX}.name`, user.name);
    put(`${PREFIX}.picture`, user.avatar_url);
    if (this.config.scopes.includes('read:org')) Object.assign(metadata, await this.membership(accessToken));
    return metadata;
  }

  /** The user's organizations and teams, filtered by (and checked against) the allow-lists. */
  private async membership(accessToken: string): Promise<Record<string, string>> {
    const { allowedOrganizations, allowedTeams } = this.config;
    const [orgs, teams] = await Promise.all([
      this.api<Array<{ login: string }>>('/user/orgs', accessToken),
      this.api<GithubTeam[]>('/user/teams?per_page=100', accessToken),
    ]);
    const userOrgs = orgs.map((o) => o.login);
    const teamsByOrg = new Map<string, string[]>();
    for (const t of teams) {
      const org = t.organization.login.toLowerCase();
      teamsByOrg.set(org, [...(teamsByOrg.get(org) ?? []), t.slug]);
    }
    const member = (org: string) => userOrgs.some((o) => o.toLowerCase() === org.toLowerCase());
    const inAllowedTeam = (org: string) => {
      const allowed = allowedTeams[org];
      if (!allowed || allowed.length === 0) return true;
      return (teamsByOrg.get(org.toLowerCase()) ?? []).some((slug) => allowed.includes(slug));
    };
    let visibleOrgs = userOrgs;
    if (allowedOrganizations.length) {
      visibleOrgs = allowedOrganizations.filter((org) => member(org) && inAllowedTeam(org));
      if (visibleOrgs.length === 0) throw new UnauthenticatedError();
    }
    const visibleTeams: Record<string, string[]> = {};
    for (const org of visibleOrgs) {
      const slugs = (teamsByOrg.get(org.toLowerCase()) ?? []).filter((s) => !allowedTeams[org]?.length || allowedTeams[org].includes(s));
      if (slugs.length) visibleTeams[org] = slugs;
    }
    return {
      [`${PREFIX}.github.organizations`]: JSON.stringify(visibleOrgs),
      [`${PREFIX}.github.teams`]: JSON.stringify(visibleTeams),
    };
  }

  private async api<T>(path: string, accessToken: string): Promise<T> {
    const url = `${this.config.apiUrl.replace(/\/+$/, '')}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json' },
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
    } catch (e) {
      throw new UnauthenticatedError(`handling GitHub callback: GET ${path}: ${(e as Error).message}`);
    }
    if (!res.ok) throw new UnauthenticatedError(`handling GitHub callback: GET ${path}: ${res.status}`);
    return (await res.json()) as T;
  }
}
