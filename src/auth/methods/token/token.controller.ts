import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CreateTokenRequest, CreateTokenResponse } from './token.dto';
import { TokenService } from './token.service';
import { Authenticated, CurrentAuthentication, Needs } from '../../auth.decorators';
import type { AuthenticationRecord } from '../../authentication.record';
import { createdTokenPayload } from '../../../audit/audit-payloads';
import { Audited } from '../../../audit/audited.decorator';

/** Mounted only when the token method is enabled. Needs a non-namespaced authentication when auth is required. */
@Authenticated()
@Needs([{ resource: 'authentication', action: 'create' }], 'none')
@ApiTags('authentication')
@Controller('auth/v1/method/token')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: CreateTokenResponse })
  @Audited('token', 'created', { payload: createdTokenPayload })
  create(@Body() body: CreateTokenRequest, @CurrentAuthentication() creator: AuthenticationRecord | undefined): Promise<CreateTokenResponse> {
    return this.tokens.create(body, creator);
  }
}
