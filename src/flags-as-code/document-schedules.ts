/**
 * Scheduled changes in namespace documents (Flagpole's `x-flagpole-schedules`; docs/flags-as-code.md, Scheduled
 * changes) to and from the database, inside the caller's read or write, as document.repository.ts's functions are.
 * A document names a schedule's rollout or rule by its rank within the flag, because ids do not survive an import:
 * an export turns ids into ranks, an import turns ranks into the ids it has just written.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { AbortedError, FailedPreconditionError, InvalidError } from '../common/errors';
import type { ScheduleAuthor } from '../schedules/schedule-author';
import { closePending, settle, type ScheduleType, type StoredStep } from '../schedules/schedule-steps';
import { ScheduledChange } from '../schedules/scheduled-change.entity';
import { num, read, str, type Read, type Row } from '../storage/rows';
import type { DocumentFlag, DocumentRollout, DocumentRule, DocumentSchedule, NamespaceDocument } from './document';

/** Schedules that still have steps to apply. */
const OPEN = ['ACTIVE', 'PAUSED'];

/** Rows per INSERT, as document.repository.ts's. */
const BATCH = 500;

/** Where a rollout or rule is: its flag's key and its index in the flag's rules or rollouts, as read (rank order). */
export interface TargetPlace {
  flagKey: string;
  index: number;
}

/** The namespace's open schedules, oldest first: the read document.repository.ts adds to an export's. */
export function openSchedulesRead(knex: Knex, namespaceKey: string): Read {
  return read(
    knex('scheduled_changes').where('namespace_key', namespaceKey).whereIn('status', OPEN).orderBy([{ column: 'created_at' }, { column: 'id' }]),
    ['flag_key', 'type', 'target_id', 'description', 'status', 'steps'],
  );
}

/**
 * The open schedules as the document holds them: pending steps only, targets by rank (`places`: rollout and rule ids
 * of the namespace's flags). A schedule that can no longer apply (its flag, rollout or rule is gone or changed shape)
 * is left out: it fails at its next step, and an import would refuse it.
 */
export function documentSchedules(rows: readonly Row[], flags: readonly DocumentFlag[], places: ReadonlyMap<string, TargetPlace>): DocumentSchedule[] {
  const byKey = new Map(flags.map((f) => [f.key, f]));
  const out: DocumentSchedule[] = [];
  for (const row of rows) {
    const type = str(row.type) as ScheduleType;
    const flag = byKey.get(str(row.flag_key));
    const steps = (JSON.parse(str(row.steps)) as StoredStep[])
      .filter((s) => s.status === 'PENDING')
      .map(({ status: _pending, appliedAt: _a, message: _m, ...step }) => ({ ...step, status: 'PENDING' as const }));
    if (!flag || steps.length === 0) continue;
    const schedule: DocumentSchedule = { flag: flag.key, type, description: str(row.description), paused: str(row.status) === 'PAUSED', steps };
    if (type !== 'FLAG_ENABLED') {
      const place = places.get(str(row.target_id));
      if (!place || place.flagKey !== flag.key) continue;
      if (type === 'RULE_DISTRIBUTIONS') {
        const rule = flag.rules[place.index];
        const shared = new Set(rule?.distributions.map((d) => d.variant));
        if (!rule || steps.some((s) => (s.distributions ?? []).some((d) => !shared.has(d.variantKey)))) continue;
        schedule.ruleIndex = place.index;
      } else {
        const rollout = flag.rollouts[place.index];
        if (!rollout || (type === 'ROLLOUT_THRESHOLD') !== (rollout.threshold !== undefined)) continue;
        schedule.rolloutIndex = place.index;
      }
    }
    out.push(schedule);
  }
  return out;
}

export interface ScheduleImport {
  /** Who imports: the schedules' author (schedule-author.ts authorOf). */
  author: ScheduleAuthor;
  /** `schedules.max_active_per_flag`. */
  maxActivePerFlag: number;
}

/**
 * Creates the document's schedules, in the caller's transaction, after its flags were written: `written` are the flag
 * keys written (a flag skipped with skipExisting skips its schedules too), `ids` the ids the rollouts and rules of the
 * document were written under. Refuses, naming the schedule's place, a flag that would have more open schedules than
 * `schedules.max_active_per_flag`.
 */
