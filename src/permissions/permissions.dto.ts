import { ApiProperty } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ACTIONS, RESOURCES } from '../authorization/policy';

const ACTION_LIST: SchemaObject = { type: 'array', items: { type: 'string', enum: [...ACTIONS] } };

const ALLOWED: SchemaObject = {
  type: 'object',
  additionalProperties: ACTION_LIST,
  description: `Allowed actions by resource (${RESOURCES.join(', ')}); a resource with none is left out`,
};

export class PermissionsResponse {
  @ApiProperty({ description: 'false: authorization is off and any authenticated caller may do everything' })
  authorizationRequired!: boolean;

  @ApiProperty({ type: [String], description: "The policy's roles the caller holds" })
  roles!: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: ACTION_LIST,
    description: 'What the caller may do outside namespaces: tokens (authentication), the audit trail of every namespace',
    example: { authentication: ['read'] },
  })
  global!: Record<string, string[]>;

  @ApiProperty({
    type: 'object',
    additionalProperties: ALLOWED,
    description: 'Per existing namespace, what the caller may do in it (namespaces where it may do nothing are left out)',
    example: { default: { namespace: ['read'], flag: ['read', 'update'], segment: ['read'] } },
  })
  namespaces!: Record<string, Record<string, string[]>>;
}
