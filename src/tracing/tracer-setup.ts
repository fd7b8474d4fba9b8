/**
 * The OpenTelemetry SDK behind an enabled Tracing (tracing.ts requires this file only then, so that a start with
 * tracing off loads none of the SDK and its exporters: about 50 ms of module loading).
 */
import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from '../config/config.types';
import { buildInfo } from '../meta/build-info';
import { propagator } from './propagation';
import { telemetryResource } from './resource';
import { EXPORT_TIMEOUT_MS, spanExporter } from './span-exporter';

export interface TracerSetup {
  tracer: Tracer;
  propagator: TextMapPropagator;
  shutdown: () => Promise<void>;
}

export function tracerSetup(config: TracingConfig): TracerSetup {
  const provider = new BasicTracerProvider({
    resource: telemetryResource(config),
    sampler: new TraceIdRatioBasedSampler(config.samplingRatio),
    spanProcessors: [
      new BatchSpanProcessor(spanExporter(config), { maxQueueSize: 2048, maxExportBatchSize: 512, exportTimeoutMillis: EXPORT_TIMEOUT_MS }),
    ],
  });
  return { tracer: provider.getTracer('flagpole', buildInfo().version), propagator: propagator(config.propagators), shutdown: () => provider.shutdown() };
}
