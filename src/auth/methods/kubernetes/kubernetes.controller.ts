import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth.decorators';
import { CreateTokenResponse } from '../token/token.dto';
import { ServiceAccountRequest } from './kubernetes.dto';
import { KubernetesService } from './kubernetes.service';

/** Open: the service-account token is the credential. `orchestrator` is the seed's name for the same route. */
@Public()
@ApiTags('authentication')
@Controller(['auth/v1/method/kubernetes', 'auth/v1/method/orchestrator'])
export class KubernetesController {
  constructor(private readonly kubernetes: KubernetesService) {}

  @Post('serviceaccount')
  @HttpCode(200)
  @ApiOkResponse({ type: CreateTokenResponse })
  exchange(@Body() body: ServiceAccountRequest): Promise<CreateTokenResponse> {
    return this.kubernetes.exchange(body.serviceAccountToken);
  }
}
