import { ApiProperty } from '@nestjs/swagger';
import { EnumField, StringField } from '../common/dto-fields';
import { COMPARISON_TYPE_NAMES, COMPARISON_TYPES_BY_NAME, MATCH_TYPE_NAMES, MATCH_TYPES_BY_NAME, MatchType } from '../wire';

export class SegmentRequest {
  @StringField({ required: true, example: 'beta-users', description: 'Create only; letters, digits, `-`, `_`, `,`' })
  key?: string;

  @StringField({ required: true, example: 'Beta users' })
  name?: string;

  @StringField()
  description?: string;

  @EnumField(MATCH_TYPES_BY_NAME, { description: 'Default ALL_MATCH_TYPE' })
  matchType?: MatchType;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class ConstraintRequest {
  @EnumField(COMPARISON_TYPES_BY_NAME, { required: true })
  type?: number;

  @StringField({ required: true, example: 'plan' })
  property?: string;

  @StringField({ required: true, example: 'eq', description: 'Valid operators depend on the type' })
  operator?: string;

  @StringField({ example: 'pro' })
  value?: string;

  @StringField()
  description?: string;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class ConstraintResponse {
  @ApiProperty() id!: string;
  @ApiProperty() segmentKey!: string;
  @ApiProperty({ enum: Object.values(COMPARISON_TYPE_NAMES) }) type!: string;
  @ApiProperty() property!: string;
  @ApiProperty() operator!: string;
  @ApiProperty() value!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty() description!: string;
}

export class SegmentResponse {
  @ApiProperty() key!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: [ConstraintResponse] }) constraints!: ConstraintResponse[];
  @ApiProperty({ enum: Object.values(MATCH_TYPE_NAMES) }) matchType!: string;
  @ApiProperty() namespaceKey!: string;
}

export class SegmentListResponse {
  @ApiProperty({ type: [SegmentResponse] }) segments!: SegmentResponse[];
  @ApiProperty() nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}
