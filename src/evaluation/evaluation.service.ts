/**
 * Evaluations over the in-memory snapshots: parse, pick the namespace's snapshot, run the pure core, add Flipt's
 * request id, timestamp and duration. No database query happens here once a namespace's snapshot is loaded.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError } from '../common/errors';
import { namespaceOr } from '../common/namespace-key';
import { formatPreciseTimestamp } from '../common/timestamps';
import {
  EvaluationError, evaluateBoolean, evaluateVariant, flagType, type BooleanOutcome, type Reason, type Snapshot, type VariantOutcome,
} from '../core';
import { EvaluationMetrics } from '../metrics/evaluation.metrics';
import type {
  BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationResponse, LegacyBatchEvaluationResponse, LegacyEvaluationResponse,
  VariantEvaluationResponse,
} from './evaluation.dto';
import { asObject, boolField, listField, parseEvaluation, ParsedEvaluation, stringField } from './evaluation-request';
import { SnapshotCache } from './snapshot-cache.service';

const REASON: Record<Reason, string> = {
  UNKNOWN: 'UNKNOWN_EVALUATION_REASON',
  FLAG_DISABLED: 'FLAG_DISABLED_EVALUATION_REASON',
  MATCH: 'MATCH_EVALUATION_REASON',
  DEFAULT: 'DEFAULT_EVALUATION_REASON',
};

/** Wall-clock time with sub-millisecond precision, as Flipt stamps evaluations. */
function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** Core errors become domain errors: NOT_FOUND → 404, INVALID → 400. */
function domainError(e: unknown): unknown {
  if (e instanceof EvaluationError) return e.kind === 'NOT_FOUND' ? new NotFoundError(e.message.replace(/ not found$/, '')) : new InvalidError(e.message);
  return e;
}

@Injectable()
export class EvaluationService {
  constructor(
    private readonly snapshots: SnapshotCache,
    private readonly metrics: EvaluationMetrics,
  ) {}

  async variant(body: unknown): Promise<VariantEvaluationResponse> {
    const start = performance.now();
    const req = parseEvaluation(body);
    const snapshot = await this.snapshots.get(namespaceOr(req.namespaceKey));
    const outcome = this.run(req, () => evaluateVariant(snapshot, req));
    const took = performance.now() - start;
    this.metrics.variant(namespaceOr(req.namespaceKey), outcome, took);
    return variantResponse(outcome, req.requestId || randomUUID(), took, wallClock());
  }

  async boolean(body: unknown): Promise<BooleanEvaluationResponse> {
    const start = performance.now();
    const req = parseEvaluation(body);
    const snapshot = await this.snapshots.get(namespaceOr(req.namespaceKey));
    const outcome = this.run(req, () => evaluateBoolean(snapshot, req));
    const took = performance.now() - start;
    this.metrics.boolean(namespaceOr(req.namespaceKey), outcome, took);
    return booleanResponse(outcome, req.requestId || randomUUID(), took, wallClock());
  }

