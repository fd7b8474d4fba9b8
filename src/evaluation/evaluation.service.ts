/**
 * Evaluations over the in-memory snapshots: take a parsed request (evaluation-request.ts), pick the namespace's
 * snapshot, run the pure core, add Flipt's request id, timestamp and duration. No database query happens here once a
 * namespace's snapshot is loaded.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { namespaceOr } from '../common/namespace-key';
import { formatPreciseTimestamp } from '../common/timestamps';
import { maxLength } from '../common/validation';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import {
  EvaluationError, evaluateBoolean, evaluateVariant, flagType, type BooleanOutcome, type EvaluationInput, type Snapshot,
  type VariantOutcome,
} from '../core';
import { EvaluationCounts } from '../analytics/evaluation-counts.service';
import { EvaluationMetrics } from '../metrics/evaluation.metrics';
import { EvaluationSpans } from '../tracing/evaluation-spans';
import { ERROR_REASON_NAMES, REASON_NAMES, RESPONSE_TYPE_NAMES } from '../wire';
import type {
  BatchEvaluationRequest, BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationRequest, EvaluationResponse,
  LegacyBatchEvaluationRequest, LegacyBatchEvaluationResponse, LegacyEvaluationRequest, LegacyEvaluationResponse,
  VariantEvaluationResponse,
} from './evaluation.schemas';
import { SnapshotCache } from './snapshot-cache.service';
import { andThen, type MaybePromise } from '../common/maybe-async';

/** Wall-clock time with sub-millisecond precision, as Flipt stamps evaluations. */
function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** Core errors become domain errors: NOT_FOUND → 404, INVALID → 400. */
function domainError(e: unknown): unknown {
  if (e instanceof EvaluationError) return e.kind === 'NOT_FOUND' ? new NotFoundError(e.message.replace(/ not found$/, '')) : new InvalidError(e.message);
  return e;
}

/** One flag's outcome, of whichever type the flag has. */
export type FlagOutcome = { type: 'VARIANT'; outcome: VariantOutcome } | { type: 'BOOLEAN'; outcome: BooleanOutcome };

@Injectable()
export class EvaluationService {
  /**
   * Bounds on one batch: its work and the namespaces it may make the cache load are the client's to choose. The
   * request count is checked as the body is parsed, before any item is (evaluation-request.ts), so the route edge
   * reads it here.
   */
  readonly maxBatchRequests: number;
  private readonly maxBatchNamespaces: number;

  constructor(
    private readonly snapshots: SnapshotCache,
    private readonly metrics: EvaluationMetrics,
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly spans: EvaluationSpans,
    private readonly counts: EvaluationCounts,
  ) {
    this.maxBatchRequests = config.limits.maxBatchRequests;
    this.maxBatchNamespaces = config.limits.maxBatchNamespaces;
  }

  /**
   * The single and batch evaluations answer synchronously when their snapshots are in memory (the usual case) and
   * with a promise while one loads; the fast path hands either to Fastify.
   */
  variant(req: EvaluationRequest): MaybePromise<VariantEvaluationResponse> {
    const start = performance.now();
    const namespace = namespaceOr(req.namespaceKey);
    const snapshot = this.snapshots.get(namespace);
    return andThen(snapshot, (s) => this.answerVariant(s, req, namespace, start));
  }

  boolean(req: EvaluationRequest): MaybePromise<BooleanEvaluationResponse> {
    const start = performance.now();
    const namespace = namespaceOr(req.namespaceKey);
    const snapshot = this.snapshots.get(namespace);
    return andThen(snapshot, (s) => this.answerBoolean(s, req, namespace, start));
  }

  private answerVariant(snapshot: Snapshot, req: EvaluationRequest, namespace: string, start: number): VariantEvaluationResponse {
    const outcome = this.run(req, evaluateVariant, snapshot);
    const took = performance.now() - start;
    this.countVariant(namespace, outcome, took);
    const requestId = req.requestId || randomUUID();
    if (this.spans.on) this.spans.variant(snapshot, req, outcome, requestId, start);
    return variantResponse(outcome, requestId, took, formatPreciseTimestamp(wallClock()));
  }

  private answerBoolean(snapshot: Snapshot, req: EvaluationRequest, namespace: string, start: number): BooleanEvaluationResponse {
    const outcome = this.run(req, evaluateBoolean, snapshot);
    const took = performance.now() - start;
    this.countBoolean(namespace, outcome, took);
    const requestId = req.requestId || randomUUID();
    if (this.spans.on) this.spans.boolean(snapshot, req, outcome, requestId, start);
    return booleanResponse(outcome, requestId, took, formatPreciseTimestamp(wallClock()));
  }

