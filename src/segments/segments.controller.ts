import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { namespaceOr } from '../common/namespace-key';
import { scoped } from '../common/routes';
import { ConstraintRequest, ConstraintResponse, SegmentListResponse, SegmentRequest, SegmentResponse } from './segment.dto';
import { ConstraintsService } from './constraints.service';
import { SegmentsService } from './segments.service';
import { Excludable, NamespaceScoped } from '../auth/auth.decorators';

@Excludable('management')
@NamespaceScoped()
@ApiTags('segments')
@Controller('api/v1')
export class SegmentsController {
  constructor(
    private readonly segments: SegmentsService,
    private readonly constraints: ConstraintsService,
  ) {}

  @Get(scoped('segments'))
  @ApiOkResponse({ type: SegmentListResponse })
  list(@Param('namespaceKey') ns: string | undefined, @Query() q: ListQuery): Promise<SegmentListResponse> {
    return this.segments.list(namespaceOr(ns, q.namespaceKey), q);
  }

  @Get(scoped('segments/:key'))
  @ApiOkResponse({ type: SegmentResponse })
  get(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Query() q: ListQuery): Promise<SegmentResponse> {
    return this.segments.get(namespaceOr(ns, q.namespaceKey), key);
  }

  @HttpCode(200)
  @Post(scoped('segments'))
  @ApiOkResponse({ type: SegmentResponse })
  create(@Param('namespaceKey') ns: string | undefined, @Body() body: SegmentRequest): Promise<SegmentResponse> {
    return this.segments.create(namespaceOr(ns, body.namespaceKey), body);
  }

  @Put(scoped('segments/:key'))
  @ApiOkResponse({ type: SegmentResponse })
  update(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Body() body: SegmentRequest): Promise<SegmentResponse> {
    return this.segments.update(namespaceOr(ns, body.namespaceKey), key, body);
  }

  @Delete(scoped('segments/:key'))
  @ApiOkResponse({ type: EmptyResponse })
  async delete(@Param('namespaceKey') ns: string | undefined, @Param('key') key: string, @Query() q: ListQuery): Promise<EmptyResponse> {
    await this.segments.delete(namespaceOr(ns, q.namespaceKey), key);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('segments/:segmentKey/constraints'))
  @ApiOkResponse({ type: ConstraintResponse })
  createConstraint(
    @Param('namespaceKey') ns: string | undefined, @Param('segmentKey') segmentKey: string, @Body() body: ConstraintRequest,
  ): Promise<ConstraintResponse> {
    return this.constraints.create(namespaceOr(ns, body.namespaceKey), segmentKey, body);
  }

  @Put(scoped('segments/:segmentKey/constraints/:id'))
  @ApiOkResponse({ type: ConstraintResponse })
  updateConstraint(
    @Param('namespaceKey') ns: string | undefined, @Param('segmentKey') segmentKey: string, @Param('id') id: string,
    @Body() body: ConstraintRequest,
  ): Promise<ConstraintResponse> {
    return this.constraints.update(namespaceOr(ns, body.namespaceKey), segmentKey, id, body);
  }

  @Delete(scoped('segments/:segmentKey/constraints/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  async deleteConstraint(
    @Param('namespaceKey') ns: string | undefined, @Param('segmentKey') segmentKey: string, @Param('id') id: string, @Query() q: ListQuery,
  ): Promise<EmptyResponse> {
    await this.constraints.delete(namespaceOr(ns, q.namespaceKey), segmentKey, id);
    return {};
  }
}
