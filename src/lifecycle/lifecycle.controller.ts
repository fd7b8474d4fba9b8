import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Excludable, NamespaceScoped, OnResource } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { FlagHealthQuery, FlagHealthResponse, FlagLifecycleResponse } from './lifecycle.dto';
import { LifecycleService } from './lifecycle.service';

/** Flagpole addition (docs/api.md, Flag lifecycle): reading flags' lifecycle needs `read` on the namespace's flags. */
@Excludable('management')
@NamespaceScoped()
@OnResource('flag')
@ApiTags('lifecycle')
@Controller('api/v1/namespaces/:namespaceKey')
export class LifecycleController {
  constructor(private readonly lifecycle: LifecycleService) {}

  @Get('flags/:key/lifecycle')
  @ApiOperation({ summary: 'A flag\'s kind and lifecycle state (new, live, potentially stale, archived), with why it may be stale' })
  @ApiOkResponse({ type: FlagLifecycleResponse })
  flag(@RequestNamespace() ns: string, @Param('key') key: string): Promise<FlagLifecycleResponse> {
    return this.lifecycle.flag(ns, key);
  }

  @Get('flag-health')
  @ApiOperation({ summary: 'The namespace\'s flags counted by state and kind, and a page of its potentially stale flags' })
  @ApiOkResponse({ type: FlagHealthResponse })
  health(@RequestNamespace() ns: string, @Query() q: FlagHealthQuery): Promise<FlagHealthResponse> {
    return this.lifecycle.health(ns, q);
  }
}
