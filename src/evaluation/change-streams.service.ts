/**
 * Event streams (server-sent events) that tell clients a namespace changed: OFREP's (`/ofrep/v1/_stream/{ns}/events`)
 * and the snapshot change stream (`/internal/v1/evaluation/snapshot/namespace/{ns}/stream`). Both carry the same
 * events (event-stream-text.ts), sent when this instance's snapshot of the namespace reaches a new version: at once
 * for this instance's writes, as soon as the shared bus (Redis) delivers the delta for other instances' writes, and
 * within the version poll (a second) without a bus.
 *
 * - One text per namespace version, written to every subscriber, a few hundred per turn of the event loop, so ten
 *   thousand subscribers never stall evaluations; a client that fell behind by several versions gets the newest once.
 * - `Last-Event-ID` resumes: a client that reconnects with an older version is told at once.
 * - A comment line every `streams.heartbeat_interval` keeps proxies from closing idle streams.
 * - At most `limits.max_event_streams` per instance (503 with Retry-After past it), and of those at most
 *   `limits.max_event_streams_per_credential` for one caller (stream-caller.ts; 429 with Retry-After past it), so
 *   that one token cannot hold every slot.
 * - A client that does not read is disconnected, and its slot freed (unsent-writes.ts): when bytes written to its
 *   stream have waited unsent for `limits.event_stream_write_timeout`, or at once past 64 KiB unsent.
 * - A stream opened under an authentication closes when it is revoked (deleted or expired early, here or, through
 *   the bus, elsewhere) and when it expires; the client's reconnection then meets the guard again.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTHENTICATION, type AuthenticatedRequest } from '../auth/auth.decorators';
import { Gauge } from 'prom-client';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { DomainError, NotFoundError, UnavailableError } from '../common/errors';
import { GrpcCode } from '../common/grpc-status';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { namespaceTag } from './namespace-tag';
import { Changes } from '../storage/changes';
import { HEARTBEAT, lastEventVersion, positionText, refetchEvent } from './event-stream-text';
import { SnapshotCache, type SnapshotUpdate } from './snapshot-cache.service';
import { streamCaller } from './stream-caller';
import { UnsentWrites } from './unsent-writes';

/** Subscribers written to per turn of the event loop. */
const WRITES_PER_TURN = 100;
/** Retry-After past either cap, in seconds. */
export const STREAMS_RETRY_AFTER_S = 5;
/** Node's longest timer; an expiry further away is checked again when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class TooManyStreamsError extends UnavailableError {
  constructor(max: number) {
    super(`too many event streams open on this instance (limits.max_event_streams: ${max}); retry later`);
  }
}

/** One caller's streams past its allowance → ResourceExhausted (429): the others' streams still open. */
export class TooManyCallerStreamsError extends DomainError {
  readonly code = GrpcCode.ResourceExhausted;
  constructor(max: number) {
    super(`too many event streams open for this credential (limits.max_event_streams_per_credential: ${max}); close one or retry later`);
  }
}

interface Stream {
  readonly raw: ServerResponse;
  readonly channel: Channel;
  /** The version this subscriber was last told of. */
  sent: string;
  /** The authentication that opened it, when one is revocable (stored: it has an id). */
  readonly authId: string | null;
  /** Whose allowance it counts against (streamCaller). */
  readonly caller: string;
  expiry: NodeJS.Timeout | null;
}

/** The subscribers of one namespace, and what they are to be told. */
interface Channel {
  readonly namespace: string;
  readonly streams: Set<Stream>;
  version: string;
  text: string;
  sending: boolean;
}

export interface StreamOpening {
  namespace: string;
  reply: FastifyReply;
  /** The version the client last heard of (`Last-Event-ID`), when it resumes. */
  lastVersion?: string;
  authentication?: AuthenticationRecord;
  /** Whose allowance it counts against (streamCaller). */
  caller: string;
}

