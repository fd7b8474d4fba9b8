import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { StreamTicketsModule } from './auth/stream-tickets.module';
import { AuthorizationModule } from './authorization/authorization.module';
import { CacheModule } from './cache/cache.module';
import { RouteRegistry } from './common/route-registry';
import { ConfigModule } from './config/config.module';
import type { FlagpoleConfig } from './config/config.types';
import { EvaluationModule } from './evaluation/evaluation.module';
import { FlagsModule } from './flags/flags.module';
import { FlagsAsCodeModule } from './flags-as-code/flags-as-code.module';
import { DeclarativeModule } from './declarative/declarative.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetaModule } from './meta/meta.module';
import { MetricsModule } from './metrics/metrics.module';
import { NamespacesModule } from './namespaces/namespaces.module';
import { OfrepModule } from './ofrep/ofrep.module';
import { RolloutsModule } from './rollouts/rollouts.module';
import { RulesModule } from './rules/rules.module';
import { SegmentsModule } from './segments/segments.module';
import { StorageModule } from './storage/storage.module';
import { Tracing } from './tracing/tracing';
import { TracingModule } from './tracing/tracing.module';
import { UiModule } from './ui/ui.module';
import { WriteWorker } from './write-worker/write-worker.service';

@Module({})
export class AppModule {
  static forRoot(config: FlagpoleConfig, routes: RouteRegistry, tracing: Tracing = Tracing.OFF): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TracingModule.forRoot(tracing),
        StorageModule.forRoot(config.db),
        LoggingModule,
        MetricsModule.forRoot(config.metrics),
        HealthModule,
        CacheModule.forRoot(config),
        MetaModule,
        AuditModule,
        AuthorizationModule,
        NamespacesModule,
        FlagsModule,
        SegmentsModule,
        RulesModule,
        RolloutsModule,
        FlagsAsCodeModule,
        DeclarativeModule,
        EvaluationModule,
        OfrepModule,
        AuthModule.forRoot(config),
        StreamTicketsModule,
        UiModule,
      ],
      providers: [{ provide: RouteRegistry, useValue: routes }, WriteWorker],
    };
  }
}
