/**
 * Reads request bodies for the one content-type parser (json-body.ts), in place of Fastify's reader, with what a
 * server facing slow or hostile clients needs besides a size limit (docs/security.md, Limits). Without it, 50
 * connections trickling 4 MiB bodies held 204 MB for the 30 s of `limits.request_timeout`.
 * - The route's limit (`BodyLimit`): a declared Content-Length over it is refused before a byte is read, a body that
 *   grows past it (chunked) as soon as it does: 413.
 * - One budget across all requests for the bytes of bodies still being received (`limits.max_body_bytes_in_flight`):
 *   the chunk that would take them past it makes its request a 503. Bytes are counted as they arrive, not as
 *   declared: a client that declares 4 MiB and sends little holds little, and cannot refuse others room it does not use.
 * - A minimum rate (`limits.min_body_rate`, after `limits.body_rate_grace`), as Apache's mod_reqtimeout `MinRate`:
 *   a body must have arrived at that many bytes per second counted from the end of the grace, or it is a 408. One
 *   timer checks every incomplete body.
 * A refused body is dropped at once (its bytes leave the budget) and answered with `Connection: close` (Fastify adds
 * it to a parser's error); what the client still sends is read and thrown away for a while (lingering-close.ts), so
 * that it reads the answer.
 *
 * Every request with a body pays for this, the evaluation routes included: per chunk two additions and two
 * comparisons, per request (with a minimum rate) a Set entry while the body is incomplete. No clock is read per
 * request: the timer keeps a coarse one.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { UnavailableError } from './errors';
import { lingerAfterAnswer, type LingerLimits } from './lingering-close';

/** A route's body limit and the key that sets it, named in the 413. */
export interface BodyLimit {
  limit: number;
  key: string;
}

export interface BodyReaderLimits extends LingerLimits {
  maxBodyBytesInFlight: number;
  minBodyRate: number;
  bodyRateGrace: number;
}

type Done = (error: Error | null, body?: unknown) => void;

/** What to do with a whole body: `route` is what `read` was given. */
export type OnBody<R extends BodyLimit> = (route: R, text: string, done: Done) => void;

/** A refusal about the body itself, with its HTTP status (the error filter keeps a 4xx error's `statusCode`). */
class BodyRefused extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The rate timer's period: a quarter of the grace, between 50 ms and 1 s. */
const tickOf = (grace: number) => Math.max(50, Math.min(1_000, Math.floor(grace / 4)));

export class BodyReader<R extends BodyLimit> {
  /** Bytes received into bodies not yet complete, across all requests. */
  inFlight = 0;
  private readonly incomplete = new Set<BodyRead<R>>();
  private readonly tick: number;
  /** The coarse clock: the time at the timer's last run. */
  private now = Date.now();
  private readonly timer: NodeJS.Timeout | null = null;

  constructor(
    readonly limits: BodyReaderLimits,
    readonly onBody: OnBody<R>,
  ) {
    this.tick = tickOf(limits.bodyRateGrace);
    if (limits.minBodyRate > 0) {
      this.timer = setInterval(() => this.refuseSlowBodies(), this.tick);
      this.timer.unref();
    }
  }

  /** The content-type parser's work: reads `payload` (the request's body) within `route`'s limit, then `onBody`. */
  read(request: FastifyRequest, payload: IncomingMessage, route: R, done: Done): void {
    if (Number(request.headers['content-length']) > route.limit) return this.refuse(request, done, tooLarge(route));
    // The coarse clock may be a tick behind: counting from a tick later errs towards the client.
    const started = this.now + this.tick;
    const read = new BodyRead(this, request, payload, route, done, started);
    // A body Node has already received whole cannot be slow.
    if (this.timer && !payload.complete) this.incomplete.add(read);
    read.start();
  }

  /** Stops the rate timer (the server closes). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** A read is over, whole or refused: its bytes leave the budget. */
  release(read: BodyRead<R>): void {
    this.inFlight -= read.received;
    this.incomplete.delete(read);
  }

  refuse(request: FastifyRequest, done: Done, error: Error): void {
    lingerAfterAnswer(request.raw.socket, this.limits);
    done(error);
  }

  private refuseSlowBodies(): void {
    const now = Date.now();
    // Late by more than a tick: the event loop was held (an import being read), and what clients sent meanwhile may
    // still wait unread in the kernel. Bodies are judged at the next tick, once it has been read.
    const stalled = now - this.now > 2 * this.tick;
    this.now = now;
    if (stalled) return;
    const { minBodyRate, bodyRateGrace } = this.limits;
    for (const read of this.incomplete) {
      const late = now - read.started - bodyRateGrace;
      if (late > 0 && read.received < (minBodyRate * late) / 1_000) read.refuse(tooSlow(minBodyRate));
    }
  }
}

/** One body being read. */
class BodyRead<R extends BodyLimit> {
  received = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly reader: BodyReader<R>,
    private readonly request: FastifyRequest,
    private readonly payload: IncomingMessage,
    private readonly route: R,
    private readonly done: Done,
    readonly started: number,
  ) {}

  start(): void {
    this.payload.on('data', this.onData);
    this.payload.on('end', this.onEnd);
    this.payload.on('error', this.onError);
    this.payload.resume();
  }

  refuse(error: Error): void {
    this.stop();
    this.chunks.length = 0;
    this.reader.refuse(this.request, this.done, error);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.received += chunk.length;
    const reader = this.reader;
    reader.inFlight += chunk.length;
    if (this.received > this.route.limit) return this.refuse(tooLarge(this.route));
    if (reader.inFlight > reader.limits.maxBodyBytesInFlight) return this.refuse(overBudget());
    this.chunks.push(chunk);
  };

  private readonly onEnd = (): void => {
    this.stop();
    const chunks = this.chunks;
    // Decoded once, whole: a character split across chunks stays intact.
    const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, this.received).toString('utf8');
    this.reader.onBody(this.route, text, this.done);
  };

  /** The client went away (or the stream broke): a 400 for Fastify to answer where it still can, not a server error. */
  private readonly onError = (error: Error & { statusCode?: number }): void => {
    this.stop();
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
    this.done(error);
  };

  private stop(): void {
    this.payload.removeListener('data', this.onData);
    this.payload.removeListener('end', this.onEnd);
    this.payload.removeListener('error', this.onError);
    this.reader.release(this);
  }
}

function tooLarge({ limit, key }: BodyLimit): Error {
  return new BodyRefused(413, `request body is larger than ${key} (${limit} bytes)`);
}

function tooSlow(rate: number): Error {
  return new BodyRefused(408, `request body arrived slower than limits.min_body_rate (${rate} bytes per second)`);
}

function overBudget(): Error {
  return new UnavailableError('request bodies being received would exceed limits.max_body_bytes_in_flight; try again later');
}
