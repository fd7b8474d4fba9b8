import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EmptyResponse, ListQuery } from '../common/list.dto';
import { scoped } from '../common/routes';
import { DistributionsService } from './distributions.service';
import {
  DeleteDistributionQuery, DistributionRequest, DistributionResponse, OrderRulesRequest, RuleListResponse, RuleRequest, RuleResponse,
} from './rule.dto';
import { RulesService } from './rules.service';
import { Excludable, NamespaceScoped, OnResource } from '../auth/auth.decorators';
import { RequestNamespace } from '../auth/request-namespace.decorator';
import { Audited } from '../audit/audited.decorator';

@Excludable('management')
@NamespaceScoped()
@OnResource('flag')
@ApiTags('rules')
@Controller('api/v1')
export class RulesController {
  constructor(
    private readonly rules: RulesService,
    private readonly distributions: DistributionsService,
  ) {}

  @Get(scoped('flags/:flagKey/rules'))
  @ApiOkResponse({ type: RuleListResponse })
  list(@RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Query() q: ListQuery): Promise<RuleListResponse> {
    return this.rules.list(ns, flagKey, q);
  }

  @Get(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: RuleResponse })
  get(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() _query: ListQuery,
  ): Promise<RuleResponse> {
    return this.rules.get(ns, flagKey, id);
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/rules'))
  @ApiOkResponse({ type: RuleResponse })
  @Audited('rule', 'created')
  create(@RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Body() body: RuleRequest): Promise<RuleResponse> {
    return this.rules.create(ns, flagKey, body);
  }

  // Declared before `rules/:id` so that `order` is never taken for an id.
  @Put(scoped('flags/:flagKey/rules/order'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('rule', 'updated', { fromRequest: ['ruleIds'] })
  async order(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Body() body: OrderRulesRequest,
  ): Promise<EmptyResponse> {
    await this.rules.order(ns, flagKey, body.ruleIds);
    return {};
  }

  @Put(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: RuleResponse })
  @Audited('rule', 'updated')
  update(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: RuleRequest,
  ): Promise<RuleResponse> {
    return this.rules.update(ns, flagKey, id, body);
  }

  @Delete(scoped('flags/:flagKey/rules/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('rule', 'deleted')
  async delete(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Query() _query: ListQuery,
  ): Promise<EmptyResponse> {
    await this.rules.delete(ns, flagKey, id);
    return {};
  }

  @HttpCode(200)
  @Post(scoped('flags/:flagKey/rules/:ruleId/distributions'))
  @ApiOkResponse({ type: DistributionResponse })
  @Audited('distribution', 'created')
  createDistribution(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Body() body: DistributionRequest,
  ): Promise<DistributionResponse> {
    return this.distributions.create(ns, flagKey, ruleId, body);
  }

  @Put(scoped('flags/:flagKey/rules/:ruleId/distributions/:id'))
  @ApiOkResponse({ type: DistributionResponse })
  @Audited('distribution', 'updated')
  updateDistribution(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Param('id') id: string, @Body() body: DistributionRequest,
  ): Promise<DistributionResponse> {
    return this.distributions.update(ns, flagKey, ruleId, id, body);
  }

  @Delete(scoped('flags/:flagKey/rules/:ruleId/distributions/:id'))
  @ApiOkResponse({ type: EmptyResponse })
  @Audited('distribution', 'deleted', { fromRequest: ['variantId'] })
  async deleteDistribution(
    @RequestNamespace() ns: string, @Param('flagKey') flagKey: string, @Param('ruleId') ruleId: string,
    @Param('id') id: string, @Query() q: DeleteDistributionQuery,
  ): Promise<EmptyResponse> {
    await this.distributions.delete(ns, flagKey, ruleId, id, q.variantId);
    return {};
  }
}
