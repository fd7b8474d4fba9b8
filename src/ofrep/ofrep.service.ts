/**
 * OFREP evaluations (issue 17) over the in-memory snapshots, through the evaluation service: the same core, the same
 * metrics, no database query once a namespace is loaded. Single answers map one outcome; bulk answers evaluate the
 * namespace's flags (or the keys `context.flags` selects) against one snapshot, and are not evaluated at all when the
 * client's ETag still matches.
 */
import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { type EvaluationInput, orderedFlags, type Snapshot } from '../core';
import { EvaluationService } from '../evaluation/evaluation.service';
import { SnapshotCache } from '../evaluation/snapshot-cache.service';
import { FlagType } from '../wire';
import { namespaceTag } from '../evaluation/namespace-tag';
import {
  bulkEtag, configurationAnswer, etagMatches, eventStreamOf, failureItem, flagAnswer, type OfrepBulk, type OfrepFailure, type OfrepFlag,
} from './ofrep-answer';
import type { OfrepBulkRequest, OfrepRequest } from './ofrep-request';
import { andThen, type MaybePromise } from '../common/maybe-async';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { StreamTickets } from '../auth/stream-tickets.service';

/** Where a bulk answer's event stream is: under the proxy's path prefix, and for whom (its stream ticket's holder). */
export interface StreamOptions {
  prefix?: string;
  authentication?: AuthenticationRecord;
}

/** A bulk answer: its ETag, and its body unless the client's copy is current (304). */
export interface BulkAnswer {
  etag: string;
  body?: OfrepBulk;
}

@Injectable()
export class OfrepService {
  /** limits.max_batch_requests: how many flags `context.flags` may select. */
  readonly maxSelectedFlags: number;
  readonly configuration: ReturnType<typeof configurationAnswer>;
  /** `inactivityDelaySec` of the advertised event streams; null when streams are off (`limits.max_event_streams` 0). */
  private readonly streamInactivitySec: number | null;

  constructor(
    private readonly snapshots: SnapshotCache,
    private readonly evaluation: EvaluationService,
    private readonly tickets: StreamTickets,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.maxSelectedFlags = config.limits.maxBatchRequests;
    this.configuration = configurationAnswer(config.cache);
    this.streamInactivitySec = config.limits.maxEventStreams > 0 ? Math.round(config.streams.inactivityDelay / 1000) : null;
  }

  /** Synchronous when the namespace's snapshot is in memory. */
  evaluate(namespace: string, flagKey: string, request: OfrepRequest): OfrepFlag | Promise<OfrepFlag> {
    const start = performance.now();
    const input = { flagKey, entityId: request.entityId, context: request.context };
    return andThen(this.snapshots.get(namespace), (snapshot) => flagAnswer(this.evaluation.evaluateFlag(snapshot, input, start)));
  }

  /**
   * Every flag Flipt's bulk answer lists (boolean flags, and variant flags that are enabled) in creation order, or
   * the selected keys in the order given; a flag that cannot be evaluated is a failure item of the list. The answer
   * names the namespace's event stream, under the stream's `prefix` (the proxy's `X-Forwarded-Prefix`), with a stream
   * ticket for the stream's `authentication` (the caller's, when it has a stored one).
   */
  bulk(namespace: string, request: OfrepBulkRequest, ifNoneMatch: string | undefined, stream: StreamOptions = {}, heard?: string): BulkAnswer | Promise<BulkAnswer> {
    return andThen(this.snapshotFor(namespace, heard), (snapshot) => this.bulkOf(snapshot, namespace, request, ifNoneMatch, stream));
  }

  /**
   * `heard`: the tag of the event that made the client refetch (`flagConfigEtag`). The event may come from another
   * instance that has a write this one has yet to receive: a tag other than this snapshot's has the snapshot
   * confirmed against the database (SnapshotCache.confirm), so the refetch is not answered from before the write.
   */
  private snapshotFor(namespace: string, heard: string | undefined): MaybePromise<Snapshot> {
    const snapshot = this.snapshots.get(namespace);
    if (heard === undefined || snapshot instanceof Promise || heard === namespaceTag(namespace, snapshot.version)) return snapshot;
    return this.snapshots.confirm(namespace);
  }

  private bulkOf(snapshot: Snapshot, namespace: string, request: OfrepBulkRequest, ifNoneMatch: string | undefined, stream: StreamOptions): BulkAnswer {
    // A namespace that does not exist (no version) has no stream to follow.
    const inactivity = snapshot.version === '' ? null : this.streamInactivitySec;
    const ticket = inactivity === null ? undefined : this.tickets.issue(stream.authentication, namespace);
    // The snapshot only changes between turns of the event loop: the ETag and the answer are of the same version.
    const etag = bulkEtag(namespace, snapshot.version, request.context, ticket);
    if (etagMatches(ifNoneMatch, etag)) return { etag };
    const keys = request.flags ?? listedByDefault(snapshot);
    const flags = keys.map((flagKey) => this.item(snapshot, { flagKey, entityId: request.entityId, context: request.context }));
    if (inactivity === null) return { etag, body: { flags } };
    return { etag, body: { flags, eventStreams: [eventStreamOf(namespace, stream.prefix ?? '', inactivity, ticket)] } };
  }

  private item(snapshot: Snapshot, input: EvaluationInput): OfrepFlag | OfrepFailure {
    try {
      return flagAnswer(this.evaluation.evaluateFlag(snapshot, input));
    } catch (e) {
      if (e instanceof DomainError) return failureItem(input.flagKey, e);
      throw e;
    }
  }
}

function listedByDefault(snapshot: Snapshot): string[] {
  const keys: string[] = [];
  for (const flag of orderedFlags(snapshot)) if (flag.type === FlagType.BOOLEAN || flag.enabled) keys.push(flag.key);
  return keys;
}
