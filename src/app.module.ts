import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { StreamTicketsModule } from './auth/stream-tickets.module';
import { AuthorizationModule } from './authorization/authorization.module';
import { CacheModule } from './cache/cache.module';
import { ClockModule } from './common/clock';
import { RouteRegistry } from './common/route-registry';
import { ConfigModule } from './config/config.module';
import { ENTITIES } from './entities';
import type { FlagpoleConfig } from './config/config.types';
import { EvaluationModule } from './evaluation/evaluation.module';
import { FlagsModule } from './flags/flags.module';
import { FlagsAsCodeModule } from './flags-as-code/flags-as-code.module';
import { DeclarativeModule } from './declarative/declarative.module';
import { HealthModule } from './health/health.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { LoggingModule } from './logging/logging.module';
import { MetaModule } from './meta/meta.module';
import { MetricsModule } from './metrics/metrics.module';
import { NamespacesModule } from './namespaces/namespaces.module';
import { OfrepModule } from './ofrep/ofrep.module';
import { PermissionsModule } from './permissions/permissions.module';
import { ProcessDuties } from './process-duties';
import { RolloutsModule } from './rollouts/rollouts.module';
import { RulesModule } from './rules/rules.module';
import { SchedulesModule } from './schedules/schedules.module';
import { SegmentsModule } from './segments/segments.module';
import { StorageModule } from './storage/storage.module';
import { Tracing } from './tracing/tracing';
import { TracingModule } from './tracing/tracing.module';
import { UiModule } from './ui/ui.module';
import { WriteWorker } from './write-worker/write-worker.service';

@Module({})
export class AppModule {
  /**
   * The application's module graph. `withDuties`: whether this process starts its process duties
   * (common/process-duty.ts) — the server does; the write worker (write-worker/, app.ts) does not.
   */
  static forRoot(config: FlagpoleConfig, routes: RouteRegistry, tracing: Tracing = Tracing.OFF, withDuties = true): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ClockModule,
        TracingModule.forRoot(tracing),
        StorageModule.forRoot(config.db, ENTITIES),
        LoggingModule,
        MetricsModule.forRoot(config.metrics),
        HealthModule,
        CacheModule.forRoot(config),
        MetaModule,
        AuditModule,
        AuthorizationModule,
        PermissionsModule,
        NamespacesModule,
        FlagsModule,
        SegmentsModule,
        RulesModule,
        RolloutsModule,
        SchedulesModule,
        FlagsAsCodeModule,
        DeclarativeModule,
        AnalyticsModule.forRoot(config),
        LifecycleModule.forRoot(config),
        EvaluationModule,
        OfrepModule,
        AuthModule.forRoot(config),
        StreamTicketsModule,
        UiModule,
        ...(withDuties ? [DiscoveryModule] : []),
      ],
      // The duties start before the write worker does, as they did when each started in its own module's hook.
      providers: [{ provide: RouteRegistry, useValue: routes }, ...(withDuties ? [ProcessDuties] : []), WriteWorker],
    };
  }
}