  /** Each item in its own namespace; unknown flags become error items; any other error fails the batch. */
  async batch(body: unknown): Promise<BatchEvaluationResponse> {
    const start = performance.now();
    const o = asObject(body);
    const requestId = stringField(o, 'requestId', 'request_id') || randomUUID();
    const items = listField(o, 'requests').map((r) => parseEvaluation(r, 'requests item'));
    const results: Array<{ req: ParsedEvaluation; outcome: VariantOutcome | BooleanOutcome | null; kind: 'VARIANT' | 'BOOLEAN' | null }> = [];
    for (const req of items) {
      const snapshot = await this.snapshots.get(namespaceOr(req.namespaceKey));
      const kind = flagType(snapshot, req.flagKey) ?? null;
      if (kind === null) {
        this.metrics.error(namespaceOr(req.namespaceKey), req.flagKey);
        results.push({ req, outcome: null, kind });
      } else if (kind === 'BOOLEAN') {
        const outcome = this.run(req, () => evaluateBoolean(snapshot, req));
        this.metrics.boolean(namespaceOr(req.namespaceKey), outcome);
        results.push({ req, kind, outcome });
      } else {
        const outcome = this.run(req, () => evaluateVariant(snapshot, req));
        this.metrics.variant(namespaceOr(req.namespaceKey), outcome);
        results.push({ req, kind, outcome });
      }
    }
    const took = performance.now() - start;
    const at = wallClock();
    const responses: EvaluationResponse[] = results.map(({ req, outcome, kind }) => {
      if (kind === 'BOOLEAN') {
        return { type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE', booleanResponse: booleanResponse(outcome as BooleanOutcome, req.requestId, took, at) };
      }
      if (kind === 'VARIANT') {
        return { type: 'VARIANT_EVALUATION_RESPONSE_TYPE', variantResponse: variantResponse(outcome as VariantOutcome, req.requestId, took, at) };
      }
      return {
        type: 'ERROR_EVALUATION_RESPONSE_TYPE',
        errorResponse: { flagKey: req.flagKey, namespaceKey: req.namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
      };
    });
    return { requestId, responses, requestDurationMillis: took };
  }

  /** `/api/v1/evaluate`: the deprecated single evaluation, variant flags only. */
  async legacy(body: unknown, pathNamespace?: string): Promise<LegacyEvaluationResponse> {
    const start = performance.now();
    const req = parseEvaluation(body);
    if (pathNamespace) req.namespaceKey = pathNamespace;
    if (!req.flagKey) throw new InvalidError('invalid field flagKey: must not be empty');
    if (!req.entityId) throw new InvalidError('invalid field entityId: must not be empty');
    const snapshot = await this.snapshots.get(namespaceOr(req.namespaceKey));
    const outcome = this.run(req, () => evaluateVariant(snapshot, req));
    const took = performance.now() - start;
    this.metrics.variant(namespaceOr(req.namespaceKey), outcome, took);
    return legacyResponse(req, outcome, req.requestId || randomUUID(), took, wallClock());
  }

  /** `/api/v1/batch-evaluate`: one namespace for all items; unknown flags fail the batch unless excluded. */
  async legacyBatch(body: unknown, pathNamespace?: string): Promise<LegacyBatchEvaluationResponse> {
    const start = performance.now();
    const o = asObject(body);
    const requestId = stringField(o, 'requestId', 'request_id') || randomUUID();
    const namespaceKey = namespaceOr(pathNamespace, stringField(o, 'namespaceKey', 'namespace_key'));
    const excludeNotFound = boolField(o, 'excludeNotFound', 'exclude_not_found');
    const items = listField(o, 'requests').map((r) => parseEvaluation(r, 'requests item'));
    for (const item of items) {
      if (item.namespaceKey && item.namespaceKey !== namespaceKey) {
        throw new InvalidError('invalid field namespace_key: must be the same for all requests if specified');
      }
      item.namespaceKey = namespaceKey;
    }
    const snapshot: Snapshot = await this.snapshots.get(namespaceKey);
    const evaluated: Array<{ req: ParsedEvaluation; outcome: VariantOutcome }> = [];
    for (const req of items) {
      if (excludeNotFound && !snapshot.flags.has(req.flagKey)) continue;
      const outcome = this.run(req, () => evaluateVariant(snapshot, req));
      this.metrics.variant(namespaceKey, outcome);
      evaluated.push({ req, outcome });
    }
    const at = wallClock();
    const responses = evaluated.map(({ req, outcome }) => legacyResponse(req, outcome, '', 0, at));
    return { requestId, responses, requestDurationMillis: performance.now() - start };
  }

  /** Runs one evaluation; a failure is counted and becomes a domain error. */
  private run<T>(req: ParsedEvaluation, evaluate: () => T): T {
    try {
      return evaluate();
    } catch (e) {
      this.metrics.error(namespaceOr(req.namespaceKey), req.flagKey);
      throw domainError(e);
    }
  }
}

function variantResponse(o: VariantOutcome, requestId: string, took: number, at: number): VariantEvaluationResponse {
  return {
    match: o.match,
    segmentKeys: o.segmentKeys,
    reason: REASON[o.reason],
    variantKey: o.variantKey,
    variantAttachment: o.variantAttachment,
    requestId,
    requestDurationMillis: took,
    timestamp: formatPreciseTimestamp(at),
    flagKey: o.flagKey,
  };
}

function booleanResponse(o: BooleanOutcome, requestId: string, took: number, at: number): BooleanEvaluationResponse {
  return {
    enabled: o.enabled,
    reason: REASON[o.reason],
    requestId,
    requestDurationMillis: took,
    timestamp: formatPreciseTimestamp(at),
    flagKey: o.flagKey,
    segmentKeys: o.segmentKeys,
  };
}

function legacyResponse(req: ParsedEvaluation, o: VariantOutcome, requestId: string, took: number, at: number): LegacyEvaluationResponse {
  return {
    requestId,
    entityId: req.entityId,
    requestContext: req.context,
    match: o.match,
    flagKey: o.flagKey,
    segmentKey: o.segmentKeys[0] ?? '',
    timestamp: formatPreciseTimestamp(at),
    value: o.variantKey,
    requestDurationMillis: took,
    attachment: o.variantAttachment,
    reason: REASON[o.reason],
    namespaceKey: req.namespaceKey,
    segmentKeys: o.segmentKeys,
  };
}
