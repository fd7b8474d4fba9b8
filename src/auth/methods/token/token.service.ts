import { Injectable, Logger } from '@nestjs/common';
import { Authorizer } from '../../../authorization/authorizer.service';
import { credentialLabel } from '../../../authorization/credential-label';
import { PermissionDeniedError } from '../../../common/errors';
import { Method } from '../../auth-method';
import { parseTimestamp } from '../../../common/timestamps';
import { AuthenticationStore } from '../../authentication.store';
import { toAuthenticationJson, type AuthenticationRecord } from '../../authentication.record';
import type { CreateTokenRequest, CreateTokenResponse } from './token.dto';
import { TOKEN_DESCRIPTION, TOKEN_NAME, TOKEN_NAMESPACE } from './token.metadata';

@Injectable()
export class TokenService {
  private readonly logger = new Logger('Authorization');

  constructor(
    private readonly store: AuthenticationStore,
    private readonly authorizer: Authorizer,
  ) {}

  /** Flipt stores the request's metadata plus the name (always), description and namespace (when non-empty). */
  async create(req: CreateTokenRequest, creator?: AuthenticationRecord): Promise<CreateTokenResponse> {
    const metadata: Record<string, string> = { ...(req.metadata ?? {}), [TOKEN_NAME]: req.name ?? '' };
    if (req.description) metadata[TOKEN_DESCRIPTION] = req.description;
    if (req.namespaceKey) metadata[TOKEN_NAMESPACE] = req.namespaceKey;
    if (creator) this.checkDelegation(creator, metadata);
    const expiresAt = req.expiresAt ? parseTimestamp(req.expiresAt, 'expiresAt') : null;
    const created = await this.store.create({ method: Method.METHOD_TOKEN, metadata, expiresAt });
    return { clientToken: created.clientToken, authentication: toAuthenticationJson(created.authentication) };
  }

  /**
   * With authorization on, a token cannot hold more than its creator: the roles its metadata binds it to (a namespaced
   * token only counts in its namespace) must allow nothing the creator's roles do not.
   */
  private checkDelegation(creator: AuthenticationRecord, metadata: Record<string, string>): void {
    if (!this.authorizer.enabled) return;
    const granted = this.authorizer.grantOf({ method: Method.METHOD_TOKEN, metadata });
    const namespace = metadata[TOKEN_NAMESPACE]?.trim() || null;
    const held = this.authorizer.grantOf(creator);
    if (held.covers(granted, namespace)) return;
    this.logger.warn(`denied: ${credentialLabel(creator, held.roles)} may not create a token with roles ${granted.roles.join(', ') || 'none'}${namespace ? ` in namespace ${JSON.stringify(namespace)}` : ''}`);
    throw new PermissionDeniedError(`permission denied: the token's roles (${granted.roles.join(', ') || 'none'}) allow more than yours`);
  }
}
