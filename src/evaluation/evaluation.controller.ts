import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  BatchEvaluationRequest, BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationRequest, LegacyBatchEvaluationRequest,
  LegacyBatchEvaluationResponse, LegacyEvaluationRequest, LegacyEvaluationResponse, VariantEvaluationResponse,
} from './evaluation.dto';
import { EvaluationService } from './evaluation.service';
import { Excludable, NamespaceScoped } from '../auth/auth.decorators';

/** Bodies are typed `unknown` on purpose: the service parses them without the validation pipe's cost. */
@Excludable('evaluation')
@NamespaceScoped()
@ApiTags('evaluation')
@Controller()
export class EvaluationController {
  constructor(private readonly evaluation: EvaluationService) {}

  @Post('evaluate/v1/variant')
  @HttpCode(200)
  @ApiBody({ type: EvaluationRequest })
  @ApiOkResponse({ type: VariantEvaluationResponse })
  async variant(@Body() body: unknown): Promise<VariantEvaluationResponse> {
    return this.evaluation.variant(body);
  }

  @Post('evaluate/v1/boolean')
  @HttpCode(200)
  @ApiBody({ type: EvaluationRequest })
  @ApiOkResponse({ type: BooleanEvaluationResponse })
  async boolean(@Body() body: unknown): Promise<BooleanEvaluationResponse> {
    return this.evaluation.boolean(body);
  }

  @Post('evaluate/v1/batch')
  @NamespaceScoped('requests')
  @HttpCode(200)
  @ApiBody({ type: BatchEvaluationRequest })
  @ApiOkResponse({ type: BatchEvaluationResponse })
  async batch(@Body() body: unknown): Promise<BatchEvaluationResponse> {
    return this.evaluation.batch(body);
  }

  @Excludable('management')
  @Post(['api/v1/evaluate', 'api/v1/namespaces/:namespaceKey/evaluate'])
  @HttpCode(200)
  @ApiBody({ type: LegacyEvaluationRequest })
  @ApiOkResponse({ type: LegacyEvaluationResponse, description: 'Deprecated: use /evaluate/v1/variant' })
  legacy(@Param('namespaceKey') ns: string | undefined, @Body() body: unknown): Promise<LegacyEvaluationResponse> {
    return this.evaluation.legacy(body, ns);
  }

  @Excludable('management')
  @Post(['api/v1/batch-evaluate', 'api/v1/namespaces/:namespaceKey/batch-evaluate'])
  @HttpCode(200)
  @ApiBody({ type: LegacyBatchEvaluationRequest })
  @ApiOkResponse({ type: LegacyBatchEvaluationResponse, description: 'Deprecated: use /evaluate/v1/batch' })
  legacyBatch(@Param('namespaceKey') ns: string | undefined, @Body() body: unknown): Promise<LegacyBatchEvaluationResponse> {
    return this.evaluation.legacyBatch(body, ns);
  }
}
