import { Injectable } from '@nestjs/common';
import { Method } from '../../auth-method';
import { parseTimestamp } from '../../auth.dto';
import { AuthenticationStore } from '../../authentication.store';
import { toAuthenticationJson } from '../../authentication.record';
import type { CreateTokenRequest, CreateTokenResponse } from './token.dto';
import { TOKEN_DESCRIPTION, TOKEN_NAME, TOKEN_NAMESPACE } from './token.metadata';

@Injectable()
export class TokenService {
  constructor(private readonly store: AuthenticationStore) {}

  /** Flipt stores the request's metadata plus the name (always), description and namespace (when non-empty). */
  async create(req: CreateTokenRequest): Promise<CreateTokenResponse> {
    const metadata: Record<string, string> = { ...(req.metadata ?? {}), [TOKEN_NAME]: req.name ?? '' };
    if (req.description) metadata[TOKEN_DESCRIPTION] = req.description;
    if (req.namespaceKey) metadata[TOKEN_NAMESPACE] = req.namespaceKey;
    const expiresAt = req.expiresAt ? parseTimestamp(req.expiresAt, 'expiresAt') : null;
    const created = await this.store.create({ method: Method.METHOD_TOKEN, metadata, expiresAt });
    return { clientToken: created.clientToken, authentication: toAuthenticationJson(created.authentication) };
  }
}
