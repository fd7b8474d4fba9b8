/**
 * The periodic lifecycle check (docs/api.md, Flag lifecycle): every `lifecycle.check_interval`, on one instance per
 * round (operation lock `check_flag_lifecycle`; the first round at start), not in the write worker, every flag of
 * every namespace is judged (lifecycle-state.ts) from its metadata, its age, its newest change and analytics' counts,
 * and its state stored in `flag_lifecycle`, a page of flags at a time. Rows of deleted flags are dropped.
 *
 * A flag that becomes potentially stale is recorded once in the audit trail (type `flag`, action `stale`, so the
 * sinks and signed webhooks hear of it); one that stops being so, `unstale`. Reasons changing while it stays stale
 * record nothing. The events are recorded after the states are stored, so a round that fails records nothing and the
 * next one finds the same transitions. Time is the injected Clock; tests call `check()`.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Gauge } from 'prom-client';
import { AnalyticsUsage } from '../analytics/analytics-usage';
import { auditEvent, type AuditActor } from '../audit/audit-event';
import { AuditTrail } from '../audit/audit-trail.service';
import { OperationLocks } from '../auth/operation-lock.service';
import { Clock } from '../common/clock';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { FlagLifecycle } from './flag-lifecycle.entity';
import { lifecycleMarkers } from '../flags/lifecycle-metadata';
import { policyFor, type LifecyclePolicy } from './lifecycle-policy';
import { judge, type Judgement, type Reason } from './lifecycle-state';
import { LifecycleRepository, parseReasons, type CheckedFlag } from './lifecycle.repository';
import { ProcessDuty, type ProcessDutyProvider } from '../common/process-duty';

/** Who the check's audit events are by: no request made them. */
const CHECK_ACTOR: AuditActor = { authentication: 'none', name: 'lifecycle check' };

/** What the check knows of a flag beyond its row: its stored state, and what analytics says. */
export interface FlagUsage {
  stored: FlagLifecycle | null;
  lastEvaluatedAt: Date | null;
  recentValues?: ReadonlyMap<string, number>;
}

