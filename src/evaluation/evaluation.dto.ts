/**
 * Evaluation request and response shapes, for Swagger. The evaluation routes parse bodies by hand
 * (evaluation-request.ts) instead of through class-validator: they are the hot path.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_KEY_LENGTH } from '../storage/columns';
import { ERROR_REASON_NAMES, LEGACY_REASON_NAMES, REASON_NAMES, RESPONSE_TYPE_NAMES } from '../wire';

const REASONS = Object.values(REASON_NAMES);

export class EvaluationRequest {
  @ApiPropertyOptional({ description: 'Echoed back; generated when absent' }) requestId?: string;
  @ApiPropertyOptional({ description: 'Default `default`', maxLength: MAX_KEY_LENGTH }) namespaceKey?: string;
  @ApiProperty({ example: 'new-checkout', maxLength: MAX_KEY_LENGTH }) flagKey!: string;
  @ApiProperty({ example: 'user-42' }) entityId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { plan: 'pro' } }) context!: Record<string, string>;
  @ApiPropertyOptional({ description: 'Ignored (declarative backends only)' }) reference?: string;
}

export class BatchEvaluationRequest {
  @ApiPropertyOptional() requestId?: string;
  @ApiProperty({ type: [EvaluationRequest], description: 'At most `limits.max_batch_requests` items over `limits.max_batch_namespaces` namespaces' })
  requests!: EvaluationRequest[];
  @ApiPropertyOptional() reference?: string;
}

export class VariantEvaluationResponse {
  @ApiProperty() match!: boolean;
  @ApiProperty({ type: [String] }) segmentKeys!: string[];
  @ApiProperty({ enum: REASONS }) reason!: string;
  @ApiProperty() variantKey!: string;
  @ApiProperty() variantAttachment!: string;
  @ApiProperty() requestId!: string;
  @ApiProperty() requestDurationMillis!: number;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty() flagKey!: string;
}

export class BooleanEvaluationResponse {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: REASONS.filter((r) => r !== REASON_NAMES.FLAG_DISABLED) }) reason!: string;
  @ApiProperty() requestId!: string;
  @ApiProperty() requestDurationMillis!: number;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty() flagKey!: string;
  @ApiProperty({ type: [String] }) segmentKeys!: string[];
}

export class ErrorEvaluationResponse {
  @ApiProperty() flagKey!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty({ enum: Object.values(ERROR_REASON_NAMES) }) reason!: string;
}

export class EvaluationResponse {
  @ApiProperty({ enum: Object.values(RESPONSE_TYPE_NAMES) })
  type!: string;
  @ApiPropertyOptional({ type: BooleanEvaluationResponse }) booleanResponse?: BooleanEvaluationResponse;
  @ApiPropertyOptional({ type: VariantEvaluationResponse }) variantResponse?: VariantEvaluationResponse;
  @ApiPropertyOptional({ type: ErrorEvaluationResponse }) errorResponse?: ErrorEvaluationResponse;
}

export class BatchEvaluationResponse {
  @ApiProperty() requestId!: string;
  @ApiProperty({ type: [EvaluationResponse] }) responses!: EvaluationResponse[];
  @ApiProperty() requestDurationMillis!: number;
}

export class LegacyEvaluationRequest {
  @ApiPropertyOptional() requestId?: string;
  @ApiProperty({ maxLength: MAX_KEY_LENGTH }) flagKey!: string;
  @ApiProperty() entityId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) context!: Record<string, string>;
  @ApiPropertyOptional({ maxLength: MAX_KEY_LENGTH }) namespaceKey?: string;
}

export class LegacyBatchEvaluationRequest {
  @ApiPropertyOptional() requestId?: string;
  @ApiProperty({ type: [LegacyEvaluationRequest], description: 'At most `limits.max_batch_requests` items' }) requests!: LegacyEvaluationRequest[];
  @ApiPropertyOptional({ description: 'Skip unknown flags instead of failing the batch' }) excludeNotFound?: boolean;
  @ApiPropertyOptional({ maxLength: MAX_KEY_LENGTH }) namespaceKey?: string;
}

export class LegacyEvaluationResponse {
  @ApiProperty() requestId!: string;
  @ApiProperty() entityId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) requestContext!: Record<string, string>;
  @ApiProperty() match!: boolean;
  @ApiProperty() flagKey!: string;
  @ApiProperty({ description: 'Deprecated: the first matched segment' }) segmentKey!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ description: 'The variant key' }) value!: string;
  @ApiProperty() requestDurationMillis!: number;
  @ApiProperty() attachment!: string;
  @ApiProperty({ enum: LEGACY_REASON_NAMES }) reason!: string;
  @ApiProperty() namespaceKey!: string;
  @ApiProperty({ type: [String] }) segmentKeys!: string[];
}

export class LegacyBatchEvaluationResponse {
  @ApiProperty() requestId!: string;
  @ApiProperty({ type: [LegacyEvaluationResponse] }) responses!: LegacyEvaluationResponse[];
  @ApiProperty() requestDurationMillis!: number;
}
