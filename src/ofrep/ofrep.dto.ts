/**
 * The OFREP routes' Swagger DTOs, after OFREP's `service/openapi.yaml` (v0.3.0) with Flipt's additions. Nothing reads
 * these classes at run time but Swagger: bodies are parsed by ofrep-request.ts and answers made by ofrep-answer.ts.
 */
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { OFREP_ERROR_CODES, OFREP_REASONS } from './ofrep-answer';

const CONTEXT = {
  type: 'object',
  additionalProperties: true,
  description:
    'OpenFeature evaluation context. `targetingKey` is the entity (a random UUID per request when absent); strings, ' +
    'numbers and booleans are compared as their text, `null` as "", nested objects and arrays as their JSON text.',
  example: { targetingKey: 'user-42', plan: 'pro' },
} as const;

export class OfrepEvaluationRequest {
  @ApiPropertyOptional(CONTEXT)
  context?: Record<string, unknown>;
}

export class OfrepBulkEvaluationRequest {
  @ApiPropertyOptional({
    ...CONTEXT,
    description: `${CONTEXT.description} \`flags\` (Flipt's extension): comma-separated keys to evaluate, at most limits.max_batch_requests; without it, every boolean flag and every enabled variant flag.`,
    example: { targetingKey: 'user-42', flags: 'new-checkout,banner' },
  })
  context?: Record<string, unknown>;
}

export class OfrepEvaluationSuccess {
  @ApiProperty({ example: 'new-checkout' })
  key!: string;

  @ApiProperty({ enum: Object.values(OFREP_REASONS), description: 'DEFAULT is Flipt\'s addition to OFREP\'s reasons' })
  reason!: string;

  @ApiProperty({ description: 'Variant key; "true" or "false" for boolean flags', example: 'blue' })
  variant!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Variant flags: `segments` (matched segment keys, comma-joined) and `attachment` (JSON text), when not empty',
    example: { segments: 'beta-users', attachment: '{"color":"blue"}' },
  })
  metadata!: Record<string, string>;

  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string' }], description: 'Boolean flags: the boolean; variant flags: the variant key' })
  value!: boolean | string;
}

export class OfrepEvaluationFailure {
  @ApiProperty({ example: 'new-checkout' })
  key!: string;

  @ApiProperty({ enum: [...OFREP_ERROR_CODES] })
  errorCode!: string;

  @ApiProperty({ example: 'flag was not found new-checkout' })
  errorDetails!: string;
}

class OfrepEventStreamEndpoint {
  @ApiProperty({
    example: '/ofrep/v1/_stream/default/events',
    description: 'Path of the stream on the origin the client called (with the `X-Forwarded-Prefix` the request came through); to an authenticated caller, with a `ticket` query parameter that opens the stream without a header (docs/api.md "Stream tickets")',
  })
  requestUri!: string;
}

export class OfrepEventStream {
  @ApiProperty({ enum: ['sse'] })
  type!: string;

  @ApiProperty({ type: OfrepEventStreamEndpoint })
  endpoint!: OfrepEventStreamEndpoint;

  @ApiProperty({ example: 120, description: '`streams.inactivity_delay`: how long a client hidden in the background keeps the stream open' })
  inactivityDelaySec!: number;
}

export class OfrepBulkEvaluationSuccess {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(OfrepEvaluationSuccess) }, { $ref: getSchemaPath(OfrepEvaluationFailure) }] },
    description: 'One item per flag; a flag that could not be evaluated is a failure item',
  })
  flags!: Array<OfrepEvaluationSuccess | OfrepEvaluationFailure>;

  @ApiProperty({
    type: [OfrepEventStream],
    required: false,
    description: "The namespace's event stream (OFREP ADR-0008); absent when `limits.max_event_streams` is 0",
  })
  eventStreams?: OfrepEventStream[];
}

export class OfrepBulkEvaluationFailure {
  @ApiProperty({ enum: [...OFREP_ERROR_CODES] })
  errorCode!: string;

  @ApiProperty({ example: 'invalid values for key(s) in json body: context must be an object' })
  errorDetails!: string;
}

class OfrepPolling {
  @ApiProperty({ description: '`cache.enabled`' })
  enabled!: boolean;

  @ApiProperty({ description: '`cache.ttl` in milliseconds while the cache is enabled, else 0' })
  minPollingIntervalMs!: number;
}

class OfrepCacheInvalidation {
  @ApiProperty({ type: OfrepPolling })
  polling!: OfrepPolling;
}

class OfrepFlagEvaluation {
  @ApiProperty({ type: [String], example: ['string', 'boolean'] })
  supportedTypes!: string[];
}

class OfrepCapabilities {
  @ApiProperty({ type: OfrepCacheInvalidation })
  cacheInvalidation!: OfrepCacheInvalidation;

  @ApiProperty({ type: OfrepFlagEvaluation })
  flagEvaluation!: OfrepFlagEvaluation;
}

export class OfrepConfiguration {
  @ApiProperty({ example: 'flagpole' })
  name!: string;

  @ApiProperty({ type: OfrepCapabilities })
  capabilities!: OfrepCapabilities;
}
