import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery, SearchableListQuery } from '../common/list.dto';
import { scoped } from '../common/routes';
import { ConstraintRequest, ConstraintResponse, SegmentListResponse, SegmentRequest, SegmentResponse } from './segment.dto';
import { ConstraintsService } from './constraints.service';
import { SegmentsService } from './segments.service';
import { Excludable, NamespaceScoped, OnResource } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { Audited } from '../audit/audited.decorator';

@Excludable('management')
@NamespaceScoped()
@OnResource('segment')
@ApiTags('segments')
@Controller('api/v1')
export class SegmentsController {
  constructor(
    private readonly segments: SegmentsService,
    private readonly constraints: ConstraintsService,
  ) {}

  @Get(scoped('segments'))
  @ApiOkResponse({ type: SegmentListResponse })
  list(@RequestNamespace() ns: string, @Query() q: SearchableListQuery): Promise<SegmentListResponse> {
    return this.segments.list(ns, q);
  }

  @Get(scoped('segments/:key'))
  @ApiOkResponse({ type: SegmentResponse })
  get(@RequestNamespace() ns: string, @Param('key') key: string, @Query() _query: ListQuery): Promise<SegmentResponse> {
    return this.segments.get(ns, key);
  }

  @HttpCode(200)
  @Post(scoped('segments'))
  @ApiOkResponse({ type: SegmentResponse })
  @Audited('segment', 'created')
  create(@RequestNamespace() ns: string, @Body() body: SegmentRequest): Promise<SegmentResponse> {
    return this.segments.create(ns, body);
  }

  @Put(scoped('segments/:key'))
  @ApiOkResponse({ type: SegmentResponse })
  @Audited('segment', 'updated')
  update(@RequestNamespace() ns: string, @Param('key') key: string, @Body() body: SegmentRequest): Promise<SegmentResponse> {
    return this.segments.update(ns, key, body);
  }

  @Delete(scoped('segments/:key'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('segment', 'deleted')
  async delete(@RequestNamespace() ns: string, @Param('key') key: string, @Query() _query: ListQuery): Promise<EmptyResponse> {
    await this.segments.delete(ns, key);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('segments/:segmentKey/constraints'))
  @ApiOkResponse({ type: ConstraintResponse })
  @Audited('constraint', 'created')
  createConstraint(
    @RequestNamespace() ns: string, @Param('segmentKey') segmentKey: string, @Body() body: ConstraintRequest,
  ): Promise<ConstraintResponse> {
    return this.constraints.create(ns, segmentKey, body);
  }

  @Put(scoped('segments/:segmentKey/constraints/:id'))
  @ApiOkResponse({ type: ConstraintResponse })
  @Audited('constraint', 'updated')
  updateConstraint(
    @RequestNamespace() ns: string, @Param('segmentKey') segmentKey: string, @Param('id') id: string,
    @Body() body: ConstraintRequest,
  ): Promise<ConstraintResponse> {
    return this.constraints.update(ns, segmentKey, id, body);
  }

  @Delete(scoped('segments/:segmentKey/constraints/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('constraint', 'deleted')
  async deleteConstraint(
    @RequestNamespace() ns: string, @Param('segmentKey') segmentKey: string, @Param('id') id: string, @Query() _query: ListQuery,
  ): Promise<EmptyResponse> {
    await this.constraints.delete(ns, segmentKey, id);
    return {};
  }
}