@ProcessDuty()
@Injectable()
export class LifecycleCheck implements ProcessDutyProvider {
  private readonly logger = new Logger('Lifecycle');
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly repository: LifecycleRepository,
    private readonly usage: AnalyticsUsage,
    private readonly clock: Clock,
    private readonly trail: AuditTrail,
    private readonly locks: OperationLocks,
    private readonly scheduler: SchedulerRegistry,
    metrics: MetricsRegistry,
  ) {
    if (!config.lifecycle.enabled || !metrics.enabled) return;
    const check = this;
    new Gauge({
      name: 'flagpole_flags_potentially_stale',
      help: 'Flags the last lifecycle check found potentially stale, per namespace (all instances report the same)',
      labelNames: ['namespace'],
      registers: [metrics.registry],
      async collect() {
        const counts = await check.repository.staleByNamespace().catch(() => undefined);
        if (counts === undefined) return;
        this.reset();
        for (const [namespace, n] of counts) this.set({ namespace }, n);
      },
    });
  }

  start(): void {
    if (!this.config.lifecycle.enabled) return;
    this.locks.repeat(
      this.scheduler, this.logger, 'check_flag_lifecycle', this.config.lifecycle.checkInterval,
      () => this.check(),
      (n) => `flag lifecycle: ${n} flag(s) became potentially stale`,
    );
  }

  /** The policy a namespace's flags are judged by. */
  policy(namespaceKey: string): LifecyclePolicy {
    return policyFor(this.config.lifecycle, namespaceKey, this.usage.counted);
  }

  /** A flag's judgement now, from its row and usage. */
  judge(flag: CheckedFlag, usage: FlagUsage, policy: LifecyclePolicy, now: number): Judgement & { kind: string } {
    const markers = lifecycleMarkers(flag.metadata);
    const kind = markers.kind ?? policy.defaultKind;
    const previous = usage.stored?.state === 'potentially_stale' ? parseReasons(usage.stored.reasons) : [];
    const facts = { kind, archived: markers.archived, createdAt: flag.createdAt, changedAt: flag.changedAt, lastEvaluatedAt: usage.lastEvaluatedAt, recentValues: usage.recentValues };
    return { kind, ...judge(facts, policy, now, previous) };
  }

  /**
   * What analytics and the stored rows say of these flags of one namespace: the latest evaluation known (the stored
   * one, which outlives analytics' retention, or analytics', whichever is later) and, when `rolled_out` is on, the
   * values returned since its window's start.
   */
  async usageOf(namespaceKey: string, keys: string[], stored: Map<string, FlagLifecycle>, policy: LifecyclePolicy, now: number): Promise<Map<string, FlagUsage>> {
    const [last, values] = await Promise.all([
      this.usage.lastEvaluated(namespaceKey, keys),
      policy.rolledOutAfter > 0 ? this.usage.valuesSince(namespaceKey, keys, new Date(now - policy.rolledOutAfter)) : Promise.resolve(undefined),
    ]);
    const out = new Map<string, FlagUsage>();
    for (const key of keys) {
      const row = stored.get(key) ?? null;
      const seen = [last.get(key)?.getTime(), row?.lastEvaluatedAt?.getTime()].filter((t): t is number => t !== undefined);
      out.set(key, {
        stored: row,
        lastEvaluatedAt: seen.length > 0 ? new Date(Math.max(...seen)) : null,
        ...(values ? { recentValues: values.get(key) ?? new Map<string, number>() } : {}),
      });
    }
    return out;
  }

  /** One round at once, after any round in progress; resolves with how many flags became potentially stale. */
  check(): Promise<number> {
    const round = this.queue.then(() => this.round());
    this.queue = round.catch(() => undefined);
    return round;
  }

  private async round(): Promise<number> {
    const now = this.clock.now();
    let becameStale = 0;
    for (const namespaceKey of await this.repository.namespaceKeys()) {
      const policy = this.policy(namespaceKey);
      for (let after: string | null = null; ;) {
        const flags = await this.repository.flagPage(namespaceKey, after);
        if (flags.length === 0) break;
        becameStale += await this.checkPage(namespaceKey, flags, policy, now);
        after = flags[flags.length - 1].key;
      }
    }
    await this.repository.dropGone();
    return becameStale;
  }

  private async checkPage(namespaceKey: string, flags: CheckedFlag[], policy: LifecyclePolicy, now: number): Promise<number> {
    const keys = flags.map((f) => f.key);
    const stored = new Map((await this.repository.read(namespaceKey, keys)).map((row) => [row.flagKey, row]));
    const usage = await this.usageOf(namespaceKey, keys, stored, policy, now);
    const rows: FlagLifecycle[] = [];
    const transitions: Array<{ key: string; kind: string; into: boolean; reasons: Reason[] }> = [];
    const at = new Date(now);
    for (const flag of flags) {
      const known = usage.get(flag.key)!;
      const { kind, state, reasons } = this.judge(flag, known, policy, now);
      const before = known.stored;
      rows.push({
        namespaceKey, flagKey: flag.key, kind, state, reasons: JSON.stringify(reasons),
        since: before && before.state === state ? before.since : at,
        checkedAt: at,
        lastEvaluatedAt: known.lastEvaluatedAt,
      });
      const wasStale = before?.state === 'potentially_stale';
      const isStale = state === 'potentially_stale';
      if (wasStale !== isStale) transitions.push({ key: flag.key, kind, into: isStale, reasons });
    }
    await this.repository.save(rows);
    for (const t of transitions) {
      const payload = { key: t.key, namespace_key: namespaceKey, kind: t.kind, reasons: t.reasons };
      // A resource of its own, so that the flag's next update still finds its previous payload as its `before`.
      this.trail.record(auditEvent('flag', t.into ? 'stale' : 'unstale', payload, CHECK_ACTOR, at), {
        namespace: namespaceKey, flag: t.key, segment: null, resource: `flag-lifecycle:${namespaceKey}/${t.key}`,
      });
    }
    return transitions.filter((t) => t.into).length;
  }
}
