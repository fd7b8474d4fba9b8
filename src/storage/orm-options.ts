import type { Options } from '@mikro-orm/core';
import { Authentication } from '../auth/authentication.entity';
import { OperationLock } from '../auth/operation-lock.entity';
import { Flag } from '../flags/flag.entity';
import { Variant } from '../flags/variant.entity';
import { Namespace } from '../namespaces/namespace.entity';
import { RolloutSegment } from '../rollouts/rollout-segment.entity';
import { Rollout } from '../rollouts/rollout.entity';
import { Distribution } from '../rules/distribution.entity';
import { RuleSegment } from '../rules/rule-segment.entity';
import { Rule } from '../rules/rule.entity';
import { Constraint } from '../segments/constraint.entity';
import { Segment } from '../segments/segment.entity';
import { dialectOf, KNEX_DIALECT_KEY, migrationsPath } from './dialects';
import { MIGRATIONS_TABLE } from './migration-files';
import { AuditRecord } from '../audit/audit-record.entity';

export const ENTITIES = [Namespace, Flag, Variant, Segment, Constraint, Rule, RuleSegment, Distribution, Rollout, RolloutSegment,
  Authentication, OperationLock, AuditRecord];

export const ACQUIRE_TIMEOUT_MS = 10_000;

export interface DatabaseSettings {
  url: string;
  maxOpenConn?: number;
  maxIdleConn?: number;
  connMaxLifetime?: number;
}

export function ormOptions(db: DatabaseSettings): Options {
  const dialect = dialectOf(db.url);
  const base = dialect.orm(db.url);
  const pool = base.pool ?? {
    min: 0,
    max: db.maxOpenConn && db.maxOpenConn > 0 ? db.maxOpenConn : 10,
    // A database that accepts connections but never answers fails a query after 10 s (knex's default is 60 s), so
    // writes get their 503 and evaluation snapshots retry their reload instead of waiting a minute.
    acquireTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    ...(db.connMaxLifetime ? { idleTimeoutMillis: db.connMaxLifetime } : {}),
  };
  return {
    ...base,
    pool,
    // Merged into knex's configuration by MikroORM: readers tell the dialect from it (rows.ts, dialectOfKnex).
    driverOptions: { ...base.driverOptions, [KNEX_DIALECT_KEY]: dialect.name },
    entities: ENTITIES,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    // Entities are plain data to services; they are mapped to Flipt's JSON explicitly.
    serialization: { forceObject: true },
    // The Migrator (@mikro-orm/migrations, umzug) is not registered here: migration-runner.ts loads and registers it
    // when a migration is pending, which a started database does not have.
    migrations: {
      tableName: MIGRATIONS_TABLE,
      path: migrationsPath(dialect),
      glob: '!(*.d).{js,ts}',
      emit: 'js',
      transactional: dialect.transactionalDdl !== false,
      allOrNothing: dialect.transactionalDdl !== false,
      snapshot: false,
      disableForeignKeys: false,
      silent: true,
    },
    // No DEFAULTs from initialisers: services always write every column, and MySQL 8 refuses DEFAULT on TEXT.
    discovery: { warnWhenNoEntities: true, inferDefaultValues: false },
  };
}
