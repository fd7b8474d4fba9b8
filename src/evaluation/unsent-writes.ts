/**
 * Event streams whose clients stopped reading (change-streams.service.ts). A client that reads nothing keeps its
 * stream, and its slot, for as long as the connection lives: the heartbeat still finds room in the kernel's buffers,
 * and a connection that is written to is never idle. Once those buffers are full, what is written waits in the
 * process; a stream is closed when what it was written has waited unsent for `limits.event_stream_write_timeout`, or
 * at once when more than MAX_UNSENT_BYTES wait. Closing it fires its 'close', which frees its slot.
 */
import type { ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';

/** A stream with more than this unsent is not reading: it is closed at once (it reconnects and resumes). */
export const MAX_UNSENT_BYTES = 64 * 1024;

export class UnsentWrites {
  private readonly logger = new Logger('ChangeStreams');
  /** Streams with bytes waiting, and since when (ms). */
  private readonly since = new Map<ServerResponse, number>();
  private check: NodeJS.Timeout | null = null;

  constructor(private readonly timeoutMs: number) {}

  /** Writes `text` to an open stream, or closes it when its client is not reading. */
  write(raw: ServerResponse, text: string): void {
    const waiting = raw.writableLength;
    if (waiting > MAX_UNSENT_BYTES) {
      raw.destroy();
      return;
    }
    // Everything written before went out: whatever waits from now on waits from now.
    if (waiting === 0) this.since.delete(raw);
    raw.write(text);
    if (raw.writableLength > 0 && !this.since.has(raw)) this.waits(raw);
  }

  forget(raw: ServerResponse): void {
    this.since.delete(raw);
  }

  stop(): void {
    if (this.check) clearInterval(this.check);
    this.check = null;
  }

  /** Looked at four times per timeout while any stream has bytes waiting; no timer otherwise. */
  private waits(raw: ServerResponse): void {
    this.since.set(raw, Date.now());
    if (this.check) return;
    this.check = setInterval(() => this.closeStalled(), Math.max(100, Math.floor(this.timeoutMs / 4)));
    this.check.unref();
  }

  private closeStalled(): void {
    const now = Date.now();
    for (const [raw, since] of this.since) {
      if (raw.destroyed || raw.writableLength === 0) this.since.delete(raw);
      else if (now - since >= this.timeoutMs) {
        this.since.delete(raw);
        this.logger.debug(`closing an event stream whose client does not read: what it was sent has waited unsent for ${now - since} ms`);
        raw.destroy();
      }
    }
    if (this.since.size === 0) this.stop();
  }
}
