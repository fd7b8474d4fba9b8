import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, EnumField, ObjectField, StringField } from '../common/dto-fields';
import { SearchableListQuery } from '../common/list.dto';
import { FLAG_TYPE_NAMES, FLAG_TYPES_BY_NAME, FlagType } from '../wire';

/** The flag list's query: paging, search and order, and three Flagpole filters. */
export class FlagListQuery extends SearchableListQuery {
  @EnumField(FLAG_TYPES_BY_NAME, { description: 'Flagpole addition: only flags of this type' })
  type?: FlagType;

  @BoolField({ description: 'Flagpole addition: only enabled (true) or disabled (false) flags' })
  enabled?: boolean;

  @BoolField({ description: 'Flagpole addition: only flags the last lifecycle check found potentially stale (true), or only the others (false)' })
  stale?: boolean;
}

export class CreateFlagRequest {
  @StringField({ required: true, example: 'new-checkout' })
  key?: string;

  @StringField({ required: true, example: 'New checkout' })
  name?: string;

  @StringField()
  description?: string;

  @BoolField()
  enabled?: boolean;

  @EnumField(FLAG_TYPES_BY_NAME, { description: 'Default VARIANT_FLAG_TYPE' })
  type?: FlagType;

  @ObjectField({ description: 'Free-form JSON object; Flagpole reads `flagpole: {kind, archived}` in it (docs/api.md, Flag lifecycle)' })
  metadata?: Record<string, unknown>;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class UpdateFlagRequest {
  @StringField({ required: true })
  name?: string;

  @StringField()
  description?: string;

  @BoolField()
  enabled?: boolean;

  @StringField({ description: 'Id of one of the flag\'s variants; empty clears the default variant' })
  defaultVariantId?: string;

  @ObjectField({ description: 'Absent: unchanged; {}: cleared; object: replaced. Flagpole reads `flagpole: {kind, archived}` in it (docs/api.md, Flag lifecycle)' })
  metadata?: Record<string, unknown>;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class VariantRequest {
  @StringField({ required: true, example: 'blue' })
  key?: string;

  @StringField()
  name?: string;

  @StringField()
  description?: string;

  @StringField({ description: 'JSON text, at most 1000 KB', example: '{"color":"blue"}' })
  attachment?: string;

  @StringField({ description: 'Legacy routes only' })
  namespaceKey?: string;
}

export class VariantResponse {
  @ApiProperty() id!: string;
  @ApiProperty() flagKey!: string;
  @ApiProperty() key!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ description: 'JSON text or ""' }) attachment!: string;
  @ApiProperty() namespaceKey!: string;
}

export class FlagResponse {
  @ApiProperty() key!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: [VariantResponse] }) variants!: VariantResponse[];
  @ApiProperty() namespaceKey!: string;
  @ApiProperty({ enum: Object.values(FLAG_TYPE_NAMES) }) type!: string;
  @ApiPropertyOptional({ type: VariantResponse }) defaultVariant?: VariantResponse;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) metadata?: Record<string, unknown>;
}

export class FlagListResponse {
  @ApiProperty({ type: [FlagResponse] }) flags!: FlagResponse[];
  @ApiProperty() nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}
