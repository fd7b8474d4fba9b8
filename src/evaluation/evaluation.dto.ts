/**
 * The evaluation routes' Swagger DTOs, made from their schemas (evaluation.schemas.ts) rather than written beside
 * them: each is a class named after its OpenAPI component, its properties decorated with the schema's fields, so the
 * document keeps one component per message and `$ref`s between them. Nothing reads these classes at run time but
 * Swagger: bodies are parsed by evaluation-request.ts.
 */
import type { Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  BATCH_EVALUATION_REQUEST, BATCH_EVALUATION_RESPONSE, BOOLEAN_EVALUATION_RESPONSE, ERROR_EVALUATION_RESPONSE,
  EVALUATION_REQUEST, EVALUATION_RESPONSE, LEGACY_BATCH_EVALUATION_REQUEST, LEGACY_BATCH_EVALUATION_RESPONSE,
  LEGACY_EVALUATION_REQUEST, LEGACY_EVALUATION_RESPONSE, VARIANT_EVALUATION_RESPONSE,
} from './evaluation.schemas';
import { type FieldSchema, isMessage, type MessageSchema } from './message-schema';

const made = new Map<MessageSchema, Type>();

/** The DTO of a message made earlier: nested messages are `$ref`s to their own components. */
function madeFor(schema: MessageSchema): Type {
  const dto = made.get(schema);
  if (!dto) throw new Error('make the DTO of a nested message before the message that holds it');
  return dto;
}

function propertyOptions(field: FieldSchema, required: boolean): ApiPropertyOptions {
  if (isMessage(field)) return { type: madeFor(field), required };
  if (field.type === 'array' && isMessage(field.items)) {
    const { items, ...documentation } = field;
    return { ...documentation, type: [madeFor(items)], required } as ApiPropertyOptions;
  }
  return { ...field, required } as ApiPropertyOptions;
}

function swaggerDto(name: string, schema: MessageSchema): Type {
  const dto = { [name]: class {} }[name];
  const required = new Set<string>(schema.required);
  for (const [key, field] of Object.entries(schema.properties)) ApiProperty(propertyOptions(field, required.has(key)))(dto.prototype, key);
  made.set(schema, dto);
  return dto;
}

export const EvaluationRequestDto = swaggerDto('EvaluationRequest', EVALUATION_REQUEST);
export const BatchEvaluationRequestDto = swaggerDto('BatchEvaluationRequest', BATCH_EVALUATION_REQUEST);
export const VariantEvaluationResponseDto = swaggerDto('VariantEvaluationResponse', VARIANT_EVALUATION_RESPONSE);
export const BooleanEvaluationResponseDto = swaggerDto('BooleanEvaluationResponse', BOOLEAN_EVALUATION_RESPONSE);
swaggerDto('ErrorEvaluationResponse', ERROR_EVALUATION_RESPONSE);
swaggerDto('EvaluationResponse', EVALUATION_RESPONSE);
export const BatchEvaluationResponseDto = swaggerDto('BatchEvaluationResponse', BATCH_EVALUATION_RESPONSE);
export const LegacyEvaluationRequestDto = swaggerDto('LegacyEvaluationRequest', LEGACY_EVALUATION_REQUEST);
export const LegacyBatchEvaluationRequestDto = swaggerDto('LegacyBatchEvaluationRequest', LEGACY_BATCH_EVALUATION_REQUEST);
export const LegacyEvaluationResponseDto = swaggerDto('LegacyEvaluationResponse', LEGACY_EVALUATION_RESPONSE);
export const LegacyBatchEvaluationResponseDto = swaggerDto('LegacyBatchEvaluationResponse', LEGACY_BATCH_EVALUATION_RESPONSE);
