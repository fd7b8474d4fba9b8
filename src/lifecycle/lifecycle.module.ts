/**
 * Flag lifecycle (docs/api.md, Flag lifecycle): the periodic check that judges and stores every flag's state (and
 * its gauge), and the routes that read it, mounted only with `lifecycle.enabled`. The kind and archive marks are
 * the flag's metadata, checked by the flag service (flags/lifecycle-metadata.ts); the `?stale` list filter is the
 * flag list's (storage/stale-filter.ts).
 */
import { DynamicModule, Module } from '@nestjs/common';
import { AnalyticsUsage } from '../analytics/analytics-usage';
import { OperationLocks } from '../auth/operation-lock.service';
import type { FlagpoleConfig } from '../config/config.types';
import { LifecycleCheck } from './lifecycle-check';
import { LifecycleController } from './lifecycle.controller';
import { LifecycleRepository } from './lifecycle.repository';
import { LifecycleService } from './lifecycle.service';

@Module({})
export class LifecycleModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    return {
      module: LifecycleModule,
      controllers: config.lifecycle.enabled ? [LifecycleController] : [],
      providers: [LifecycleRepository, LifecycleCheck, LifecycleService, AnalyticsUsage, OperationLocks],
    };
  }
}
