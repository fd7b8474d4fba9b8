import { Controller, Delete, Get, Headers, Inject, Param, Put, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EmptyResponse } from '../common/list.dto';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { AnyCredential, CurrentAuthentication, Needs, Public } from './auth.decorators';
import {
  AuthenticationListResponse, AuthenticationResponse, ExpireSelfQuery, ListTokensQuery, MethodListResponse,
} from './auth.dto';
import { AuthService } from './auth.service';
import type { AuthenticationJson, AuthenticationRecord } from './authentication.record';
import { clearSession } from './session-cookies';
import { expiredSelfPayload } from '../audit/audit-payloads';
import { Audited } from '../audit/audited.decorator';

/** Always mounted, whichever methods are enabled. Namespaced tokens are refused on all of it. */
@ApiTags('authentication')
@Controller('auth/v1')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {}

  @Public()
  @Get('method')
  @ApiHeader({ name: 'X-Forwarded-Prefix', required: false, description: 'Path prefix of a proxy, put before the login URLs' })
  @ApiOkResponse({ type: MethodListResponse })
  methods(@Headers('x-forwarded-prefix') prefix: string | undefined): MethodListResponse {
    return this.auth.listMethods(prefix);
  }

  @Get('self')
  @AnyCredential()
  @ApiOkResponse({ type: AuthenticationResponse })
  self(@CurrentAuthentication() authentication: AuthenticationRecord | undefined): AuthenticationJson {
    return this.auth.self(authentication);
  }

  /** The browser session ends with it: both session cookies are cleared whatever the outcome. */
  @Put('self/expire')
  @AnyCredential()
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('token', 'updated', { payload: expiredSelfPayload })
  async expireSelf(
    @CurrentAuthentication() authentication: AuthenticationRecord | undefined,
    @Query() query: ExpireSelfQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EmptyResponse> {
    clearSession(reply, this.config.authentication.session);
    await this.auth.expireSelf(authentication, query);
    return {};
  }

  @Get('tokens')
  @Needs([{ resource: 'authentication', action: 'read' }], 'none')
  @ApiOkResponse({ type: AuthenticationListResponse })
  list(@Query() query: ListTokensQuery): Promise<AuthenticationListResponse> {
    return this.auth.list(query);
  }

  @Get('tokens/:id')
  @Needs([{ resource: 'authentication', action: 'read' }], 'none')
  @ApiOkResponse({ type: AuthenticationResponse })
  get(@Param('id') id: string): Promise<AuthenticationJson> {
    return this.auth.get(id);
  }

  @Delete('tokens/:id')
  @Needs([{ resource: 'authentication', action: 'delete' }], 'none')
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('token', 'deleted')
  async delete(@Param('id') id: string): Promise<EmptyResponse> {
    await this.auth.delete(id);
    return {};
  }
}
