/**
 * JSON schemas of the three `/evaluate/v1/*` answers, given to Fastify as their 200 response schemas so that it
 * serialises them with a compiled serialiser (fast-json-stringify) instead of JSON.stringify. A serialiser writes only
 * the properties listed here: these lists must hold every field of the DTOs in evaluation.dto.ts (the e2e suites
 * compare whole bodies, so a missing field fails them).
 */
const stringList = { type: 'array', items: { type: 'string' } } as const;

/** The fields every single answer carries, in the order Flagpole writes them. */
const STAMP = {
  requestId: { type: 'string' },
  requestDurationMillis: { type: 'number' },
  timestamp: { type: 'string' },
  flagKey: { type: 'string' },
} as const;

export const VARIANT_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    match: { type: 'boolean' },
    segmentKeys: stringList,
    reason: { type: 'string' },
    variantKey: { type: 'string' },
    variantAttachment: { type: 'string' },
    ...STAMP,
  },
} as const;

export const BOOLEAN_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    reason: { type: 'string' },
    ...STAMP,
    segmentKeys: stringList,
  },
} as const;

const ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { flagKey: { type: 'string' }, namespaceKey: { type: 'string' }, reason: { type: 'string' } },
} as const;

export const BATCH_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    requestId: { type: 'string' },
    responses: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          booleanResponse: BOOLEAN_RESPONSE_SCHEMA,
          variantResponse: VARIANT_RESPONSE_SCHEMA,
          errorResponse: ERROR_RESPONSE_SCHEMA,
        },
      },
    },
    requestDurationMillis: { type: 'number' },
  },
} as const;
