/**
 * `GET /auth/v1/self/permissions`: what the caller may do, for clients (the UI) to hide or disable what would be
 * refused. Flagpole's own route beside Flipt's `/auth/v1/self`, whose answer stays Flipt's message.
 */
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnyCredential, CurrentAuthentication } from '../auth/auth.decorators';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { PermissionsResponse } from './permissions.dto';
import { PermissionsService } from './permissions.service';

@ApiTags('authentication')
@AnyCredential()
@Controller('auth/v1/self')
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get('permissions')
  @ApiOperation({ summary: 'What the caller may do, by namespace and resource (docs/authorization.md)' })
  @ApiOkResponse({ type: PermissionsResponse })
  get(@CurrentAuthentication() authentication: AuthenticationRecord | undefined): Promise<PermissionsResponse> {
    return this.permissions.of(authentication);
  }
}
