/**
 * HTTP health, in Flipt's shape: 200 `{"status":"SERVING"}`, or Flipt's error body — 503 code 14 with a message
 * naming what is down, 404 code 5 for an unknown `?service=`. docs/deployment.md says which probe uses which route.
 * `/health`'s details (declarative storage, the authorization policy) go, with `authentication.required`, only to a
 * caller whose credential is valid; the status and its code are the same for everyone.
 */
import { Controller, Get, HttpCode, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { CurrentAuthentication, IdentifiesCaller, Public } from '../auth/auth.decorators';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { DomainError, UnavailableError } from '../common/errors';
import { GrpcCode } from '../common/grpc-status';
import { OVERALL } from './grpc-health.server';
import { HealthService } from './health.service';

class HealthResponse {
  @ApiProperty({ example: 'SERVING' }) status!: 'SERVING';

  @ApiPropertyOptional({
    description: 'With declarative storage (`storage.type: local`): its path, when its files last reached the database, and `error`, why the latest change of the files was refused (the last good state keeps serving)',
    example: { type: 'local', path: '/flags', appliedAt: '2026-11-27T10:00:00.000Z', files: 3 },
  })
  storage?: Record<string, unknown>;
}

class HealthQuery {
  @ApiPropertyOptional({ description: 'gRPC health service name; only "" (the whole server) is known' })
  @IsOptional()
  @IsString()
  service?: string;
}

/** The gRPC health service's answer for a service it does not know, as grpc-gateway relays it. */
class UnknownServiceError extends DomainError {
  readonly code = GrpcCode.NotFound;
  constructor() {
    super('unknown service');
  }
}

const SERVING: HealthResponse = { status: 'SERVING' };

/**
 * Never asks for a credential, as Flipt's `/health` sits outside its authentication group (probes and load balancers
 * have none); `/health` looks at one sent, for its details.
 */
@Public()
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Everything Flagpole depends on, checked now: the database (and Redis, when configured). As Flipt's `/health`. */
  @Get()
  @IdentifiesCaller()
  @HttpCode(200)
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ description: 'NOT_SERVING: a dependency is unreachable, or Flagpole is shutting down' })
  async check(@Query() query: HealthQuery, @CurrentAuthentication() caller: AuthenticationRecord | undefined): Promise<HealthResponse> {
    if (query.service !== undefined && query.service !== OVERALL) throw new UnknownServiceError();
    const report = await this.health.check();
    if (!report.serving) throw new UnavailableError(`NOT_SERVING: ${report.reason}`);
    const details = this.health.detailsFor(caller);
    return Object.keys(details).length > 0 ? { ...SERVING, ...details } : SERVING;
  }

  /** Liveness: the process answers HTTP. Never fails for a dependency (restarting would not bring a database back). */
  @Get('live')
  @ApiOkResponse({ type: HealthResponse })
  live(): HealthResponse {
    return SERVING;
  }

  /** Readiness: started and not shutting down — 503 from SIGTERM on, so load balancers stop sending requests. */
  @Get('ready')
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ description: 'NOT_SERVING: shutting down' })
  ready(): HealthResponse {
    if (!this.health.isReady()) throw new UnavailableError('NOT_SERVING: shutting down');
    return SERVING;
  }
}
