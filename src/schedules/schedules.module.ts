/**
 * Scheduled changes (issue 41): the API, and the runner that applies due steps through the flag, rollout and rule
 * services, and the retention of closed schedules. The runner's timer is the @nestjs/schedule registry's, as the
 * clean-up tasks'.
 */
import { Module } from '@nestjs/common';
import { OperationLocks } from '../auth/operation-lock.service';
import { FlagsModule } from '../flags/flags.module';
import { NamespacesModule } from '../namespaces/namespaces.module';
import { RolloutsModule } from '../rollouts/rollouts.module';
import { RulesModule } from '../rules/rules.module';
import { AuthorRights } from './author-rights';
import { ScheduleRepository } from './schedule.repository';
import { ScheduleRetentionTask } from './schedule-retention.task';
import { ScheduleRunner } from './schedule-runner';
import { ScheduleTargets } from './schedule-targets';
import { SchedulesController } from './schedules.controller';
import { SchedulesService } from './schedules.service';

@Module({
  imports: [FlagsModule, NamespacesModule, RolloutsModule, RulesModule],
  controllers: [SchedulesController],
  providers: [SchedulesService, ScheduleRepository, ScheduleTargets, ScheduleRunner, ScheduleRetentionTask, AuthorRights, OperationLocks],
})
export class SchedulesModule {}
