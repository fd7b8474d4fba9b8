import { Controller, Get, Headers, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig } from '../../../config/config.types';
import { Public } from '../../auth.decorators';
import { cookieOf, STATE_COOKIE } from '../../credentials';
import { authorizeReply, callbackReply } from '../../login-response';
import { AuthorizeQuery, AuthorizeResponse, CallbackQuery, CallbackResponse } from '../../login.dto';
import { OIDC_PATH } from './oidc.method';
import { OidcService } from './oidc.service';

/** Open: these endpoints are how a browser gets authenticated. */
@Public()
@ApiTags('authentication')
@ApiHeader({ name: 'X-Forwarded-Prefix', required: false, description: 'Path prefix of a proxy, for cookie paths and the redirect' })
@Controller('auth/v1/method/oidc/:provider')
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {}

  @Get('authorize')
  @ApiOkResponse({ type: AuthorizeResponse, description: 'Also sets the flagpole_client_state cookie' })
  async authorize(
    @Param('provider') provider: string,
    @Query() query: AuthorizeQuery,
    @Headers('x-forwarded-prefix') prefix: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthorizeResponse> {
    const { state, authorizeUrl } = await this.oidc.authorize(provider, query.state ?? '');
    const callbackPath = `${prefix ?? ''}${OIDC_PATH}/${provider}/callback`;
    return authorizeReply(reply, this.config.authentication.session, callbackPath, state, authorizeUrl);
  }

  @Get('callback')
  @ApiResponse({ status: 302, type: CallbackResponse, description: 'Sets the flagpole_client_token cookie and redirects to /' })
  async callback(
    @Param('provider') provider: string,
    @Query() query: CallbackQuery,
    @Headers('x-forwarded-prefix') prefix: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CallbackResponse> {
    const login = await this.oidc.callback(provider, query, cookieOf(request, STATE_COOKIE));
    return callbackReply(reply, this.config.authentication.session, prefix ?? '', login.clientToken, login.authentication);
  }
}