@Injectable()
export class ChangeStreams implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ChangeStreams');
  private readonly channels = new Map<string, Channel>();
  private readonly byAuthentication = new Map<string, Set<Stream>>();
  private readonly max: number;
  private readonly maxPerCaller: number;
  /** Streams held (open or opening) per caller, for `maxPerCaller`. */
  private readonly held = new Map<string, number>();
  private readonly unsent: UnsentWrites;
  private readonly heartbeatMs: number;
  /** `inactivityDelaySec` of OFREP's bulk answers. */
  readonly inactivityDelaySec: number;
  private count = 0;
  /** Opened past the cap check and not yet registered (the namespace was loading). */
  private opening = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private beating = false;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly snapshots: SnapshotCache,
    changes: Changes,
    metrics: MetricsRegistry,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.max = config.limits.maxEventStreams;
    this.maxPerCaller = config.limits.maxEventStreamsPerCredential;
    this.unsent = new UnsentWrites(config.limits.eventStreamWriteTimeout);
    const idle = config.limits.idleTimeout;
    this.heartbeatMs = idle > 0 ? Math.min(config.streams.heartbeatInterval, Math.max(1000, Math.floor(idle / 2))) : config.streams.heartbeatInterval;
    this.inactivityDelaySec = Math.round(config.streams.inactivityDelay / 1000);
    this.unsubscribe.push(
      snapshots.watch((namespace, update) => this.updated(namespace, update)),
      changes.subscribe('authentication', (id) => this.revoked(id)),
    );
    const streams = this;
    new Gauge({
      name: 'flagpole_event_streams',
      help: 'Event streams open on this instance (OFREP and snapshot change streams)',
      registers: [metrics.registry],
      collect() {
        this.set(streams.count);
      },
    });
  }

  onModuleInit(): void {
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Before the HTTP server closes: every stream ends, so that closing does not wait for them. */
  onModuleDestroy(): void {
    for (const u of this.unsubscribe) u();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.unsent.stop();
    for (const channel of this.channels.values()) for (const stream of channel.streams) stream.raw.end();
  }

  /**
   * The stream routes' handler (both the fast one and Nest's): the request's `Last-Event-ID` and the authentication
   * the guard put on it. Resolves with the reply, which is then the stream's (Fastify's sign that it is answered).
   */
  async answer(request: FastifyRequest, reply: FastifyReply, namespace: string): Promise<FastifyReply> {
    const authentication = (request as AuthenticatedRequest)[AUTHENTICATION];
    const caller = streamCaller(authentication, request.ip);
    await this.subscribe({ namespace, reply, lastVersion: lastEventVersion(request.headers['last-event-id']), authentication, caller });
    return reply;
  }

  /**
   * Answers the request with an event stream of the namespace, or throws (before anything is written): 404 for a
   * namespace that does not exist, 429 past the caller's allowance, 503 past the cap.
   */
  async subscribe(opening: StreamOpening): Promise<void> {
    this.checkCallerCap(opening);
    this.checkCap(opening.reply);
    // Held from here, so that a burst of one caller's requests cannot all pass the check while namespaces load.
    this.hold(opening.caller, 1);
    let opened = false;
    try {
      opened = await this.open(opening);
    } finally {
      if (!opened) this.hold(opening.caller, -1);
    }
  }

  /** The stream, once the namespace is known; false when nothing was kept (the client left while it loaded). */
  private async open({ namespace, reply, lastVersion, authentication, caller }: StreamOpening): Promise<boolean> {
    this.opening++;
    let version: string;
    try {
      version = (await this.snapshots.get(namespace)).version;
    } finally {
      this.opening--;
    }
    // A namespace that does not exist has an empty snapshot without version.
    if (version === '') throw new NotFoundError(`namespace "${namespace}"`);
    this.checkCap(reply);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx (and ingress-nginx) would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    const socket = raw.socket;
    // Gone while the namespace loaded: nothing to keep.
    if (!socket || socket.destroyed) return false;
    socket.setNoDelay(true);
    const channel = this.channelOf(namespace, version);
    // Versions are stored times in ms, the same on every instance. A client ahead of this instance (it heard of a
    // write this one has not applied yet) gets its event when this one catches up.
    const resumed = lastVersion !== undefined && Number(lastVersion) < Number(channel.version);
    const authId = authentication?.id ? authentication.id : null;
    const stream: Stream = { raw, channel, sent: channel.version, authId, caller, expiry: null };
    this.add(stream);
    raw.on('close', () => this.remove(stream));
    this.write(stream, resumed ? channel.text : positionText(channel.version));
    this.scheduleExpiry(stream, authentication?.expiresAt ?? null);
    return true;
  }

  private checkCap(reply: FastifyReply): void {
    if (this.count + this.opening < this.max) return;
    reply.header('retry-after', String(STREAMS_RETRY_AFTER_S));
    throw new TooManyStreamsError(this.max);
  }

  private checkCallerCap({ reply, caller }: StreamOpening): void {
    if (this.maxPerCaller === 0 || (this.held.get(caller) ?? 0) < this.maxPerCaller) return;
    reply.header('retry-after', String(STREAMS_RETRY_AFTER_S));
    throw new TooManyCallerStreamsError(this.maxPerCaller);
  }

  private hold(caller: string, change: 1 | -1): void {
    const n = (this.held.get(caller) ?? 0) + change;
    if (n > 0) this.held.set(caller, n);
    else this.held.delete(caller);
  }

  private channelOf(namespace: string, version: string): Channel {
    let channel = this.channels.get(namespace);
    if (!channel) {
      channel = { namespace, streams: new Set(), version, text: refetchEvent(version, namespaceTag(namespace, version)), sending: false };
      this.channels.set(namespace, channel);
    }
    return channel;
  }

  private add(stream: Stream): void {
    stream.channel.streams.add(stream);
    this.count++;
    if (stream.authId === null) return;
    let set = this.byAuthentication.get(stream.authId);
    if (!set) this.byAuthentication.set(stream.authId, (set = new Set()));
    set.add(stream);
  }

  private remove(stream: Stream): void {
    const { channel } = stream;
    if (!channel.streams.delete(stream)) return;
    this.count--;
    this.hold(stream.caller, -1);
    this.unsent.forget(stream.raw);
    if (stream.expiry) clearTimeout(stream.expiry);
    if (channel.streams.size === 0 && this.channels.get(channel.namespace) === channel) this.channels.delete(channel.namespace);
    if (stream.authId === null) return;
    const set = this.byAuthentication.get(stream.authId);
    set?.delete(stream);
    if (set?.size === 0) this.byAuthentication.delete(stream.authId);
  }

  private scheduleExpiry(stream: Stream, expiresAt: Date | null): void {
    if (expiresAt === null) return;
    const left = expiresAt.getTime() - Date.now();
    if (left <= 0) {
      stream.raw.end();
      return;
    }
    stream.expiry = setTimeout(() => {
      if (left > MAX_TIMER_MS) this.scheduleExpiry(stream, expiresAt);
      else stream.raw.end();
    }, Math.min(left, MAX_TIMER_MS));
    stream.expiry.unref();
  }

  /** An authentication was deleted or its expiry moved: its streams end (a client still allowed reconnects). */
  private revoked(id: string): void {
    const set = this.byAuthentication.get(id);
    if (!set) return;
    for (const stream of [...set]) stream.raw.end();
  }

  private updated(namespace: string, update: SnapshotUpdate): void {
    const channel = this.channels.get(namespace);
    if (!channel) return;
    if ('deleted' in update) {
      // The namespace is gone: a last event (clients refetch and learn it), then the streams end; a reconnection
      // gets 404.
      this.channels.delete(namespace);
      const farewell = refetchEvent(channel.version);
      for (const stream of channel.streams) stream.raw.end(farewell);
      return;
    }
    if ('behind' in update) {
      // Nothing may evaluate this namespace here: ask for it, so that its load starts and announces the version.
      void Promise.resolve(this.snapshots.get(namespace)).catch(() => undefined);
      return;
    }
    this.announce(channel, update.version);
  }

  private announce(channel: Channel, version: string): void {
    if (version === channel.version) return;
    channel.version = version;
    channel.text = refetchEvent(version, namespaceTag(channel.namespace, version));
    void this.send(channel);
  }

  /** Brings every subscriber of the channel to its version, WRITES_PER_TURN per turn. */
  private async send(channel: Channel): Promise<void> {
    if (channel.sending) return;
    channel.sending = true;
    try {
      let behind = true;
      while (behind) {
        behind = false;
        let written = 0;
        for (const stream of [...channel.streams]) {
          if (stream.sent === channel.version) continue;
          stream.sent = channel.version;
          this.write(stream, channel.text);
          if (++written % WRITES_PER_TURN === 0) await nextTurn();
        }
        for (const stream of channel.streams) if (stream.sent !== channel.version) behind = true;
      }
    } catch (e) {
      this.logger.warn(`sending to the streams of namespace "${channel.namespace}" failed: ${(e as Error).message}`);
    } finally {
      channel.sending = false;
    }
  }

  private write(stream: Stream, text: string): void {
    const { raw } = stream;
    if (raw.destroyed || raw.writableEnded) return;
    this.unsent.write(raw, text);
  }

  /**
   * The heartbeat: a comment to every subscriber, paced; and for each namespace a look at the snapshot, so that
   * a version this instance missed announcing (a failed reload retried) still reaches the subscribers.
   */
  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      let written = 0;
      for (const channel of [...this.channels.values()]) {
        const snapshot = this.snapshots.get(channel.namespace);
        if (!(snapshot instanceof Promise) && snapshot.version !== '') this.announce(channel, snapshot.version);
        else void Promise.resolve(snapshot).catch(() => undefined);
        for (const stream of [...channel.streams]) {
          this.write(stream, HEARTBEAT);
          if (++written % WRITES_PER_TURN === 0) await nextTurn();
        }
      }
    } finally {
      this.beating = false;
    }
  }
}
