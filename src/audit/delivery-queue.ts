/**
 * An ordered, in-memory outbox for one destination (a webhook URL, a template, the stored trail): items leave in the
 * order they were pushed, a batch at a time, one batch in flight. A failed batch is tried again after an exponential
 * back-off (doubling up to `maxBackoffMs`) for as long as the process lives, so a destination that is down for a
 * minute receives everything, in order, when it is back. The writes that produced the items never wait for it.
 *
 * Bounded in count and in bytes: past `capacity` waiting items, or `maxBytes` of them (as `weigh` measures them), the
 * oldest ones not in flight are dropped (and reported), so a destination down for days, or one that hangs while large
 * items arrive, cannot exhaust memory. An item larger than `maxBytes` on its own is dropped at once. An Undeliverable error drops the batch at once (a receiver that refuses it
 * for good would otherwise hold up everything behind it).
 */
export class Undeliverable extends Error {}

export interface DeliveryOptions<T> {
  /** Sends one batch; resolves when the destination has it. */
  send: (batch: T[]) => Promise<void>;
  capacity: number;
  /** Most bytes waiting (in flight included), as `weigh` measures each item. */
  maxBytes: number;
  weigh: (item: T) => number;
  batchSize: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /**
   * How long a batch that is not full waits for more items before it is sent (0: sent at once). Batching amortises a
   * cost per send, such as a database commit, when items arrive one at a time.
   */
  lingerMs?: number;
  /** Items dropped (over capacity, or Undeliverable), and why. */
  onDrop: (count: number, reason: string) => void;
  /** A failed attempt that will be retried after `retryInMs`. */
  onRetry?: (error: Error, retryInMs: number) => void;
  /** After each attempt (delivered, dropped or to be retried): how many items are still waiting. */
  onAttempt?: (waiting: number) => void;
}

export class DeliveryQueue<T> {
  private readonly items: T[] = [];
  /** Each waiting item's weight, beside it in `items`. */
  private readonly weights: number[] = [];
  private bytes = 0;
  private inFlight = 0;
  private running = false;
  private closed = false;
  private wake: (() => void) | null = null;
  private idle: Array<() => void> = [];

  constructor(private readonly options: DeliveryOptions<T>) {}

  get waiting(): number {
    return this.items.length;
  }

  /** Bytes waiting (in flight included). */
  get waitingBytes(): number {
    return this.bytes;
  }

  push(item: T): void {
    if (this.closed) return;
    const { capacity, maxBytes } = this.options;
    const weight = this.options.weigh(item);
    if (weight > maxBytes) {
      this.options.onDrop(1, `an event of ${weight} bytes is larger than the ${maxBytes} bytes that may wait`);
      return;
    }
    let dropped = 0;
    while (this.items.length > this.inFlight && (this.items.length >= capacity || this.bytes + weight > maxBytes)) {
      this.bytes -= this.weights[this.inFlight];
      this.items.splice(this.inFlight, 1);
      this.weights.splice(this.inFlight, 1);
      dropped++;
    }
    if (dropped > 0) this.options.onDrop(dropped, `more than ${capacity} events or ${maxBytes} bytes waiting`);
    this.items.push(item);
    this.weights.push(weight);
    this.bytes += weight;
    if (!this.running) void this.pump();
  }

  /** Removes the first `count` items (delivered or given up on). */
  private shift(count: number): void {
    this.items.splice(0, count);
    for (const weight of this.weights.splice(0, count)) this.bytes -= weight;
  }

  /** Resolves once nothing is waiting, or after `ms`; true when everything was delivered. */
  drained(ms: number): Promise<boolean> {
    if (this.items.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.items.length === 0), ms);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Stops retrying (a pending back-off ends at once); what is still waiting is left undelivered. */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  private async pump(): Promise<void> {
    this.running = true;
    const linger = this.options.lingerMs ?? 0;
    let backoff = this.options.initialBackoffMs;
    while (this.items.length > 0 && !this.closed) {
      if (linger > 0 && this.items.length < this.options.batchSize) await this.sleep(linger);
      const batch = this.items.slice(0, this.options.batchSize);
      this.inFlight = batch.length;
      try {
        await this.options.send(batch);
        this.shift(this.inFlight);
        backoff = this.options.initialBackoffMs;
        this.options.onAttempt?.(this.items.length);
      } catch (e) {
        if (e instanceof Undeliverable) {
          this.shift(this.inFlight);
          this.options.onDrop(batch.length, e.message);
          this.options.onAttempt?.(this.items.length);
        } else {
          this.inFlight = 0;
          this.options.onRetry?.(e as Error, backoff);
          this.options.onAttempt?.(this.items.length);
          await this.sleep(backoff);
          backoff = Math.min(backoff * 2, this.options.maxBackoffMs);
        }
      }
      this.inFlight = 0;
    }
    this.running = false;
    if (this.items.length === 0) for (const done of this.idle.splice(0)) done();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
