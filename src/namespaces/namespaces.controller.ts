import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import {
  CreateNamespaceRequest, DeleteNamespaceQuery, NamespaceListResponse, NamespaceResponse, UpdateNamespaceRequest,
} from './namespace.dto';
import { NamespacesService } from './namespaces.service';
import { Excludable, ListsViewableNamespaces, NamespaceScoped, OnResource, Unscoped } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { ViewableNamespaces, type NamespaceFilter } from '../authorization/request-grant';

@Excludable('management')
@NamespaceScoped('key')
@OnResource('namespace')
@ApiTags('namespaces')
@Controller('api/v1/namespaces')
export class NamespacesController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @Unscoped()
  @ListsViewableNamespaces()
  @ApiOkResponse({ type: NamespaceListResponse })
  list(@Query() query: ListQuery, @ViewableNamespaces() viewable: NamespaceFilter): Promise<NamespaceListResponse> {
    return this.namespaces.list(query, viewable);
  }

  @Get(':key')
  @ApiOkResponse({ type: NamespaceResponse })
  get(@Param('key') key: string): Promise<NamespaceResponse> {
    return this.namespaces.get(key);
  }

  @HttpCode(200)
  @Post()
  @ApiOkResponse({ type: NamespaceResponse })
  @Audited('namespace', 'created')
  create(@Body() body: CreateNamespaceRequest): Promise<NamespaceResponse> {
    return this.namespaces.create(body);
  }

  @Put(':key')
  @ApiOkResponse({ type: NamespaceResponse })
  @Audited('namespace', 'updated')
  update(@Param('key') key: string, @Body() body: UpdateNamespaceRequest): Promise<NamespaceResponse> {
    return this.namespaces.update(key, body);
  }

  @Delete(':key')
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('namespace', 'deleted')
  async delete(@Param('key') key: string, @Query() query: DeleteNamespaceQuery): Promise<EmptyResponse> {
    await this.namespaces.delete(key, query.force ?? false);
    return {};
  }
}
