import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EnumField, IntField, StringField } from '../common/dto-fields';
import { ValidationError } from '../common/errors';
import { Method } from './auth-method';

/** `METHOD_TOKEN` → 1, …: what the `method` query parameter accepts besides the numbers. */
export const METHOD_NUMBERS: Record<string, number> = Object.fromEntries(
  Object.entries(Method).filter(([name]) => Number.isNaN(Number(name))),
) as Record<string, number>;

export class ListTokensQuery {
  @EnumField(METHOD_NUMBERS, { description: 'Only authentications of this method; METHOD_NONE or absent = all' })
  method?: number;

  @IntField({ description: 'Page size: 25 when absent or 0, at most 100' })
  limit?: number;

  @StringField({ description: 'nextPageToken of the previous page' })
  pageToken?: string;
}

export class ExpireSelfQuery {
  @StringField({ description: 'RFC 3339 time to expire at, no later than the current expiry; absent = now' })
  expiresAt?: string;
}

export class AuthenticationResponse {
  @ApiProperty({ description: 'Empty for JWT authentications, which are not stored' }) id!: string;
  @ApiProperty({ enum: Object.keys(METHOD_NUMBERS) }) method!: string;
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata!: Record<string, string>;
}

export class AuthenticationListResponse {
  @ApiProperty({ type: [AuthenticationResponse] }) authentications!: AuthenticationResponse[];
  @ApiProperty({ description: 'Offset of the next page; empty on the last page' }) nextPageToken!: string;
}

export class MethodInfoResponse {
  @ApiProperty({ enum: Object.keys(METHOD_NUMBERS) }) method!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() sessionCompatible!: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Login URLs of the OIDC providers / GitHub' }) metadata?: Record<string, unknown>;
}

export class MethodListResponse {
  @ApiProperty({ type: [MethodInfoResponse] }) methods!: MethodInfoResponse[];
}
