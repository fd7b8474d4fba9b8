import { formatTimestamp } from '../common/timestamps';
import type { ScheduleResponse } from './schedule.dto';
import { parseAuthor } from './schedule-author';
import type { ScheduledChange } from './scheduled-change.entity';
import type { ScheduleStatus, ScheduleType, StoredStep } from './schedule-steps';

/** A stored time (ISO, milliseconds) as the house prints timestamps: UTC, fraction only when not zero. */
const printed = (iso: string) => formatTimestamp(new Date(iso));

export function toScheduleResponse(s: ScheduledChange): ScheduleResponse {
  const type = s.type as ScheduleType;
  const steps = (JSON.parse(s.steps) as StoredStep[]).map((step) => ({
    ...step,
    at: printed(step.at),
    ...(step.deadline ? { deadline: printed(step.deadline) } : {}),
    ...(step.appliedAt ? { appliedAt: printed(step.appliedAt) } : {}),
  }));
  return {
    id: s.id,
    namespaceKey: s.namespaceKey,
    flagKey: s.flagKey,
    description: s.description,
    type,
    ...(type === 'ROLLOUT_THRESHOLD' || type === 'ROLLOUT_SEGMENT' ? { rolloutId: s.targetId } : {}),
    ...(type === 'RULE_DISTRIBUTIONS' ? { ruleId: s.targetId } : {}),
    status: s.status as ScheduleStatus,
    steps,
    ...(s.nextAt ? { nextAt: formatTimestamp(s.nextAt) } : {}),
    createdBy: parseAuthor(s.author).actor,
    createdAt: formatTimestamp(s.createdAt),
    updatedAt: formatTimestamp(s.updatedAt),
  };
}
