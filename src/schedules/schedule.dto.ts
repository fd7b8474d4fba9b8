import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BoolField, NestedListField, NumberField, StringField } from '../common/dto-fields';
import { SCHEDULE_STATUSES, SCHEDULE_TYPES, STEP_STATUSES } from './schedule-steps';

export class DistributionShareInput {
  @StringField({ description: 'A variant with a distribution in the rule', example: 'blue' })
  variantKey?: string;

  @NumberField({ description: 'Its share, 0–100', example: 50 })
  rollout?: number;
}

export class ScheduleStepInput {
  @StringField({ description: 'When: RFC 3339 with its zone (Z or ±hh:mm)', example: '2026-12-08T09:00:00+01:00' })
  at?: string;

  @StringField({ description: 'If the step could not apply by then (every instance was down), it is skipped and recorded. Absent: applied however late.' })
  deadline?: string;

  @BoolField({ description: 'FLAG_ENABLED: turn the flag on or off' })
  enabled?: boolean;

  @NumberField({ description: 'ROLLOUT_THRESHOLD: the rollout\'s percentage, 0–100' })
  percentage?: number;

  @BoolField({ description: 'ROLLOUT_SEGMENT: the rollout\'s value' })
  value?: boolean;

  @NestedListField(() => DistributionShareInput, { description: 'RULE_DISTRIBUTIONS: rollouts by variant key, adding up to at most 100' })
  distributions?: DistributionShareInput[];
}

export class UpdateScheduleRequest {
  @StringField()
  description?: string;

  @NestedListField(() => ScheduleStepInput, { required: true, description: 'The steps from now on, times increasing; more than one is a progressive rollout. An update replaces the steps not yet applied.' })
  steps?: ScheduleStepInput[];
}

export class CreateScheduleRequest extends UpdateScheduleRequest {
  @ApiProperty({ enum: SCHEDULE_TYPES, description: 'What the schedule changes' })
  @IsOptional()
  @IsIn(SCHEDULE_TYPES, { message: `type must be one of ${SCHEDULE_TYPES.join(', ')}` })
  type?: string;

  @StringField({ description: 'ROLLOUT_THRESHOLD, ROLLOUT_SEGMENT: the rollout of this flag it changes' })
  rolloutId?: string;

  @StringField({ description: 'RULE_DISTRIBUTIONS: the rule of this flag whose distributions it changes' })
  ruleId?: string;
}

export class ScheduleListQuery {
  @ApiPropertyOptional({ enum: SCHEDULE_STATUSES, description: 'Only schedules in this status' })
  @IsOptional()
  @IsIn(SCHEDULE_STATUSES, { message: `status must be one of ${SCHEDULE_STATUSES.join(', ')}` })
  status?: string;
}

export class DistributionShareResponse {
  @ApiProperty() variantKey!: string;
  @ApiProperty() rollout!: number;
}

export class ScheduleStepResponse {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiPropertyOptional({ format: 'date-time' }) deadline?: string;
  @ApiPropertyOptional() enabled?: boolean;
  @ApiPropertyOptional() percentage?: number;
  @ApiPropertyOptional() value?: boolean;
  @ApiPropertyOptional({ type: [DistributionShareResponse] }) distributions?: DistributionShareResponse[];
  @ApiProperty({ enum: STEP_STATUSES }) status!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'When it was applied, skipped or failed' }) appliedAt?: string;
  @ApiPropertyOptional({ description: 'Why it was skipped or failed, or "already in effect"' }) message?: string;
}

export class ScheduleActorResponse {
  @ApiProperty({ description: 'The method (`token`, `oidc`, …; `none` without authentication)' }) authentication!: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() picture?: string;
}

export class ScheduleResponse {
  @ApiProperty() id!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty() flagKey!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: SCHEDULE_TYPES }) type!: string;
  @ApiPropertyOptional() rolloutId?: string;
  @ApiPropertyOptional() ruleId?: string;
  @ApiProperty({ enum: SCHEDULE_STATUSES }) status!: string;
  @ApiProperty({ type: [ScheduleStepResponse] }) steps!: ScheduleStepResponse[];
  @ApiPropertyOptional({ format: 'date-time', description: 'The next pending step\'s time while active' }) nextAt?: string;
  @ApiProperty({ type: ScheduleActorResponse, description: 'Who made it: the actor of the changes it applies' }) createdBy!: ScheduleActorResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class ScheduleListResponse {
  @ApiProperty({ type: [ScheduleResponse], description: 'Newest first' }) schedules!: ScheduleResponse[];
}
