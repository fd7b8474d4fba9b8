/** What a caller may do, for `GET /auth/v1/self/permissions`: its grant summed up outside namespaces and in each one. */
import { Injectable } from '@nestjs/common';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { TOKEN_NAMESPACE } from '../auth/methods/token/token.metadata';
import { NamespaceRepository } from '../namespaces/namespace.repository';
import { Database } from '../storage/database.service';
import { Method } from '../wire';
import { Authorizer } from '../authorization/authorizer.service';
import type { PermissionsResponse } from './permissions.dto';

@Injectable()
export class PermissionsService {
  constructor(
    private readonly authorizer: Authorizer,
    private readonly db: Database,
    private readonly namespaces: NamespaceRepository,
  ) {}

  async of(authentication: AuthenticationRecord | undefined): Promise<PermissionsResponse> {
    if (!this.authorizer.enabled || !authentication) return { authorizationRequired: false, roles: [], global: {}, namespaces: {} };
    const grant = this.authorizer.grantOf(authentication);
    // A namespaced static token acts in its namespace only (the guard refuses it elsewhere).
    const bound = authentication.method === Method.METHOD_TOKEN ? authentication.metadata[TOKEN_NAMESPACE]?.trim() : undefined;
    const keys = bound ? [bound] : await this.db.read((em) => this.namespaces.keys(em));
    const namespaces: PermissionsResponse['namespaces'] = {};
    for (const key of keys) {
      const allowed = grant.summary(key);
      if (Object.keys(allowed).length) namespaces[key] = allowed;
    }
    return { authorizationRequired: true, roles: [...grant.roles], global: bound ? {} : grant.summary(null), namespaces };
  }
}
