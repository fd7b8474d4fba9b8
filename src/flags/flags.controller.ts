import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { namespaceOr } from '../common/namespace-key';
import { scoped } from '../common/routes';
import { CreateFlagRequest, FlagListResponse, FlagResponse, UpdateFlagRequest, VariantRequest, VariantResponse } from './flag.dto';
import { FlagsService } from './flags.service';
import { VariantsService } from './variants.service';
import { Excludable, NamespaceScoped } from '../auth/auth.decorators';


@Excludable('management')
@NamespaceScoped()
@ApiTags('flags')
@Controller('api/v1')
export class FlagsController {
  constructor(
    private readonly flags: FlagsService,
    private readonly variants: VariantsService,
  ) {}

  @Get(scoped('flags'))
  @ApiOkResponse({ type: FlagListResponse })
  list(@Param('namespaceKey') ns: string | undefined, @Query() q: ListQuery): Promise<FlagListResponse> {
    return this.flags.list(namespaceOr(ns, q.namespaceKey), q);
  }

  @Get(scoped('flags/:key'))
  @ApiOkResponse({ type: FlagResponse })
  get(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Query() q: ListQuery): Promise<FlagResponse> {
    return this.flags.get(namespaceOr(ns, q.namespaceKey), key);
  }

  @HttpCode(200)
  @Post(scoped('flags'))
  @ApiOkResponse({ type: FlagResponse })
  create(@Param('namespaceKey') ns: string | undefined, @Body() body: CreateFlagRequest): Promise<FlagResponse> {
    return this.flags.create(namespaceOr(ns, body.namespaceKey), body);
  }

  @Put(scoped('flags/:key'))
  @ApiOkResponse({ type: FlagResponse })
  update(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Body() body: UpdateFlagRequest): Promise<FlagResponse> {
    return this.flags.update(namespaceOr(ns, body.namespaceKey), key, body);
  }

  @Delete(scoped('flags/:key'))
  @ApiOkResponse({ type: EmptyResponse })
  async delete(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Query() q: ListQuery): Promise<EmptyResponse> {
    await this.flags.delete(namespaceOr(ns, q.namespaceKey), key);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/variants'))
  @ApiOkResponse({ type: VariantResponse })
  createVariant(@Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Body() body: VariantRequest): Promise<VariantResponse> {
    return this.variants.create(namespaceOr(ns, body.namespaceKey), flagKey, body);
  }

  @Put(scoped('flags/:flagKey/variants/:id'))
  @ApiOkResponse({ type: VariantResponse })
  updateVariant(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: VariantRequest,
  ): Promise<VariantResponse> {
    return this.variants.update(namespaceOr(ns, body.namespaceKey), flagKey, id, body);
  }

  @Delete(scoped('flags/:flagKey/variants/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  async deleteVariant(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() q: ListQuery,
  ): Promise<EmptyResponse> {
    await this.variants.delete(namespaceOr(ns, q.namespaceKey), flagKey, id);
    return {};
  }
}
