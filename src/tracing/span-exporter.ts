/**
 * The span exporter `tracing.exporter` names. Jaeger's own exporter is gone from OpenTelemetry JS (its agent spoke
 * Thrift over UDP); Jaeger has received OTLP since 1.35, so `jaeger` sends OTLP/gRPC to its port 4317 on
 * `tracing.jaeger.host` (config warns about it, as Flipt warns that `jaeger` is deprecated).
 */
import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from '../config/config.types';
import { otlpTransport } from '../config/otlp-endpoint';

/** How long one export may take before it is given up (the batch is dropped; requests never wait for it). */
export const EXPORT_TIMEOUT_MS = 10_000;

export function spanExporter(config: TracingConfig): SpanExporter {
  switch (config.exporter) {
    case 'zipkin':
      return new ZipkinExporter({ url: config.zipkin.endpoint });
    case 'jaeger':
      return otlpSpanExporter(`grpc://${config.jaeger.host}:4317`, {});
    case 'otlp':
      return otlpSpanExporter(config.otlp.endpoint, config.otlp.headers);
  }
}

function otlpSpanExporter(endpoint: string, headers: Record<string, string>): SpanExporter {
  const transport = otlpTransport(endpoint, 'traces');
  const common = { url: transport.url, timeoutMillis: EXPORT_TIMEOUT_MS };
  if (transport.kind === 'grpc') return new GrpcTraceExporter({ ...common, metadata: grpcMetadata(headers) });
  return transport.json ? new JsonTraceExporter({ ...common, headers }) : new ProtoTraceExporter({ ...common, headers });
}

/** `headers` as gRPC metadata (keys lower-cased, as gRPC requires). */
export function grpcMetadata(headers: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
  return metadata;
}
