import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, IntField, NestedField, NumberField, StringField, StringListField } from '../common/dto-fields';
import { ROLLOUT_TYPE_NAMES, SEGMENT_OPERATOR_NAMES, SEGMENT_OPERATORS_BY_NAME } from '../wire';

export class RolloutSegmentInput {
  @StringField({ description: 'Deprecated: a single segment (use segmentKeys)' })
  segmentKey?: string;

  @StringListField()
  segmentKeys?: string[];

  @EnumField(SEGMENT_OPERATORS_BY_NAME)
  segmentOperator?: number;

  @BoolField({ description: 'What the flag evaluates to when the segments match' })
  value?: boolean;
}

export class RolloutThresholdInput {
  @NumberField({ description: 'Share of entities, 0–100', example: 50 })
  percentage?: number;

  @BoolField({ description: 'What the flag evaluates to for entities within the percentage' })
  value?: boolean;
}

export class RolloutRequest {
  @IntField({ description: 'Create only; unique per flag' })
  rank?: number;

  @StringField()
  description?: string;

  @NestedField(() => RolloutSegmentInput, { description: 'Exactly one of segment or threshold' })
  segment?: RolloutSegmentInput;

  @NestedField(() => RolloutThresholdInput)
  threshold?: RolloutThresholdInput;
}

export class OrderRolloutsRequest {
  @StringListField({ required: true, description: 'Rollout ids in their new order' })
  rolloutIds?: string[];
}

export class RolloutSegmentResponse {
  @ApiProperty() segmentKey!: string;
  @ApiProperty() value!: boolean;
  @ApiProperty({ type: [String] }) segmentKeys!: string[];
  @ApiProperty({ enum: Object.values(SEGMENT_OPERATOR_NAMES) }) segmentOperator!: string;
}

export class RolloutThresholdResponse {
  @ApiProperty() percentage!: number;
  @ApiProperty() value!: boolean;
}

export class RolloutResponse {
  @ApiProperty() id!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty() flagKey!: string;
  @ApiProperty({ enum: Object.values(ROLLOUT_TYPE_NAMES) }) type!: string;
  @ApiProperty() rank!: number;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiPropertyOptional({ type: RolloutSegmentResponse }) segment?: RolloutSegmentResponse;
  @ApiPropertyOptional({ type: RolloutThresholdResponse }) threshold?: RolloutThresholdResponse;
}

export class RolloutListResponse {
  @ApiProperty({ type: [RolloutResponse], description: 'The rollouts (Flipt names this field `rules`)' }) rules!: RolloutResponse[];
  @ApiProperty() nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}
