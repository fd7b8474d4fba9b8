/**
 * The evaluation routes' request and response shapes, each written once. From these literals come the Swagger DTOs
 * (evaluation.dto.ts), the compiled serialiser's response schemas (evaluation-response.schemas.ts), the request parser
 * (evaluation-request.ts) and the TypeScript types below (message-schema.ts says how, and why plain schemas).
 *
 * What the parser reads off a field: `maxLength` marks a key (refused when longer, or holding text no database
 * stores); a list holds messages, at most limits.max_batch_requests of them; `[UNREAD]` fields are only documented.
 */
import { MAX_KEY_LENGTH } from '../common/validation';
import { ERROR_REASON_NAMES, LEGACY_REASON_NAMES, REASON_NAMES, RESPONSE_TYPE_NAMES } from '../wire';
import { message, type Answer, type Parsed, UNREAD } from './message-schema';

const STRING = { type: 'string' } as const;
const NUMBER = { type: 'number' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const KEY = { type: 'string', maxLength: MAX_KEY_LENGTH } as const;
const STRING_LIST = { type: 'array', items: STRING } as const;
const STRING_MAP = { type: 'object', additionalProperties: STRING } as const;
const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
const REASONS = Object.values(REASON_NAMES);

export const EVALUATION_REQUEST = message(
  {
    requestId: { ...STRING, description: 'Echoed back; generated when absent' },
    namespaceKey: { ...KEY, description: 'Default `default`' },
    flagKey: { ...KEY, example: 'new-checkout' },
    entityId: { ...STRING, example: 'user-42' },
    context: { ...STRING_MAP, example: { plan: 'pro' } },
    reference: { ...STRING, description: 'Ignored (declarative backends only)', [UNREAD]: true },
  },
  ['flagKey', 'entityId', 'context'],
);

export const BATCH_EVALUATION_REQUEST = message(
  {
    requestId: STRING,
    requests: {
      type: 'array',
      items: EVALUATION_REQUEST,
      description: 'At most `limits.max_batch_requests` items over `limits.max_batch_namespaces` namespaces',
    },
    reference: { ...STRING, [UNREAD]: true },
  },
  ['requests'],
);

/** The fields every single answer carries, in the order Flagpole writes them. */
const STAMP = { requestId: STRING, requestDurationMillis: NUMBER, timestamp: TIMESTAMP, flagKey: STRING } as const;

export const VARIANT_EVALUATION_RESPONSE = message({
  match: BOOLEAN,
  segmentKeys: STRING_LIST,
  reason: { ...STRING, enum: REASONS },
  variantKey: STRING,
  variantAttachment: STRING,
  ...STAMP,
});

export const BOOLEAN_EVALUATION_RESPONSE = message({
  enabled: BOOLEAN,
  reason: { ...STRING, enum: REASONS.filter((r) => r !== REASON_NAMES.FLAG_DISABLED) },
  ...STAMP,
  segmentKeys: STRING_LIST,
});

export const ERROR_EVALUATION_RESPONSE = message({
  flagKey: STRING,
  namespaceKey: STRING,
  reason: { ...STRING, enum: Object.values(ERROR_REASON_NAMES) },
});

/** A batch item: its type and the one answer of that type. */
export const EVALUATION_RESPONSE = message(
  {
    type: { ...STRING, enum: Object.values(RESPONSE_TYPE_NAMES) },
    booleanResponse: BOOLEAN_EVALUATION_RESPONSE,
    variantResponse: VARIANT_EVALUATION_RESPONSE,
    errorResponse: ERROR_EVALUATION_RESPONSE,
  },
  ['type'],
);

export const BATCH_EVALUATION_RESPONSE = message({
  requestId: STRING,
  responses: { type: 'array', items: EVALUATION_RESPONSE },
  requestDurationMillis: NUMBER,
});

// The legacy request's fields are listed in the order the parser has always checked them.
export const LEGACY_EVALUATION_REQUEST = message(
  { requestId: STRING, namespaceKey: KEY, flagKey: KEY, entityId: STRING, context: STRING_MAP },
  ['flagKey', 'entityId', 'context'],
);

export const LEGACY_BATCH_EVALUATION_REQUEST = message(
  {
    requestId: STRING,
    requests: { type: 'array', items: LEGACY_EVALUATION_REQUEST, description: 'At most `limits.max_batch_requests` items' },
    excludeNotFound: { ...BOOLEAN, description: 'Skip unknown flags instead of failing the batch' },
    namespaceKey: KEY,
  },
  ['requests'],
);

export const LEGACY_EVALUATION_RESPONSE = message({
  requestId: STRING,
  entityId: STRING,
  requestContext: STRING_MAP,
  match: BOOLEAN,
  flagKey: STRING,
  segmentKey: { ...STRING, description: 'Deprecated: the first matched segment' },
  timestamp: TIMESTAMP,
  value: { ...STRING, description: 'The variant key' },
  requestDurationMillis: NUMBER,
  attachment: STRING,
  reason: { ...STRING, enum: LEGACY_REASON_NAMES },
  namespaceKey: STRING,
  segmentKeys: STRING_LIST,
});

export const LEGACY_BATCH_EVALUATION_RESPONSE = message({
  requestId: STRING,
  responses: { type: 'array', items: LEGACY_EVALUATION_RESPONSE },
  requestDurationMillis: NUMBER,
});

export type EvaluationRequest = Parsed<typeof EVALUATION_REQUEST>;
export type BatchEvaluationRequest = Parsed<typeof BATCH_EVALUATION_REQUEST>;
export type LegacyEvaluationRequest = Parsed<typeof LEGACY_EVALUATION_REQUEST>;
export type LegacyBatchEvaluationRequest = Parsed<typeof LEGACY_BATCH_EVALUATION_REQUEST>;
export type VariantEvaluationResponse = Answer<typeof VARIANT_EVALUATION_RESPONSE>;
export type BooleanEvaluationResponse = Answer<typeof BOOLEAN_EVALUATION_RESPONSE>;
export type EvaluationResponse = Answer<typeof EVALUATION_RESPONSE>;
export type BatchEvaluationResponse = Answer<typeof BATCH_EVALUATION_RESPONSE>;
export type LegacyEvaluationResponse = Answer<typeof LEGACY_EVALUATION_RESPONSE>;
export type LegacyBatchEvaluationResponse = Answer<typeof LEGACY_BATCH_EVALUATION_RESPONSE>;
