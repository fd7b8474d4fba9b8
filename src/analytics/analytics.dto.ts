import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { StringField, StringListField } from '../common/dto-fields';

const FROM = 'Start of the range: RFC 3339 (`2026-12-07T09:00:00Z`) or `2006-01-02 15:04:05` (UTC)';
const TO = 'End of the range, in the same forms. The step grows with the range: 1 minute under 4 h, 5 from 4 h, 15 from 12 h, 30 from 24 h';
const GROUP_BY = 'Flagpole addition: `variant` or `reason` adds `series`, the values of each variant (boolean flags: `true`, `false`) or reason';

export class FlagEvaluationsCountQuery {
  @StringField({ description: FROM, required: true })
  from?: string;

  @StringField({ description: TO, required: true })
  to?: string;

  @StringField({ description: GROUP_BY })
  groupBy?: string;
}

export class BatchFlagEvaluationsCountRequest {
  @StringListField({ description: 'The flags, at most 100; each must exist in the namespace', required: true })
  flagKeys?: string[];

  @StringField({ description: FROM, required: true })
  from?: string;

  @StringField({ description: TO, required: true })
  to?: string;

  @StringField({ description: GROUP_BY })
  groupBy?: string;
}

const SERIES = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'number' } },
  description: 'With `groupBy`: per variant (or reason) name, its values over the same steps; a name absent had no evaluations in the range',
} as const;

export class FlagEvaluationsCountResponse {
  @ApiProperty({ type: [String], description: 'Each step\'s start, RFC 3339 UTC, oldest first' })
  timestamps!: string[];

  @ApiProperty({ type: [Number], description: 'Evaluations counted in each step (0 when none)' })
  values!: number[];

  @ApiPropertyOptional(SERIES)
  series?: Record<string, number[]>;
}

export class FlagEvaluationsWithLastResponse extends FlagEvaluationsCountResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Start of the latest minute the flag was evaluated in (RFC 3339; with Prometheus storage, of the latest step its counts grew in), null when none is known within analytics.retention' })
  lastEvaluatedAt!: string | null;
}

@ApiExtraModels(FlagEvaluationsWithLastResponse)
export class BatchFlagEvaluationsCountResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(FlagEvaluationsWithLastResponse) },
    description: 'Per flag key asked for',
  })
  flagEvaluations!: Record<string, FlagEvaluationsWithLastResponse>;
}