export async function writeDocumentSchedules(
  em: EntityManager, knex: Knex, doc: NamespaceDocument, written: ReadonlySet<string>, ids: ReadonlyMap<DocumentRule | DocumentRollout, string>,
  options: ScheduleImport, t: Date,
): Promise<{ created: number; skipped: number }> {
  const ns = doc.namespace.key;
  const schedules = (doc.schedules ?? []).filter((s) => written.has(s.flag));
  const flags = new Map(doc.flags.map((f) => [f.key, f]));
  const open = await openCounts(knex, ns, [...new Set(schedules.map((s) => s.flag))]);
  const rows = schedules.map((s) => {
    const count = (open.get(s.flag) ?? 0) + 1;
    open.set(s.flag, count);
    if (count > options.maxActivePerFlag) {
      throw new FailedPreconditionError(`${s.at ? `${s.at}: ` : ''}flag "${ns}/${s.flag}" would have ${count} active or paused schedules, more than schedules.max_active_per_flag (${options.maxActivePerFlag}) allows`);
    }
    const { status, nextAt } = settle(s.paused ? 'PAUSED' : 'ACTIVE', s.steps);
    return {
      id: randomUUID(), namespaceKey: ns, flagKey: s.flag, type: s.type, targetId: targetId(s, flags.get(s.flag)!, ids), description: s.description,
      status, steps: JSON.stringify(s.steps), author: JSON.stringify(options.author), nextAt, version: 1, leaseUntil: null, createdAt: t, updatedAt: t,
    };
  });
  for (let i = 0; i < rows.length; i += BATCH) await em.insertMany(ScheduledChange, rows.slice(i, i + BATCH));
  return { created: rows.length, skipped: (doc.schedules ?? []).length - rows.length };
}

/** The id the schedule's rollout or rule was written under ('' for the flag itself); the reader checked the rank. */
function targetId(s: DocumentSchedule, flag: DocumentFlag, ids: ReadonlyMap<DocumentRule | DocumentRollout, string>): string {
  if (s.type === 'FLAG_ENABLED') return '';
  const target = s.rolloutIndex !== undefined ? flag.rollouts[s.rolloutIndex] : s.ruleIndex !== undefined ? flag.rules[s.ruleIndex] : undefined;
  const id = target && ids.get(target);
  if (!id) throw new InvalidError(`${s.at ? `${s.at}: ` : ''}flag ${JSON.stringify(s.flag)} has no such ${s.type === 'RULE_DISTRIBUTIONS' ? 'rule' : 'rollout'}`);
  return id;
}

/** Open schedules per flag key (schedules are kept by key: a deleted flag's may still be open). */
async function openCounts(knex: Knex, ns: string, flagKeys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < flagKeys.length; i += BATCH) {
    const rows = (await knex('scheduled_changes').select('flag_key').count({ n: '*' }).where('namespace_key', ns)
      .whereIn('status', OPEN).whereIn('flag_key', flagKeys.slice(i, i + BATCH)).groupBy('flag_key')) as Row[];
    for (const r of rows) out.set(str(r.flag_key), num(r.n));
  }
  return out;
}

/** Tries of one row's cancellation that met the runner's change of it. */
const CANCEL_TRIES = 3;

/**
 * Cancels the namespace's open schedules (an import with `drop` deleted every flag they change), in the caller's
 * transaction: their pending steps are CANCELLED with the reason and they stay listed as records. Each row changes by
 * a compare-and-swap on its version, as every schedule edit does, so a step being applied meanwhile is never lost.
 */
export async function cancelOpenSchedules(em: EntityManager, knex: Knex, ns: string, t: Date): Promise<number> {
  const rows = (await knex('scheduled_changes').select('id').where('namespace_key', ns).whereIn('status', OPEN)) as Row[];
  let cancelled = 0;
  for (const { id } of rows) {
    for (let attempt = 1; attempt <= CANCEL_TRIES; attempt++) {
      const [row] = (await knex('scheduled_changes').select('status', 'steps', 'version').where('id', str(id))) as Row[];
      if (!row || !OPEN.includes(str(row.status))) break;
      const steps = closePending(JSON.parse(str(row.steps)) as StoredStep[], 'CANCELLED', 'the namespace was replaced by an import (drop)');
      const version = num(row.version);
      const changed = await em.nativeUpdate(ScheduledChange, { id: str(id), version }, {
        status: 'CANCELLED', steps: JSON.stringify(steps), nextAt: null, leaseUntil: null, version: version + 1, updatedAt: t,
      });
      if (changed === 1) {
        cancelled++;
        break;
      }
      if (attempt === CANCEL_TRIES) throw new AbortedError(`a schedule of namespace ${JSON.stringify(ns)} kept changing during the import: try again`);
    }
  }
  return cancelled;
}
