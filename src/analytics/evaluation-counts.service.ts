/**
 * Counts evaluations for analytics (`analytics.enabled`) without a database write per evaluation: the evaluation
 * service reports each successful evaluation here, synchronously, into an in-memory EvaluationCounter; every
 * `analytics.buffer.flush_period` the counts are added to the database in one transaction (AnalyticsRepository.add).
 * A flush that fails leaves its rows in the counter (bounded by `limits.max_analytics_backlog`) for the next one, and
 * evaluations never wait for a flush. On shutdown what is held is flushed once, before the database closes.
 *
 * Evaluations that fail (an unknown flag, a flag of the other type) never get here, and neither do client-side
 * evaluations (snapshots), as in Flipt.
 */
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import type { BooleanOutcome, VariantOutcome } from '../core';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { AnalyticsRepository } from './analytics.repository';
import { EvaluationCounter, MINUTE_MS, REASON_NUMBERS } from './evaluation-counter';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

const currentMinute = () => Math.floor(Date.now() / MINUTE_MS);
/** How long shutdown waits for its flush (a database that does not answer must not hold the exit up). */
const SHUTDOWN_WAIT_MS = 5_000;

@ProcessDuty()
@Injectable()
export class EvaluationCounts implements ProcessDutyProvider, BeforeApplicationShutdown {
  /** Whether evaluations are counted: the evaluation service checks it before calling, so that off costs one test. */
  readonly on: boolean;
  private readonly logger = new Logger('Analytics');
  private readonly counter: EvaluationCounter;
  private readonly flushPeriod: number;
  private readonly dropped: Counter | null;
  private timer: NodeJS.Timeout | null = null;
  /** Moves the counter to the next minute at its start (counting reads no clock). */
  private clock: NodeJS.Timeout | null = null;
  /** The flush in progress (flushes run one at a time, each after the one before). */
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = false;
  private failing = false;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly repository: AnalyticsRepository,
    metrics: MetricsRegistry,
  ) {
    this.on = config.analytics.enabled;
    this.flushPeriod = config.analytics.buffer.flushPeriod;
    this.counter = new EvaluationCounter(config.limits.maxAnalyticsBacklog);
    this.dropped = this.on && metrics.enabled
      ? new Counter({
          name: 'flagpole_analytics_counts_dropped_total',
          help: 'Evaluations not counted for analytics: held counts past limits.max_analytics_backlog while flushes failed',
          registers: [metrics.registry],
        })
      : null;
  }

  variant(namespace: string, o: VariantOutcome): void {
    this.counter.count(namespace, o.flagKey, o.variantKey, REASON_NUMBERS[o.reason]);
  }

  boolean(namespace: string, o: BooleanOutcome): void {
    // Literals, not String(o.enabled): no string is made per evaluation.
    this.counter.count(namespace, o.flagKey, o.enabled ? 'true' : 'false', REASON_NUMBERS[o.reason]);
  }

  /** The flush period and the minute timer: a process duty (the write worker evaluates nothing). */
  start(): void {
    if (!this.on) return;
    this.tick();
    // A period whose flush is still running (a slow database) is skipped, so flushes never pile up.
    this.timer = setInterval(() => {
      if (!this.inFlight) void this.flush();
    }, this.flushPeriod);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.clock) clearTimeout(this.clock);
    this.timer = this.clock = null;
    if (!this.on) return;
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise<void>((resolve) => (wait = setTimeout(resolve, SHUTDOWN_WAIT_MS)))]);
    clearTimeout(wait);
    if (this.inFlight) this.logger.warn(`shutting down while the last analytics flush waits for the database: its counts may be lost`);
    else if (this.counter.size > 0) this.logger.warn(`shutting down with ${this.counter.size} evaluation count(s) not stored`);
  }

  /**
   * Writes what is held now; resolves when it is written or has been put back after a failure (never rejects).
   * Public for tests, which cannot wait for Flipt's 10 s minimum period.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce());
    return this.flushing;
  }

  /**
   * At each minute's start (a timer a millisecond past it): evaluations in the moments a late timer takes (a busy
   * event loop) go to the minute before.
   */
  private tick = (): void => {
    this.counter.setMinute(currentMinute());
    this.clock = setTimeout(this.tick, MINUTE_MS - (Date.now() % MINUTE_MS) + 1);
    this.clock.unref();
  };

  private async flushOnce(): Promise<void> {
    this.counter.setMinute(currentMinute());
    this.report(this.counter.takeDropped());
    const rows = this.counter.take();
    if (rows.length === 0) return;
    this.inFlight = true;
    try {
      await this.repository.add(rows);
      if (this.failing) this.logger.log('analytics counts are stored again');
      this.failing = false;
    } catch (e) {
      this.counter.restore(rows);
      this.report(this.counter.takeDropped());
      // Once per outage, not once per period.
      if (!this.failing) this.logger.warn(`analytics flush failed, ${this.counter.size} count(s) held for the next: ${(e as Error).message}`);
      this.failing = true;
    } finally {
      this.inFlight = false;
    }
  }

  private report(dropped: number): void {
    if (dropped === 0) return;
    this.dropped?.inc(dropped);
    this.logger.warn(`${dropped} evaluation(s) not counted: limits.max_analytics_backlog reached while flushes fail`);
  }
}
