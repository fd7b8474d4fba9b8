/**
 * The propagators `tracing.propagators` names, composed: each reads its headers from an incoming request (the
 * first that finds a parent wins, as OpenTelemetry composes them). `jaeger`, `xray` and `ottrace` are not among
 * Flagpole's dependencies: the configuration warns (config/telemetry.rules.ts) and they are skipped.
 */
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import type { TextMapPropagator } from '@opentelemetry/api';
import type { TracingPropagator } from '../config/config.types';

export function propagator(names: readonly TracingPropagator[]): TextMapPropagator {
  const propagators: TextMapPropagator[] = [];
  for (const name of new Set(names)) {
    if (name === 'tracecontext') propagators.push(new W3CTraceContextPropagator());
    else if (name === 'baggage') propagators.push(new W3CBaggagePropagator());
    else if (name === 'b3') propagators.push(new B3Propagator({ injectEncoding: B3InjectEncoding.SINGLE_HEADER }));
    else if (name === 'b3multi') propagators.push(new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER }));
  }
  return new CompositePropagator({ propagators });
}
