import { ApiProperty } from '@nestjs/swagger';
import { IntField } from '../common/dto-fields';
import { FLAG_KINDS } from '../wire';
import { LIFECYCLE_STATES, STALE_REASONS } from './lifecycle-state';

/** Most stale flags in one flag-health answer, and how many when not asked. */
export const MAX_HEALTH_LIMIT = 1000;
export const DEFAULT_HEALTH_LIMIT = 100;

export class FlagHealthQuery {
  @IntField({ description: `Most potentially stale flags in the answer: 1 to ${MAX_HEALTH_LIMIT}, default ${DEFAULT_HEALTH_LIMIT}` })
  limit?: number;

  @IntField({ description: 'How many potentially stale flags (by key) to skip: the previous answer\'s nextOffset' })
  offset?: number;
}

export class StaleReasonResponse {
  @ApiProperty({ enum: STALE_REASONS, description: '`lifetime`: older than its kind\'s lifetime; `unused`: not evaluated lately; `rolled_out`: every evaluation returned one value and the flag did not change' })
  reason!: string;

  @ApiProperty({ format: 'date-time', description: 'When the reason became true (`rolled_out`: when a check first saw it)' })
  since!: string;

  @ApiProperty({ description: 'The reason in words, with its numbers' })
  detail!: string;
}

export class FlagLifecycleResponse {
  @ApiProperty() namespaceKey!: string;
  @ApiProperty() flagKey!: string;

  @ApiProperty({ enum: FLAG_KINDS, description: '`metadata.flagpole.kind`, else the namespace\'s default kind' })
  kind!: string;

  @ApiProperty({ enum: LIFECYCLE_STATES, description: 'As the last check stored it; archived (or no longer) as the flag\'s metadata says now; judged now when no check has seen the flag yet' })
  state!: string;

  @ApiProperty({ type: [StaleReasonResponse], description: 'Why it is potentially stale; empty in every other state' })
  reasons!: StaleReasonResponse[];

  @ApiProperty({ format: 'date-time' }) createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Start of the latest minute it was evaluated in, as analytics and earlier checks know; null when none (or analytics is off)' })
  lastEvaluatedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last check judged it; null when none has yet' })
  checkedAt!: string | null;
}

export class LifecycleCountsResponse {
  @ApiProperty() new!: number;
  @ApiProperty() live!: number;
  @ApiProperty() potentiallyStale!: number;
  @ApiProperty() archived!: number;
}

export class StaleFlagResponse {
  @ApiProperty() flagKey!: string;
  @ApiProperty({ enum: FLAG_KINDS }) kind!: string;
  @ApiProperty({ type: [StaleReasonResponse] }) reasons!: StaleReasonResponse[];
  @ApiProperty({ format: 'date-time', description: 'When a check first found it potentially stale (this time)' }) since!: string;
}

export class FlagHealthResponse {
  @ApiProperty() namespaceKey!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The latest check of the namespace\'s flags; null when none has run' })
  checkedAt!: string | null;

  @ApiProperty({ type: LifecycleCountsResponse, description: 'Flags in each state, as the last check found them' })
  counts!: LifecycleCountsResponse;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, description: 'Flags of each kind (every kind named, 0 included)' })
  kinds!: Record<string, number>;

  @ApiProperty({ type: [StaleFlagResponse], description: 'A page of the potentially stale flags, by key' })
  staleFlags!: StaleFlagResponse[];

  @ApiProperty({ type: Number, nullable: true, description: 'The offset of the next page; null on the last' })
  nextOffset!: number | null;
}
