import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  BatchEvaluationRequestDto, BatchEvaluationResponseDto, BooleanEvaluationResponseDto, EvaluationRequestDto, LegacyBatchEvaluationRequestDto,
  LegacyBatchEvaluationResponseDto, LegacyEvaluationRequestDto, LegacyEvaluationResponseDto, VariantEvaluationResponseDto,
} from './evaluation.dto';
import { FastPath } from '../common/fast-path';
import { EvaluationBody } from '../common/json-body';
import {
  parseBatchEvaluationRequest, parseEvaluationRequest, parseLegacyBatchEvaluationRequest, parseLegacyEvaluationRequest,
} from './evaluation-request';
import { BOOLEAN_RESPONSE_SCHEMA, VARIANT_RESPONSE_SCHEMA } from './evaluation-response.schemas';
import type {
  BatchEvaluationResponse, BooleanEvaluationResponse, LegacyBatchEvaluationResponse, LegacyEvaluationResponse, VariantEvaluationResponse,
} from './evaluation.schemas';
import { EvaluationService } from './evaluation.service';
import { Excludable, NamespaceScoped, Needs } from '../auth/auth.decorators';

/**
 * What each `/evaluate/v1` route does with the body, the Nest handler and the fast one alike (common/fast-path.ts):
 * parse it (evaluation-request.ts), then call the service. Batch answers are serialised by JSON.stringify
 * (evaluation-response.schemas.ts says why); single ones by a compiled serialiser.
 */
const EVALUATIONS = {
  boolean: (service: EvaluationService, body: unknown) => service.boolean(parseEvaluationRequest(body)),
  variant: (service: EvaluationService, body: unknown) => service.variant(parseEvaluationRequest(body)),
  batch: (service: EvaluationService, body: unknown) => service.batch(parseBatchEvaluationRequest(body, service.maxBatchRequests)),
};

/**
 * Bodies arrive `unknown` and are parsed here, by walking their schemas (evaluation-request.ts), without the
 * validation pipe's cost; the service takes typed requests. The three `@FastPath` routes skip Nest's pipeline.
 */
@Excludable('evaluation')
@NamespaceScoped()
@Needs([{ resource: 'namespace', action: 'read' }])
@ApiTags('evaluation')
@Controller()
export class EvaluationController {
  constructor(private readonly evaluation: EvaluationService) {}

  @Post('evaluate/v1/variant')
  @EvaluationBody()
  @FastPath((c: EvaluationController) => (request) => EVALUATIONS.variant(c.evaluation, request.body), VARIANT_RESPONSE_SCHEMA)
  @HttpCode(200)
  @ApiBody({ type: EvaluationRequestDto })
  @ApiOkResponse({ type: VariantEvaluationResponseDto })
  async variant(@Body() body: unknown): Promise<VariantEvaluationResponse> {
    return EVALUATIONS.variant(this.evaluation, body);
  }

  @Post('evaluate/v1/boolean')
  @EvaluationBody()
  @FastPath((c: EvaluationController) => (request) => EVALUATIONS.boolean(c.evaluation, request.body), BOOLEAN_RESPONSE_SCHEMA)
  @HttpCode(200)
  @ApiBody({ type: EvaluationRequestDto })
  @ApiOkResponse({ type: BooleanEvaluationResponseDto })
  async boolean(@Body() body: unknown): Promise<BooleanEvaluationResponse> {
    return EVALUATIONS.boolean(this.evaluation, body);
  }

  @Post('evaluate/v1/batch')
  @EvaluationBody()
  @FastPath((c: EvaluationController) => (request) => EVALUATIONS.batch(c.evaluation, request.body))
  @NamespaceScoped('requests')
  @HttpCode(200)
  @ApiBody({ type: BatchEvaluationRequestDto })
  @ApiOkResponse({ type: BatchEvaluationResponseDto })
  async batch(@Body() body: unknown): Promise<BatchEvaluationResponse> {
    return EVALUATIONS.batch(this.evaluation, body);
  }

  @Excludable('management')
  @Post(['api/v1/evaluate', 'api/v1/namespaces/:namespaceKey/evaluate'])
  @EvaluationBody()
  @HttpCode(200)
  @ApiBody({ type: LegacyEvaluationRequestDto })
  @ApiOkResponse({ type: LegacyEvaluationResponseDto, description: 'Deprecated: use /evaluate/v1/variant' })
  async legacy(@Param('namespaceKey') ns: string | undefined, @Body() body: unknown): Promise<LegacyEvaluationResponse> {
    return this.evaluation.legacy(parseLegacyEvaluationRequest(body), ns);
  }

  @Excludable('management')
  @Post(['api/v1/batch-evaluate', 'api/v1/namespaces/:namespaceKey/batch-evaluate'])
  @EvaluationBody()
  @HttpCode(200)
  @ApiBody({ type: LegacyBatchEvaluationRequestDto })
  @ApiOkResponse({ type: LegacyBatchEvaluationResponseDto, description: 'Deprecated: use /evaluate/v1/batch' })
  async legacyBatch(@Param('namespaceKey') ns: string | undefined, @Body() body: unknown): Promise<LegacyBatchEvaluationResponse> {
    return this.evaluation.legacyBatch(parseLegacyBatchEvaluationRequest(body, this.evaluation.maxBatchRequests), ns);
  }
}
