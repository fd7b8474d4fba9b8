/**
 * The audit trail (docs/audit.md): `@Audited` write routes record events through the AuditTrail, which stores them
 * and sends them to the configured sinks. Global, so every feature module's controllers can use `@Audited`.
 */
import { Global, Module } from '@nestjs/common';
import { OperationLocks } from '../auth/operation-lock.service';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditRecorder } from './audit-recorder.service';
import { AuditRepository } from './audit.repository';
import { AuditRetentionTask } from './audit-retention.task';
import { AuditTrail } from './audit-trail.service';

@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditRepository, AuditTrail, AuditRecorder, AuditInterceptor, AuditRetentionTask, OperationLocks],
  exports: [AuditTrail, AuditRecorder, AuditInterceptor],
})
export class AuditModule {}
