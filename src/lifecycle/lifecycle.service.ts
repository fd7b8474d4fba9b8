/**
 * The lifecycle routes' answers: one flag's lifecycle, and a namespace's flag-health report, from the states the
 * check stored (lifecycle-check.ts).
 */
import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import { Clock } from '../common/clock';
import { formatTimestamp } from '../common/timestamps';
import { requireField } from '../common/validation';
import { flagRef } from '../flags/flag.repository';
import { LifecycleCheck } from './lifecycle-check';
import { DEFAULT_HEALTH_LIMIT, MAX_HEALTH_LIMIT, type FlagHealthQuery, type FlagHealthResponse, type FlagLifecycleResponse } from './lifecycle.dto';
import { FLAG_KINDS } from '../wire';
import { lifecycleMarkers } from '../flags/lifecycle-metadata';
import { LifecycleRepository, parseReasons } from './lifecycle.repository';

const time = (d: Date | null | undefined): string | null => (d ? formatTimestamp(d) : null);

@Injectable()
export class LifecycleService {
  constructor(
    private readonly repository: LifecycleRepository,
    private readonly check: LifecycleCheck,
    private readonly clock: Clock,
  ) {}

  /**
   * The stored state, with the flag's metadata as it is now: archived is read from it at once (and a flag no longer
   * archived is judged now); a flag no check has seen yet is judged now. Only a flag judged now has its recent values
   * read (the query behind `rolled_out`, over 14 days of counts); a stored state needs the latest evaluation only.
   */
  async flag(namespaceKey: string, flagKey: string): Promise<FlagLifecycleResponse> {
    requireField('key', flagKey);
    const flag = await this.repository.flag(namespaceKey, flagKey);
    if (!flag) throw new NotFoundError(flagRef(namespaceKey, flagKey));
    const now = this.clock.now();
    const policy = this.check.policy(namespaceKey);
    const stored = await this.repository.one(namespaceKey, flagKey);
    const markers = lifecycleMarkers(flag.metadata);
    const useStored = stored !== null && !markers.archived && stored.state !== 'archived';
    const usagePolicy = useStored ? { ...policy, rolledOutAfter: 0 } : policy;
    const usage = (await this.check.usageOf(namespaceKey, [flagKey], new Map(stored ? [[flagKey, stored]] : []), usagePolicy, now)).get(flagKey)!;
    const current = useStored ? { state: stored.state, reasons: parseReasons(stored.reasons) } : this.check.judge(flag, usage, policy, now);
    return {
      namespaceKey,
      flagKey,
      kind: markers.kind ?? policy.defaultKind,
      state: current.state,
      reasons: current.reasons,
      createdAt: formatTimestamp(flag.createdAt),
      lastEvaluatedAt: time(usage.lastEvaluatedAt),
      checkedAt: time(stored?.checkedAt),
    };
  }

  async health(namespaceKey: string, query: FlagHealthQuery): Promise<FlagHealthResponse> {
    const limit = query.limit ?? DEFAULT_HEALTH_LIMIT;
    const offset = query.offset ?? 0;
    if (limit < 1 || limit > MAX_HEALTH_LIMIT) throw new ValidationError('limit', `must be between 1 and ${MAX_HEALTH_LIMIT}`);
    if (offset < 0) throw new ValidationError('offset', 'must not be negative');
    if (!(await this.repository.namespaceExists(namespaceKey))) throw new NotFoundError(`namespace ${JSON.stringify(namespaceKey)}`);
    const [{ states, kinds, checkedAt }, stale] = await Promise.all([this.repository.counts(namespaceKey), this.repository.stale(namespaceKey, limit, offset)]);
    return {
      namespaceKey,
      checkedAt: time(checkedAt),
      counts: {
        new: states.get('new') ?? 0,
        live: states.get('live') ?? 0,
        potentiallyStale: states.get('potentially_stale') ?? 0,
        archived: states.get('archived') ?? 0,
      },
      kinds: Object.fromEntries(FLAG_KINDS.map((kind) => [kind, kinds.get(kind) ?? 0])),
      staleFlags: stale.slice(0, limit).map((row) => ({ flagKey: row.flagKey, kind: row.kind, reasons: row.reasons, since: formatTimestamp(row.since) })),
      nextOffset: stale.length > limit ? offset + limit : null,
    };
  }
}