  /**
   * Each item in its own namespace, all items of one namespace against the same snapshot; unknown flags become error
   * items; any other error fails the batch.
   */
  batch(batch: BatchEvaluationRequest): MaybePromise<BatchEvaluationResponse> {
    const start = performance.now();
    const requestId = batch.requestId || randomUUID();
    const items = batch.requests;
    // Namespaces are counted before any is loaded, so a refused batch costs no query.
    const snapshots = new Map<string, Snapshot | Promise<Snapshot> | null>();
    for (const req of items) {
      const namespace = namespaceOr(req.namespaceKey);
      if (snapshots.has(namespace)) continue;
      if (snapshots.size === this.maxBatchNamespaces) {
        throw new ValidationError('requests', `a batch may span at most ${this.maxBatchNamespaces} namespaces (limits.max_batch_namespaces)`);
      }
      snapshots.set(namespace, null);
    }
    let loading: Array<Promise<unknown>> | null = null;
    for (const namespace of snapshots.keys()) {
      const snapshot = this.snapshots.get(namespace);
      snapshots.set(namespace, snapshot);
      if (snapshot instanceof Promise) (loading ??= []).push(snapshot.then((s) => snapshots.set(namespace, s)));
    }
    const evaluate = () => this.evaluateBatch(items, snapshots as Map<string, Snapshot>, requestId, start);
    return loading ? Promise.all(loading).then(evaluate) : evaluate();
  }

  private evaluateBatch(items: EvaluationRequest[], snapshots: Map<string, Snapshot>, requestId: string, start: number): BatchEvaluationResponse {
    const results: Array<VariantOutcome | BooleanOutcome | null> = [];
    const kinds: Array<'VARIANT' | 'BOOLEAN' | null> = [];
    for (const req of items) {
      const namespace = namespaceOr(req.namespaceKey);
      const snapshot = snapshots.get(namespace)!;
      const kind = flagType(snapshot, req.flagKey) ?? null;
      kinds.push(kind);
      if (kind === null) {
        this.metrics.error(snapshot, req.flagKey);
        results.push(null);
      } else if (kind === 'BOOLEAN') {
        const outcome = this.run(req, evaluateBoolean, snapshot);
        this.countBoolean(namespace, outcome);
        if (this.spans.on) this.spans.boolean(snapshot, req, outcome, req.requestId || requestId);
        results.push(outcome);
      } else {
        const outcome = this.run(req, evaluateVariant, snapshot);
        this.countVariant(namespace, outcome);
        if (this.spans.on) this.spans.variant(snapshot, req, outcome, req.requestId || requestId);
        results.push(outcome);
      }
    }
    const took = performance.now() - start;
    const timestamp = formatPreciseTimestamp(wallClock());
    const responses: EvaluationResponse[] = items.map((req, i) => {
      const kind = kinds[i];
      if (kind === 'BOOLEAN') {
        return { type: RESPONSE_TYPE_NAMES.BOOLEAN, booleanResponse: booleanResponse(results[i] as BooleanOutcome, req.requestId, took, timestamp) };
      }
      if (kind === 'VARIANT') {
        return { type: RESPONSE_TYPE_NAMES.VARIANT, variantResponse: variantResponse(results[i] as VariantOutcome, req.requestId, took, timestamp) };
      }
      return {
        type: RESPONSE_TYPE_NAMES.ERROR,
        errorResponse: { flagKey: req.flagKey, namespaceKey: req.namespaceKey, reason: ERROR_REASON_NAMES.NOT_FOUND },
      };
    });
    return { requestId, responses, requestDurationMillis: took };
  }

  /**
   * One flag of whichever type it has, against a snapshot the caller holds (OFREP evaluates many flags against one):
   * counted like every evaluation, its latency too when `start` (performance.now()) is given; an unknown flag is a
   * NotFoundError, counted as an error.
   */
  evaluateFlag(snapshot: Snapshot, req: EvaluationInput, start?: number): FlagOutcome {
    if (flagType(snapshot, req.flagKey) === 'BOOLEAN') {
      const outcome = this.run(req, evaluateBoolean, snapshot);
      this.countBoolean(snapshot.key, outcome, start === undefined ? undefined : performance.now() - start);
      if (this.spans.on) this.spans.boolean(snapshot, req, outcome, '', start);
      return { type: 'BOOLEAN', outcome };
    }
    const outcome = this.run(req, evaluateVariant, snapshot);
    this.countVariant(snapshot.key, outcome, start === undefined ? undefined : performance.now() - start);
    if (this.spans.on) this.spans.variant(snapshot, req, outcome, '', start);
    return { type: 'VARIANT', outcome };
  }

