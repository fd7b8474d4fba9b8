/**
 * `GET /auth/v1/self/permissions`: what the caller may do, for clients (the UI) to hide or disable what would be
 * refused. Flagpole's own route beside Flipt's `/auth/v1/self`, whose answer stays Flipt's message.
 */
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnyCredential, CurrentAuthentication } from '../auth/auth.decorators';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { TOKEN_NAMESPACE } from '../auth/methods/token/token.metadata';
import { NamespacesService } from '../namespaces/namespaces.service';
import { Method } from '../wire';
import { Authorizer } from './authorizer.service';
import { PermissionsResponse } from './permissions.dto';

@ApiTags('authentication')
@AnyCredential()
@Controller('auth/v1/self')
export class PermissionsController {
  constructor(
    private readonly authorizer: Authorizer,
    private readonly namespaces: NamespacesService,
  ) {}

  @Get('permissions')
  @ApiOperation({ summary: "What the caller may do, by namespace and resource (docs/authorization.md)" })
  @ApiOkResponse({ type: PermissionsResponse })
  async permissions(@CurrentAuthentication() authentication: AuthenticationRecord | undefined): Promise<PermissionsResponse> {
    if (!this.authorizer.enabled || !authentication) return { authorizationRequired: false, roles: [], global: {}, namespaces: {} };
    const grant = this.authorizer.grantOf(authentication);
    // A namespaced static token acts in its namespace only (the guard refuses it elsewhere).
    const bound = authentication.method === Method.METHOD_TOKEN ? authentication.metadata[TOKEN_NAMESPACE]?.trim() : undefined;
    const keys = bound ? [bound] : await this.namespaces.keys();
    const namespaces: PermissionsResponse['namespaces'] = {};
    for (const key of keys) {
      const allowed = grant.summary(key);
      if (Object.keys(allowed).length) namespaces[key] = allowed;
    }
    return { authorizationRequired: true, roles: [...grant.roles], global: bound ? {} : grant.summary(null), namespaces };
  }
}
