/** The `/auth/v1` API every configuration has: the method list, the caller's own authentication, and tokens. */
import { Inject, Injectable } from '@nestjs/common';
import { UnauthenticatedError, ValidationError } from '../common/errors';
import { AUTH_METHODS, AuthMethod, Method } from './auth-method';
import type { AuthenticationListResponse, ExpireSelfQuery, ListTokensQuery, MethodListResponse } from './auth.dto';
import { parseTimestamp } from '../common/timestamps';
import { AuthenticationStore } from './authentication.store';
import { toAuthenticationJson, type AuthenticationJson, type AuthenticationRecord } from './authentication.record';

@Injectable()
export class AuthService {
  constructor(
    @Inject(AUTH_METHODS) private readonly methods: AuthMethod[],
    private readonly store: AuthenticationStore,
  ) {}

  listMethods(prefix = ''): MethodListResponse {
    return {
      methods: this.methods.map((m) => ({
        method: Method[m.method],
        enabled: m.enabled,
        sessionCompatible: m.sessionCompatible,
        ...(m.info ? { metadata: m.info(prefix) } : {}),
      })),
    };
  }

  /** Without authentication in force (or found) there is no "self": 401, as Flipt answers. */
  self(authentication: AuthenticationRecord | undefined): AuthenticationJson {
    if (!authentication) throw new UnauthenticatedError();
    return toAuthenticationJson(authentication);
  }

  /**
   * Expires the caller's authentication now, or at `expiresAt`. A credential may only shorten its own life: Flipt
   * also lets it move the expiry later, which lets a stolen session or a service account outlive its lifetime.
   * JWTs: nothing stored.
   */
  async expireSelf(authentication: AuthenticationRecord | undefined, query: ExpireSelfQuery): Promise<void> {
    if (!authentication) throw new UnauthenticatedError();
    if (authentication.method === Method.METHOD_JWT || authentication.id === '') return;
    const at = query.expiresAt ? parseTimestamp(query.expiresAt, 'expiresAt') : new Date();
    const refused = await this.store.expireEarlier(authentication.id, at);
    if (refused) {
      throw new ValidationError('expiresAt', `must not be later than the current expiry ${refused.toISOString()}`);
    }
  }

  async list(query: ListTokensQuery): Promise<AuthenticationListResponse> {
    const page = await this.store.list({
      method: query.method ? (query.method as Method) : undefined,
      limit: query.limit,
      pageToken: query.pageToken,
    });
    return { authentications: page.authentications.map(toAuthenticationJson), nextPageToken: page.nextPageToken };
  }

  async get(id: string): Promise<AuthenticationJson> {
    return toAuthenticationJson(await this.store.get(id));
  }

  delete(id: string): Promise<void> {
    return this.store.delete(id);
  }
}
