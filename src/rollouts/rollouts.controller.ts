import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { OrderRolloutsRequest, RolloutListResponse, RolloutRequest, RolloutResponse } from './rollout.dto';
import { RolloutsService } from './rollouts.service';
import { Excludable, NamespaceScoped, OnResource } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';

/**
 * Rollouts exist only under a namespace (no legacy un-namespaced routes), so the path parameter is the request's
 * namespace (request-namespace.ts reads the same one; it is never empty). It stays a `@Param`, which is what Swagger
 * documents path parameters from.
 */
@Excludable('management')
@NamespaceScoped()
@OnResource('flag')
@ApiTags('rollouts')
@Controller('api/v1/namespaces/:namespaceKey/flags/:flagKey/rollouts')
export class RolloutsController {
  constructor(private readonly rollouts: RolloutsService) {}

  @Get()
  @ApiOkResponse({ type: RolloutListResponse })
  list(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Query() q: ListQuery): Promise<RolloutListResponse> {
    return this.rollouts.list(ns, flagKey, q);
  }

  @Get(':id')
  @ApiOkResponse({ type: RolloutResponse })
  get(@Param('namespaceKey') ns: string, @Param('id') id: string): Promise<RolloutResponse> {
    return this.rollouts.get(ns, id);
  }

  @HttpCode(200)
  @Post()
  @ApiOkResponse({ type: RolloutResponse })
  @Audited('rollout', 'created')
  create(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Body() body: RolloutRequest): Promise<RolloutResponse> {
    return this.rollouts.create(ns, flagKey, body);
  }

  @Put('order')
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('rollout', 'updated', { fromRequest: ['rolloutIds'] })
  async order(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Body() body: OrderRolloutsRequest): Promise<EmptyResponse> {
    await this.rollouts.order(ns, flagKey, body.rolloutIds);
    return {};
  }

  @Put(':id')
  @ApiOkResponse({ type: RolloutResponse })
  @Audited('rollout', 'updated')
  update(
    @Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: RolloutRequest,
  ): Promise<RolloutResponse> {
    return this.rollouts.update(ns, flagKey, id, body);
  }

  @Delete(':id')
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('rollout', 'deleted')
  async delete(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string): Promise<EmptyResponse> {
    await this.rollouts.delete(ns, flagKey, id);
    return {};
  }
}
