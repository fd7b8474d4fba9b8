import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { namespaceOr } from '../common/namespace-key';
import { scoped } from '../common/routes';
import { DistributionsService } from './distributions.service';
import {
  DeleteDistributionQuery, DistributionRequest, DistributionResponse, OrderRulesRequest, RuleListResponse, RuleRequest, RuleResponse,
} from './rule.dto';
import { RulesService } from './rules.service';
import { Excludable, NamespaceScoped } from '../auth/auth.decorators';

@Excludable('management')
@NamespaceScoped()
@ApiTags('rules')
@Controller('api/v1')
export class RulesController {
  constructor(
    private readonly rules: RulesService,
    private readonly distributions: DistributionsService,
  ) {}

  @Get(scoped('flags/:flagKey/rules'))
  @ApiOkResponse({ type: RuleListResponse })
  list(@Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Query() q: ListQuery): Promise<RuleListResponse> {
    return this.rules.list(namespaceOr(ns, q.namespaceKey), flagKey, q);
  }

  @Get(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: RuleResponse })
  get(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() q: ListQuery,
  ): Promise<RuleResponse> {
    return this.rules.get(namespaceOr(ns, q.namespaceKey), flagKey, id);
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/rules'))
  @ApiOkResponse({ type: RuleResponse })
  create(@Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Body() body: RuleRequest): Promise<RuleResponse> {
    return this.rules.create(namespaceOr(ns, body.namespaceKey), flagKey, body);
  }

  // Declared before `rules/:id` so that `order` is never taken for an id.
  @Put(scoped('flags/:flagKey/rules/order'))
  @ApiOkResponse({ type: EmptyResponse })
  async order(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Body() body: OrderRulesRequest,
  ): Promise<EmptyResponse> {
    await this.rules.order(namespaceOr(ns, body.namespaceKey), flagKey, body.ruleIds);
    return {};
  }

  @Put(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: RuleResponse })
  update(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: RuleRequest,
  ): Promise<RuleResponse> {
    return this.rules.update(namespaceOr(ns, body.namespaceKey), flagKey, id, body);
  }

  @Delete(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  async delete(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() q: ListQuery,
  ): Promise<EmptyResponse> {
    await this.rules.delete(namespaceOr(ns, q.namespaceKey), flagKey, id);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/rules/:ruleId/distributions'))
  @ApiOkResponse({ type: DistributionResponse })
  createDistribution(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Body() body: DistributionRequest,
  ): Promise<DistributionResponse> {
    return this.distributions.create(namespaceOr(ns, body.namespaceKey), flagKey, ruleId, body);
  }

  @Put(scoped('flags/:flagKey/rules/:ruleId/distributions/:id'))
  @ApiOkResponse({ type: DistributionResponse })
  updateDistribution(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Param('id') id: string, @Body() body: DistributionRequest,
  ): Promise<DistributionResponse> {
    return this.distributions.update(namespaceOr(ns, body.namespaceKey), flagKey, ruleId, id, body);
  }

  @Delete(scoped('flags/:flagKey/rules/:ruleId/distributions/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  async deleteDistribution(
    @Param('namespaceKey') ns: string | undefined, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Param('id') id: string, @Query() q: DeleteDistributionQuery,
  ): Promise<EmptyResponse> {
    await this.distributions.delete(namespaceOr(ns, q.namespaceKey), flagKey, ruleId, id, q.variantId);
    return {};
  }
}
