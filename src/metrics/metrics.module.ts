/**
 * Prometheus metrics at `GET /metrics` (docs/deployment.md lists them). Global, so the evaluation service and later
 * the cache can inject their recorders without importing anything. With `metrics.enabled: false` the recorders do
 * nothing and `/metrics` is not served.
 */
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { MetricsConfig } from '../config/config.types';
import { CacheMetrics } from './cache.metrics';
import { DatabasePoolMetrics } from './database-pool.metrics';
import { EvaluationMetrics } from './evaluation.metrics';
import { HttpMetrics } from './http.metrics';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics.registry';
import { OtlpMetricsPush } from './otlp-metrics';

@Global()
@Module({})
export class MetricsModule {
  static forRoot(config: MetricsConfig): DynamicModule {
    return {
      module: MetricsModule,
      controllers: config.enabled ? [MetricsController] : [],
      providers: [MetricsRegistry, HttpMetrics, EvaluationMetrics, CacheMetrics, DatabasePoolMetrics, OtlpMetricsPush],
      exports: [MetricsRegistry, EvaluationMetrics, CacheMetrics],
    };
  }
}