  /** `/api/v1/evaluate`: the deprecated single evaluation, variant flags only. */
  async legacy(req: LegacyEvaluationRequest, pathNamespace?: string): Promise<LegacyEvaluationResponse> {
    const start = performance.now();
    if (pathNamespace) req.namespaceKey = maxLength('namespaceKey', pathNamespace);
    if (!req.flagKey) throw new InvalidError('invalid field flagKey: must not be empty');
    if (!req.entityId) throw new InvalidError('invalid field entityId: must not be empty');
    const namespace = namespaceOr(req.namespaceKey);
    const snapshot = await this.snapshots.get(namespace);
    const outcome = this.run(req, evaluateVariant, snapshot);
    const took = performance.now() - start;
    this.countVariant(namespace, outcome, took);
    const requestId = req.requestId || randomUUID();
    if (this.spans.on) this.spans.variant(snapshot, req, outcome, requestId, start);
    return legacyResponse(req, outcome, requestId, took, formatPreciseTimestamp(wallClock()));
  }

  /** `/api/v1/batch-evaluate`: one namespace for all items; unknown flags fail the batch unless excluded. */
  async legacyBatch(batch: LegacyBatchEvaluationRequest, pathNamespace?: string): Promise<LegacyBatchEvaluationResponse> {
    const start = performance.now();
    const requestId = batch.requestId || randomUUID();
    const namespaceKey = namespaceOr(pathNamespace && maxLength('namespaceKey', pathNamespace), batch.namespaceKey);
    const { excludeNotFound, requests: items } = batch;
    for (const item of items) {
      if (item.namespaceKey && item.namespaceKey !== namespaceKey) {
        throw new InvalidError('invalid field namespace_key: must be the same for all requests if specified');
      }
      item.namespaceKey = namespaceKey;
    }
    const snapshot: Snapshot = await this.snapshots.get(namespaceKey);
    const evaluated: Array<{ req: LegacyEvaluationRequest; outcome: VariantOutcome }> = [];
    for (const req of items) {
      if (excludeNotFound && !snapshot.flags.has(req.flagKey)) continue;
      const outcome = this.run(req, evaluateVariant, snapshot);
      this.countVariant(namespaceKey, outcome);
      if (this.spans.on) this.spans.variant(snapshot, req, outcome, requestId);
      evaluated.push({ req, outcome });
    }
    const timestamp = formatPreciseTimestamp(wallClock());
    const responses = evaluated.map(({ req, outcome }) => legacyResponse(req, outcome, '', 0, timestamp));
    return { requestId, responses, requestDurationMillis: performance.now() - start };
  }

  /**
   * Every successful evaluation passes through one of these two, whatever its route (REST v1 and v2, batch items,
   * OFREP single and bulk): Prometheus's counters, and analytics' per-minute counts when analytics is on.
   */
  private countVariant(namespace: string, outcome: VariantOutcome, ms?: number): void {
    this.metrics.variant(namespace, outcome, ms);
    if (this.counts.on) this.counts.variant(namespace, outcome);
  }

  private countBoolean(namespace: string, outcome: BooleanOutcome, ms?: number): void {
    this.metrics.boolean(namespace, outcome, ms);
    if (this.counts.on) this.counts.boolean(namespace, outcome);
  }

  /** Runs one evaluation; a failure is counted and becomes a domain error. */
  private run<T>(req: EvaluationInput, evaluate: (s: Snapshot, req: EvaluationInput) => T, snapshot: Snapshot): T {
    try {
      return evaluate(snapshot, req);
    } catch (e) {
      this.metrics.error(snapshot, req.flagKey);
      throw domainError(e);
    }
  }
}

function variantResponse(o: VariantOutcome, requestId: string, took: number, timestamp: string): VariantEvaluationResponse {
  return {
    match: o.match,
    segmentKeys: o.segmentKeys,
    reason: REASON_NAMES[o.reason],
    variantKey: o.variantKey,
    variantAttachment: o.variantAttachment,
    requestId,
    requestDurationMillis: took,
    timestamp,
    flagKey: o.flagKey,
  };
}

function booleanResponse(o: BooleanOutcome, requestId: string, took: number, timestamp: string): BooleanEvaluationResponse {
  return {
    enabled: o.enabled,
    reason: REASON_NAMES[o.reason],
    requestId,
    requestDurationMillis: took,
    timestamp,
    flagKey: o.flagKey,
    segmentKeys: o.segmentKeys,
  };
}

function legacyResponse(req: LegacyEvaluationRequest, o: VariantOutcome, requestId: string, took: number, timestamp: string): LegacyEvaluationResponse {
  return {
    requestId,
    entityId: req.entityId,
    requestContext: req.context,
    match: o.match,
    flagKey: o.flagKey,
    segmentKey: o.segmentKeys[0] ?? '',
    timestamp,
    value: o.variantKey,
    requestDurationMillis: took,
    attachment: o.variantAttachment,
    reason: REASON_NAMES[o.reason],
    namespaceKey: req.namespaceKey,
    segmentKeys: o.segmentKeys,
  };
}
