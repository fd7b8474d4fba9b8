import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ConnectionDrain } from './connection-drain';
import { GrpcHealthServer } from './grpc-health.server';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

// Terminus's GRPCHealthIndicator is never injected: without @nestjs/microservices it calls process.exit (stack.md §7).
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthService, GrpcHealthServer, ConnectionDrain],
  exports: [HealthService, GrpcHealthServer],
})
export class HealthModule {}
