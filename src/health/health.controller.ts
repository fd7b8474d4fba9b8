import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, MikroOrmHealthIndicator } from '@nestjs/terminus';

class HealthResponse {
  @ApiProperty({ example: 'SERVING' }) status!: string;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: MikroOrmHealthIndicator,
  ) {}

  @Get()
  @HttpCode(200)
  @ApiOkResponse({ type: HealthResponse })
  async check(): Promise<HealthResponse> {
    try {
      await this.health.check([() => this.database.pingCheck('database', { timeout: 1500 })]);
    } catch {
      throw new ServiceUnavailableException('NOT_SERVING: database is unreachable');
    }
    return { status: 'SERVING' };
  }
}
