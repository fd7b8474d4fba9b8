/**
 * Evaluation analytics (docs/api.md, Analytics): the counts the evaluation service reports (EvaluationCounts, global
 * so that it needs no import), their flush and retention, and the routes that read them, mounted only when analytics
 * is on. The routes read through one AnalyticsReader, chosen here: the database's, or Prometheus's.
 */
import { DynamicModule, Global, Module } from '@nestjs/common';
import { OperationLocks } from '../auth/operation-lock.service';
import type { FlagpoleConfig } from '../config/config.types';
import { AnalyticsReader } from './analytics-reader';
import { analyticsStorage } from '../config/analytics-storage';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsRepository } from './analytics.repository';
import { AnalyticsRetentionTask } from './analytics-retention.task';
import { AnalyticsService } from './analytics.service';
import { DatabaseAnalyticsReader } from './database-analytics.reader';
import { EvaluationCounts } from './evaluation-counts.service';
import { PrometheusAnalyticsReader } from './prometheus-analytics.reader';

@Global()
@Module({})
export class AnalyticsModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    const storage = analyticsStorage(config);
    return {
      module: AnalyticsModule,
      controllers: storage ? [AnalyticsController] : [],
      providers: [
        EvaluationCounts, AnalyticsRepository, AnalyticsService, AnalyticsRetentionTask, OperationLocks,
        { provide: AnalyticsReader, useClass: storage === 'prometheus' ? PrometheusAnalyticsReader : DatabaseAnalyticsReader },
      ],
      exports: [EvaluationCounts, AnalyticsReader],
    };
  }
}
