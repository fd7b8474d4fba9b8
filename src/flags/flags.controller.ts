import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { scoped } from '../common/routes';
import { CreateFlagRequest, FlagListQuery, FlagListResponse, FlagResponse, UpdateFlagRequest, VariantRequest, VariantResponse } from './flag.dto';
import { FlagsService } from './flags.service';
import { VariantsService } from './variants.service';
import { Excludable, NamespaceScoped, OnResource } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { Audited } from '../audit/audited.decorator';


@Excludable('management')
@NamespaceScoped()
@OnResource('flag')
@ApiTags('flags')
@Controller('api/v1')
export class FlagsController {
  constructor(
    private readonly flags: FlagsService,
    private readonly variants: VariantsService,
  ) {}

  @Get(scoped('flags'))
  @ApiOkResponse({ type: FlagListResponse })
  list(@RequestNamespace() ns: string, @Query() q: FlagListQuery): Promise<FlagListResponse> {
    return this.flags.list(ns, q);
  }

  @Get(scoped('flags/:key'))
  @ApiOkResponse({ type: FlagResponse })
  get(@RequestNamespace() ns: string, @Param('key') key: string, @Query() _query: ListQuery): Promise<FlagResponse> {
    return this.flags.get(ns, key);
  }

  @HttpCode(200)
  @Post(scoped('flags'))
  @ApiOkResponse({ type: FlagResponse })
  @Audited('flag', 'created')
  create(@RequestNamespace() ns: string, @Body() body: CreateFlagRequest): Promise<FlagResponse> {
    return this.flags.create(ns, body);
  }

  @Put(scoped('flags/:key'))
  @ApiOkResponse({ type: FlagResponse })
  @Audited('flag', 'updated')
  update(@RequestNamespace() ns: string, @Param('key') key: string, @Body() body: UpdateFlagRequest): Promise<FlagResponse> {
    return this.flags.update(ns, key, body);
  }

  @Delete(scoped('flags/:key'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('flag', 'deleted')
  async delete(@RequestNamespace() ns: string, @Param('key') key: string, @Query() _query: ListQuery): Promise<EmptyResponse> {
    await this.flags.delete(ns, key);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/variants'))
  @ApiOkResponse({ type: VariantResponse })
  @Audited('variant', 'created')
  createVariant(@RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Body() body: VariantRequest): Promise<VariantResponse> {
    return this.variants.create(ns, flagKey, body);
  }

  @Put(scoped('flags/:flagKey/variants/:id'))
  @ApiOkResponse({ type: VariantResponse })
  @Audited('variant', 'updated')
  updateVariant(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: VariantRequest,
  ): Promise<VariantResponse> {
    return this.variants.update(ns, flagKey, id, body);
  }

  @Delete(scoped('flags/:flagKey/variants/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('variant', 'deleted')
  async deleteVariant(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() _query: ListQuery,
  ): Promise<EmptyResponse> {
    await this.variants.delete(ns, flagKey, id);
    return {};
  }
}
