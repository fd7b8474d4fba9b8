/**
 * One span per evaluated flag, a child of the request's span, carrying OpenTelemetry's feature-flag semantic
 * conventions (`feature_flag.key`, the provider's name, the result's variant or value and reason, the entity as
 * `feature_flag.context.id`, the namespace as `feature_flag.set.id`) and Flipt's `flipt.*` attributes, so traces
 * read as Flipt's do. The evaluation service calls it only when `on` (one boolean check per evaluation when off).
 */
import { Injectable } from '@nestjs/common';
import type { Attributes, Context } from '@opentelemetry/api';
import type { BooleanOutcome, EvaluationInput, Snapshot, VariantOutcome } from '../core';
import { REASON_NAMES, type Reason } from '../wire';
import { Tracing } from './tracing';

export const PROVIDER_NAME = 'Flagpole';
export const EVALUATION_SPAN = 'feature_flag.evaluation';

/** OpenTelemetry's `feature_flag.result.reason` values for Flipt's reasons. */
const OTEL_REASONS: Record<Reason, string> = { UNKNOWN: 'unknown', FLAG_DISABLED: 'disabled', MATCH: 'targeting_match', DEFAULT: 'default' };

@Injectable()
export class EvaluationSpans {
  readonly on: boolean;

  constructor(private readonly tracing: Tracing) {
    this.on = tracing.on;
  }

  /** `start`: when the evaluation began (performance.now()), if it was measured. */
  variant(snapshot: Snapshot, req: EvaluationInput, o: VariantOutcome, requestId: string, start?: number): void {
    const parent = this.tracing.active();
    if (!this.tracing.records(parent)) return;
    this.record(parent, snapshot, req, requestId, start, {
      'feature_flag.result.variant': o.variantKey,
      'feature_flag.result.reason': OTEL_REASONS[o.reason],
      'flipt.match': o.match,
      'flipt.value': o.variantKey,
      'flipt.reason': REASON_NAMES[o.reason],
      'flipt.segments': o.segmentKeys,
    });
  }

  boolean(snapshot: Snapshot, req: EvaluationInput, o: BooleanOutcome, requestId: string, start?: number): void {
    const parent = this.tracing.active();
    if (!this.tracing.records(parent)) return;
    this.record(parent, snapshot, req, requestId, start, {
      'feature_flag.result.variant': String(o.enabled),
      'feature_flag.result.value': o.enabled,
      'feature_flag.result.reason': OTEL_REASONS[o.reason],
      'flipt.value': String(o.enabled),
      'flipt.reason': REASON_NAMES[o.reason],
      'flipt.segments': o.segmentKeys,
    });
  }

  /** `parent`: the request's span, recorded (a child of a span sampled out is not built at all). */
  private record(parent: Context, snapshot: Snapshot, req: EvaluationInput, requestId: string, start: number | undefined, result: Attributes): void {
    const span = this.tracing.start(EVALUATION_SPAN, parent, {
      'feature_flag.key': req.flagKey,
      'feature_flag.provider.name': PROVIDER_NAME,
      // The name the conventions used until 1.33, which Flipt's traces and many dashboards still read.
      'feature_flag.provider_name': PROVIDER_NAME,
      'feature_flag.context.id': req.entityId,
      'feature_flag.set.id': snapshot.key,
      'flipt.namespace': snapshot.key,
      'flipt.flag': req.flagKey,
      'flipt.entity_id': req.entityId,
      'flipt.request_id': requestId,
      'flipt.flag_enabled': snapshot.flags.get(req.flagKey)?.enabled ?? false,
      ...result,
    }, undefined, start);
    span.end();
  }
}
