/**
 * Flipt's analytics route, `GET /internal/v1/analytics/namespaces/{namespaceKey}/flags/{flagKey}`, and Flagpole's
 * batch route beside it (Flipt v2's shape). Mounted only with `analytics.enabled` (analytics.module.ts): otherwise
 * both paths are unknown routes, as in Flipt. Authenticated whenever authentication is required (no exclusion opens
 * them, as in Flipt); a namespaced token reads its own namespace; with authorization, `read` on flags there.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NamespaceScoped, Needs } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import {
  BatchFlagEvaluationsCountRequest, BatchFlagEvaluationsCountResponse, FlagEvaluationsCountQuery, FlagEvaluationsCountResponse,
} from './analytics.dto';
import { AnalyticsService } from './analytics.service';

@NamespaceScoped()
@Needs([{ resource: 'flag', action: 'read' }])
@ApiTags('analytics')
@Controller('internal/v1/analytics/namespaces/:namespaceKey/flags')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get(':flagKey')
  @ApiOperation({ summary: "A flag's evaluations per step over a time range (Flipt's route; docs/api.md, Analytics)" })
  @ApiOkResponse({ type: FlagEvaluationsCountResponse })
  flag(@RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Query() q: FlagEvaluationsCountQuery): Promise<FlagEvaluationsCountResponse> {
    return this.analytics.flag(ns, flagKey, q);
  }

  @HttpCode(200)
  @Post()
  @ApiOperation({ summary: 'Several flags at once, each with its latest evaluation (Flagpole addition, Flipt v2\'s shape)' })
  @ApiOkResponse({ type: BatchFlagEvaluationsCountResponse })
  async flags(@RequestNamespace() ns: string, @Body() body: BatchFlagEvaluationsCountRequest): Promise<BatchFlagEvaluationsCountResponse> {
    return { flagEvaluations: await this.analytics.flags(ns, body.flagKeys ?? [], body) };
  }
}
