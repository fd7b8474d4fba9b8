/**
 * The OpenTelemetry metrics SDK behind `metrics.exporter: otlp` (otlp-metrics.ts requires this file only then, so
 * that other starts load none of it): a periodic reader over the registry (prometheus-producer.ts) and the exporter
 * Flipt's scheme rule picks for `metrics.otlp.endpoint`.
 */
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { Registry } from 'prom-client';
import type { FlagpoleConfig, OtlpExporterConfig } from '../config/config.types';
import { otlpTransport } from '../config/otlp-endpoint';
import { telemetryResource } from '../tracing/resource';
import { EXPORT_TIMEOUT_MS, grpcMetadata } from '../tracing/span-exporter';
import { PrometheusProducer } from './prometheus-producer';

/** Starts pushing; resolves the returned shutdown after a last push. */
export function startMetricsPush(registry: Registry, config: FlagpoleConfig): () => Promise<void> {
  const { metrics, tracing } = config;
  const resource = telemetryResource(tracing);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter(metrics.otlp),
    exportIntervalMillis: metrics.exportInterval,
    exportTimeoutMillis: Math.min(EXPORT_TIMEOUT_MS, metrics.exportInterval),
    metricProducers: [new PrometheusProducer(registry, resource)],
  });
  const provider = new MeterProvider({ resource, readers: [reader] });
  return () => provider.shutdown();
}

function metricExporter(otlp: OtlpExporterConfig): PushMetricExporter {
  const transport = otlpTransport(otlp.endpoint, 'metrics');
  const common = { url: transport.url, timeoutMillis: EXPORT_TIMEOUT_MS };
  if (transport.kind === 'grpc') return new GrpcMetricExporter({ ...common, metadata: grpcMetadata(otlp.headers) });
  return transport.json ? new JsonMetricExporter({ ...common, headers: otlp.headers }) : new ProtoMetricExporter({ ...common, headers: otlp.headers });
}
