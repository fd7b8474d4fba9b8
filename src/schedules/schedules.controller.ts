import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { CurrentAuthentication, Excludable, NamespaceScoped, Needs, OnResource } from '../auth/auth.decorators';
import { Audited } from '../audit/audited.decorator';
import { EmptyResponse } from '../common/list.dto';
import { CreateScheduleRequest, ScheduleListQuery, ScheduleListResponse, ScheduleResponse, UpdateScheduleRequest } from './schedule.dto';
import type { ScheduleStatus } from './schedule-steps';
import { SchedulesService } from './schedules.service';

/** Making, editing or cancelling a schedule needs what its changes need: `update` on the flag. */
const UPDATES_FLAG = () => Needs([{ resource: 'flag', action: 'update' }]);

/** Flagpole addition (docs/api.md, Scheduled changes): changes to a flag at set times, applied on the server. */
@Excludable('management')
@NamespaceScoped()
@OnResource('flag')
@ApiTags('schedules')
@Controller('api/v1/namespaces/:namespaceKey')
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get('schedules')
  @ApiOperation({ summary: 'Every flag\'s schedules in the namespace, newest first' })
  @ApiOkResponse({ type: ScheduleListResponse })
  listInNamespace(@Param('namespaceKey') ns: string, @Query() q: ScheduleListQuery): Promise<ScheduleListResponse> {
    return this.schedules.list(ns, null, q.status as ScheduleStatus | undefined);
  }

  @Get('flags/:flagKey/schedules')
  @ApiOperation({ summary: 'The flag\'s schedules, newest first' })
  @ApiOkResponse({ type: ScheduleListResponse })
  list(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Query() q: ScheduleListQuery): Promise<ScheduleListResponse> {
    return this.schedules.list(ns, flagKey, q.status as ScheduleStatus | undefined);
  }

  @Get('flags/:flagKey/schedules/:id')
  @ApiOkResponse({ type: ScheduleResponse })
  get(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string): Promise<ScheduleResponse> {
    return this.schedules.get(ns, flagKey, id);
  }

  @HttpCode(200)
  @Post('flags/:flagKey/schedules')
  @ApiOperation({ summary: 'Schedule changes to the flag: one step, or several (a progressive rollout)' })
  @ApiOkResponse({ type: ScheduleResponse })
  @UPDATES_FLAG()
  @Audited('schedule', 'created')
  create(
    @Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Body() body: CreateScheduleRequest,
    @CurrentAuthentication() authentication: AuthenticationRecord | undefined,
  ): Promise<ScheduleResponse> {
    return this.schedules.create(ns, flagKey, body, authentication);
  }

  @Put('flags/:flagKey/schedules/:id')
  @ApiOperation({ summary: 'Replace the description and the steps not yet applied' })
  @ApiOkResponse({ type: ScheduleResponse })
  @UPDATES_FLAG()
  @Audited('schedule', 'updated')
  update(
    @Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string, @Body() body: UpdateScheduleRequest,
  ): Promise<ScheduleResponse> {
    return this.schedules.update(ns, flagKey, id, body);
  }

  @HttpCode(200)
  @Post('flags/:flagKey/schedules/:id/pause')
  @ApiOperation({ summary: 'Hold the pending steps' })
  @ApiOkResponse({ type: ScheduleResponse })
  @UPDATES_FLAG()
  @Audited('schedule', 'updated')
  pause(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string): Promise<ScheduleResponse> {
    return this.schedules.pause(ns, flagKey, id);
  }

  @HttpCode(200)
  @Post('flags/:flagKey/schedules/:id/resume')
  @ApiOperation({ summary: 'Go on: steps whose time has passed apply now (or are skipped past their deadline)' })
  @ApiOkResponse({ type: ScheduleResponse })
  @UPDATES_FLAG()
  @Audited('schedule', 'updated')
  resume(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string): Promise<ScheduleResponse> {
    return this.schedules.resume(ns, flagKey, id);
  }

  @Delete('flags/:flagKey/schedules/:id')
  @ApiOperation({ summary: 'Cancel: pending steps never apply; the schedule stays listed as a record' })
  @ApiOkResponse({ type: EmptyResponse })
  @UPDATES_FLAG()
  @Audited('schedule', 'deleted')
  async cancel(@Param('namespaceKey') ns: string, @Param('flagKey') flagKey: string, @Param('id') id: string): Promise<EmptyResponse> {
    await this.schedules.cancel(ns, flagKey, id);
    return {};
  }
}
