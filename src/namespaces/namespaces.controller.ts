import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import {
  CreateNamespaceRequest, DeleteNamespaceQuery, NamespaceListResponse, NamespaceResponse, UpdateNamespaceRequest,
} from './namespace.dto';
import { NamespacesService } from './namespaces.service';
import { Excludable, NamespaceScoped, Unscoped } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';

@Excludable('management')
@NamespaceScoped('key')
@ApiTags('namespaces')
@Controller('api/v1/namespaces')
export class NamespacesController {
  constructor(private readonly namespaces: NamespacesService) {}

  @Get()
  @Unscoped()
  @ApiOkResponse({ type: NamespaceListResponse })
  list(@Query() query: ListQuery): Promise<NamespaceListResponse> {
    return this.namespaces.list(query);
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
