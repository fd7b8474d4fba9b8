/**
 * What the configuration loader checks of `tracing.*` and `metrics.otlp` (config.rules.ts calls it): endpoints that
 * cannot be used are refused as the configuration loads, settings Flagpole cannot honour are warned about.
 */
import type { RuleContext } from './config.rule';
import type { FlagpoleConfig, TracingPropagator } from './config.types';
import { otlpEndpointProblem } from './otlp-endpoint';

/** The propagators propagation.ts composes (`none` adds nothing). */
export const SUPPORTED_PROPAGATORS: readonly TracingPropagator[] = ['tracecontext', 'baggage', 'b3', 'b3multi', 'none'];

export function checkTelemetry(config: FlagpoleConfig, ctx: RuleContext): void {
  const { tracing, metrics } = config;
  if (metrics.exporter === 'otlp') {
    const problem = otlpEndpointProblem(metrics.otlp.endpoint);
    if (problem) ctx.issue(['metrics', 'otlp', 'endpoint'], problem);
  }
  if (!tracing.enabled) return;
  if (tracing.exporter === 'otlp') {
    const problem = otlpEndpointProblem(tracing.otlp.endpoint);
    if (problem) ctx.issue(['tracing', 'otlp', 'endpoint'], problem);
  }
  if (tracing.exporter === 'zipkin' && !/^https?:\/\/[^/]/i.test(tracing.zipkin.endpoint.trim())) {
    ctx.issue(['tracing', 'zipkin', 'endpoint'], `must be an http or https URL, got ${JSON.stringify(tracing.zipkin.endpoint)}`);
  }
  if (tracing.exporter === 'jaeger') {
    ctx.warn(
      `tracing.exporter "jaeger" is deprecated: Flagpole sends OTLP/gRPC to ${tracing.jaeger.host}:4317 (Jaeger's OTLP receiver); ` +
        'use exporter "otlp" to name the endpoint yourself',
    );
  }
  const unsupported = tracing.propagators.filter((p) => !SUPPORTED_PROPAGATORS.includes(p));
  if (unsupported.length > 0) {
    ctx.warn(`tracing.propagators ${unsupported.join(', ')}: not supported by Flagpole, ignored (${SUPPORTED_PROPAGATORS.join(', ')} are)`);
  }
}
