import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { ConfigView } from '../config/config.redact';
import { MetaService, type MetaInfo } from './meta.service';
import { AnyCredential, Authenticated } from '../auth/auth.decorators';

/** Not exempt from authentication, as in Flipt (facts §2.5, §7.1). */
@Authenticated()
@AnyCredential()
@ApiTags('meta')
@Controller('meta')
export class MetaController {
  constructor(private readonly meta: MetaService) {}

  @Get('info')
  @ApiOkResponse({ description: 'Version, build and platform of this Flagpole' })
  info(): MetaInfo {
    return this.meta.getInfo();
  }

  @Get('config')
  @ApiOkResponse({ description: 'The effective configuration without secrets' })
  config(): ConfigView {
    return this.meta.getConfig();
  }
}
