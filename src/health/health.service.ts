/**
 * Flagpole's health, one state for every way of asking (`/health`, `/health/ready`, gRPC `grpc.health.v1.Health`):
 *
 * - serving: started, not shutting down, and every dependency check passing (the database; Redis joins through
 *   `register` when the cache uses it). `/health` and the gRPC service report this.
 * - ready: started and not shutting down. A database outage does not make Flagpole unready: evaluations keep
 *   answering from the loaded snapshots (decisions §3), which they could not if every replica left the load balancer.
 *
 * The dependency checks run through Terminus every CHECK_INTERVAL_MS and on every `/health` request; listeners (the
 * gRPC server) hear each change of `serving`.
 */
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { HealthCheckService, MikroOrmHealthIndicator, type HealthIndicatorResult } from '@nestjs/terminus';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { dialectOf } from '../storage/dialects';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

export const CHECK_INTERVAL_MS = 5000;
/** The database check's limit where the dialect table sets none. */
const DATABASE_TIMEOUT_MS = 1500;

export type DependencyCheck = () => Promise<HealthIndicatorResult>;

export interface HealthReport {
  serving: boolean;
  /** Why not serving: `shutting down`, or `<dependency>[, <dependency>] unreachable`. */
  reason: string;
}

@ProcessDuty()
@Injectable()
export class HealthService implements ProcessDutyProvider, OnModuleDestroy {
  private readonly logger = new Logger('Health');
  private readonly checks = new Map<string, DependencyCheck>();
  private readonly describers = new Map<string, () => unknown>();
  private readonly listeners = new Set<(serving: boolean) => void>();
  private down: string[] | null = null; // null until the first check
  private stopping = false;
  private running: Promise<HealthReport> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly detailsNeedCredential: boolean;

  constructor(
    private readonly terminus: HealthCheckService,
    database: MikroOrmHealthIndicator,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.detailsNeedCredential = config.authentication.required;
    const timeout = dialectOf(config.db.url).healthTimeoutMs ?? DATABASE_TIMEOUT_MS;
    this.register('database', () => database.pingCheck('database', { timeout }));
  }

  /** Adds a dependency whose failure makes Flagpole NOT_SERVING (the Redis cache, when it is configured). */
  register(name: string, check: DependencyCheck): void {
    this.checks.set(name, check);
  }

  /**
   * Adds `name` to `/health`'s answer: what the describer returns now (declarative storage: where its state comes
   * from, and why the latest change was refused). Informs; does not decide serving.
   */
  describe(name: string, describer: () => unknown): void {
    this.describers.set(name, describer);
  }

  /**
   * What the describers say now, for `caller` (the authentication `/health` found, if any). With
   * `authentication.required` only a caller with a credential hears it: the details name files, roles and why a
   * change was refused, which is the operator's business; without it everything is open to anyone anyway.
   */
  detailsFor(caller: AuthenticationRecord | undefined): Record<string, unknown> {
    if (this.detailsNeedCredential && !caller) return {};
    return Object.fromEntries([...this.describers].map(([name, describe]) => [name, describe()]));
  }

  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.startShutdown();
  }

  /** From here on: NOT_SERVING and not ready. Called on SIGTERM and by the first shutdown hook. */
  startShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.stopping) return;
    const was = this.isServing();
    this.stopping = true;
    if (was) this.notify();
  }

  isServing(): boolean {
    return !this.stopping && this.down !== null && this.down.length === 0;
  }

  isReady(): boolean {
    return !this.stopping;
  }

  isStopping(): boolean {
    return this.stopping;
  }

  report(): HealthReport {
    if (this.stopping) return { serving: false, reason: 'shutting down' };
    if (this.down === null) return { serving: false, reason: 'starting' };
    if (this.down.length) return { serving: false, reason: `${this.down.join(', ')} unreachable` };
    return { serving: true, reason: '' };
  }

  /** Calls `listener` with the new `serving` on every change; returns the unsubscribe function. */
  onChange(listener: (serving: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs the dependency checks now (concurrent callers share one run) and returns the resulting state. */
  check(): Promise<HealthReport> {
    this.running ??= this.runChecks().finally(() => (this.running = null));
    return this.running;
  }

  private async runChecks(): Promise<HealthReport> {
    if (this.stopping) return this.report();
    let down: string[];
    try {
      await this.terminus.check([...this.checks.values()]);
      down = [];
    } catch (e) {
      const result = (e as { getResponse?: () => { error?: Record<string, unknown> } }).getResponse?.();
      down = result?.error ? Object.keys(result.error) : [...this.checks.keys()];
    }
    this.update(down);
    return this.report();
  }

  private update(down: string[]): void {
    const was = this.isServing();
    const before = this.down;
    this.down = down;
    if (before !== null && before.join() !== down.join()) {
      if (down.length) this.logger.warn(`NOT_SERVING: ${down.join(', ')} unreachable`);
      else this.logger.log(`SERVING: ${before.join(', ')} reachable again`);
    }
    if (was !== this.isServing()) this.notify();
  }

  private notify(): void {
    const serving = this.isServing();
    for (const listener of this.listeners) listener(serving);
  }
}
