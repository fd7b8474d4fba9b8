import { ApiProperty } from '@nestjs/swagger';
import { EnumField, IntField, NumberField, StringField, StringListField } from '../common/dto-fields';
import { SEGMENT_OPERATOR_NAMES, SEGMENT_OPERATORS_BY_NAME, SegmentOperator } from '../wire';

export class RuleRequest {
  @StringField({ description: 'Deprecated: a single segment (use segmentKeys)' })
  segmentKey?: string;

  @StringListField({ example: ['beta-users'] })
  segmentKeys?: string[];

  @EnumField(SEGMENT_OPERATORS_BY_NAME, { description: 'Default OR_SEGMENT_OPERATOR; forced to OR for one segment' })
  segmentOperator?: SegmentOperator;

  @IntField({ description: 'Create only; must be greater than 0' })
  rank?: number;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class OrderRulesRequest {
  @StringListField({ required: true, description: 'Rule ids in their new order' })
  ruleIds?: string[];

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class DistributionRequest {
  @StringField({ required: true })
  variantId?: string;

  @NumberField({ description: 'Percentage 0–100', example: 50 })
  rollout?: number;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class DeleteDistributionQuery {
  @StringField({ required: true })
  variantId?: string;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class DistributionResponse {
  @ApiProperty() id!: string;
  @ApiProperty() ruleId!: string;
  @ApiProperty() variantId!: string;
  @ApiProperty() rollout!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class RuleResponse {
  @ApiProperty() id!: string;
  @ApiProperty() flagKey!: string;
  @ApiProperty({ description: 'The segment when the rule has exactly one, else ""' }) segmentKey!: string;
  @ApiProperty({ type: [DistributionResponse] }) distributions!: DistributionResponse[];
  @ApiProperty() rank!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty({ type: [String], description: 'The segments when the rule has two or more, else []' }) segmentKeys!: string[];
  @ApiProperty({ enum: Object.values(SEGMENT_OPERATOR_NAMES) }) segmentOperator!: string;
}

export class RuleListResponse {
  @ApiProperty({ type: [RuleResponse] }) rules!: RuleResponse[];
  @ApiProperty() nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}
