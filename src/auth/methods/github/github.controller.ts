import { Controller, Get, Headers, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig } from '../../../config/config.types';
import { Public } from '../../auth.decorators';
import { cookieOf, STATE_COOKIE } from '../../credentials';
import { authorizeReply, callbackReply } from '../../login-response';
import { AuthorizeQuery, AuthorizeResponse, CallbackQuery, CallbackResponse } from '../../login.dto';
import { GITHUB_PATH } from './github.method';
import { GithubService } from './github.service';

/**
 * Open: these endpoints are how a browser gets authenticated. `codehost` is the seed's name for the same routes;
 * GitHub always redirects back to the canonical callback, which is where the state cookie is sent.
 */
@Public()
@ApiTags('authentication')
@Controller(['auth/v1/method/github', 'auth/v1/method/codehost'])
export class GithubController {
  constructor(
    private readonly github: GithubService,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {}

  @Get('authorize')
  @ApiOkResponse({ type: AuthorizeResponse, description: 'Also sets the flagpole_client_state cookie' })
  authorize(
    @Query() query: AuthorizeQuery,
    @Headers('x-forwarded-prefix') prefix: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): AuthorizeResponse {
    const { state, authorizeUrl } = this.github.authorize(query.state ?? '');
    return authorizeReply(reply, this.config.authentication.session, `${prefix ?? ''}${GITHUB_PATH}/callback`, state, authorizeUrl);
  }

  @Get('callback')
  @ApiResponse({ status: 302, type: CallbackResponse, description: 'Sets the flagpole_client_token cookie and redirects to /' })
  async callback(
    @Query() query: CallbackQuery,
    @Headers('x-forwarded-prefix') prefix: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CallbackResponse> {
    const login = await this.github.callback(query, cookieOf(request, STATE_COOKIE));
    return callbackReply(reply, this.config.authentication.session, prefix ?? '', login.clientToken, login.authentication);
  }
}
