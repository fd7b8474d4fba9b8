/**
 * Every MikroORM entity of the application, in one list: the app's assembly hands it to StorageModule (and the
 * export/import commands, the migration generator and the storage tests to MikroORM), so that storage/ names no
 * feature's entity.
 */
import { Authentication } from './auth/authentication.entity';
import { OperationLock } from './auth/operation-lock.entity';
import { Flag } from './flags/flag.entity';
import { Variant } from './flags/variant.entity';
import { Namespace } from './namespaces/namespace.entity';
import { RolloutSegment } from './rollouts/rollout-segment.entity';
import { Rollout } from './rollouts/rollout.entity';
import { Distribution } from './rules/distribution.entity';
import { RuleSegment } from './rules/rule-segment.entity';
import { Rule } from './rules/rule.entity';
import { Constraint } from './segments/constraint.entity';
import { Segment } from './segments/segment.entity';
import { AuditRecord } from './audit/audit-record.entity';
import { AnalyticsCount } from './analytics/analytics-count.entity';
import { FlagLifecycle } from './lifecycle/flag-lifecycle.entity';
import { ScheduledChange } from './schedules/scheduled-change.entity';

export const ENTITIES = [Namespace, Flag, Variant, Segment, Constraint, Rule, RuleSegment, Distribution, Rollout, RolloutSegment,
  Authentication, OperationLock, AuditRecord, ScheduledChange, AnalyticsCount, FlagLifecycle];
