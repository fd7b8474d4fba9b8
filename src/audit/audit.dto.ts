import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IntField, StringField } from '../common/dto-fields';
import { AUDIT_ACTIONS, AUDIT_TYPES } from './audit-event';

export class AuditListQuery {
  @StringField({ description: 'Only events of this namespace; absent = every namespace (a namespaced token must name its own)' })
  namespaceKey?: string;

  @ApiPropertyOptional({ enum: AUDIT_TYPES, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(AUDIT_TYPES, { message: `type must be one of ${AUDIT_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS, description: 'Only events of this action' })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: string;

  @StringField({ description: 'Only events of this flag: the flag itself and its variants, rules, distributions and rollouts' })
  flagKey?: string;

  @StringField({ description: 'Only events of this segment: the segment itself and its constraints' })
  segmentKey?: string;

  @StringField({ description: "Only events whose actor's email, name or authentication method is this value" })
  actor?: string;

  @StringField({ description: "Flagpole addition: only events whose actor's email, name or authentication method contains this text, in any case" })
  actorContains?: string;

  @StringField({ description: 'RFC 3339: only events at or after this time' })
  since?: string;

  @StringField({ description: 'RFC 3339: only events before this time' })
  until?: string;

  @IntField({ description: 'Page size: 25 when absent or 0, at most 100' })
  limit?: number;

  @StringField({ description: 'nextPageToken of the previous page' })
  pageToken?: string;
}

class AuditActorResponse {
  @ApiProperty({ description: 'The authentication method (`none`, `token`, `oidc`, `github`, `kubernetes`, `jwt`)' }) authentication!: string;
  @ApiPropertyOptional() ip?: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional({ description: "The person's name, or a static token's name" }) name?: string;
  @ApiPropertyOptional() picture?: string;
}

class AuditMetadataResponse {
  @ApiProperty({ type: AuditActorResponse }) actor!: AuditActorResponse;
}

export class AuditEventResponse {
  @ApiProperty({ description: 'Time-ordered id (UUID v7)' }) id!: string;
  @ApiProperty({ example: '0.2' }) version!: string;
  @ApiProperty({ enum: AUDIT_TYPES }) type!: string;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action!: string;
  @ApiProperty({ enum: ['success', 'denied'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: AuditMetadataResponse }) metadata!: AuditMetadataResponse;
  @ApiProperty({ type: Object, description: "Flipt's audit payload of the type (docs/audit.md)" }) payload!: Record<string, unknown>;
  @ApiProperty({ type: Object, nullable: true, description: 'The same resource as the previous stored event left it; null when none is stored' })
  before!: Record<string, unknown> | null;
  @ApiPropertyOptional({ description: "The flag the event's resource belongs to (a flag, or its variant, rule, distribution or rollout): a distribution's payload does not name it" })
  flagKey?: string;
}

export class AuditListResponse {
  @ApiProperty({ type: [AuditEventResponse] }) events!: AuditEventResponse[];
  @ApiProperty({ description: "'' on the last page" }) nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}
