/**
 * A flag's scheduled changes as timelines: each schedule with its steps in order — when (in the zone chosen under
 * Times, named once in the hint), what it sets in words, and how it went (pending, applied, skipped, failed,
 * cancelled, with the server's message). Open schedules can be edited (their steps not yet applied), paused, resumed
 * and cancelled; the finished ones stay as a record, folded under "Finished". A failed schedule is drawn in the danger colour with the reason on top, and
 * for a week the flag page repeats it above the details (FailedScheduleNotice): a change that did not happen must
 * not go unseen. The server applies steps on its own: the section reads the flag again just after each step's time.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { keys } from '../../api/query-keys';
import { listRollouts } from '../../api/rollouts';
import { listRules } from '../../api/rules';
import { cancelSchedule, listSchedules, pauseSchedule, resumeSchedule, type Schedule, type Step } from '../../api/schedules';
import type { Flag, Rollout, Rule } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { useNotify } from '../../components/notices';
import { useAction } from '../../hooks/use-action';
import { useLoad, type Loaded } from '../../hooks/use-load';
import { formatDateBare, zoneHeading } from '../../lib/format';
import { relativeTime } from '../../lib/relative-time';
import { isOpen, SCHEDULE_STATUS, STEP_STATUS, stepWords, targetOf, type Targets } from '../../lib/schedule-words';
import { useLocks } from '../../session/permissions';
import { useTimeZone } from '../../session/time-zone';
import { ScheduleForm } from './schedule-form';

/** A flag's schedules through the page's cache: the section and the notice above the details share one read. */
export function useSchedules(ns: string, flagKey: string): Loaded<Schedule[]> {
  return useLoad(keys.schedules(ns, flagKey), (signal) => listSchedules(ns, flagKey, signal));
}

/** The flag's rollouts or rules, which the steps name by position (the same reads as their own sections). */
function useTargets(ns: string, flag: Flag): Targets | undefined {
  const isBoolean = flag.type === 'BOOLEAN_FLAG_TYPE';
  const loaded = useLoad<Rollout[] | Rule[]>(isBoolean ? keys.rollouts(ns, flag.key) : keys.rules(ns, flag.key), (signal) =>
    isBoolean ? listRollouts(ns, flag.key, signal) : listRules(ns, flag.key, signal),
  );
  if (!loaded.data) return undefined;
  return isBoolean ? { rollouts: loaded.data as Rollout[], rules: [] } : { rollouts: [], rules: loaded.data as Rule[] };
}

/** How long a failure stays on top of the section and in the notice above the details. */
const RECENT = 7 * 24 * 3600_000;

const isRecentFailure = (s: Schedule) => s.status === 'FAILED' && Date.now() - Date.parse(s.updatedAt) < RECENT;

/** The longest a browser timer waits (2^31 - 1 ms, about 24 days); a later step is looked at again then. */
const MAX_TIMER = 2_147_483_647;
/** After a step's time: long enough for the server's tick (every 500 ms by default) to have applied it. */
const AFTER_STEP = 2_000;
/** While a step is due but not yet seen applied (every instance down?), how often to look again. */
const WHILE_DUE = 10_000;

/**
 * Reads the flag again (its details, rules or rollouts, schedules) just after the next step of an active schedule is
 * due, so that the page shows what the server changed without a reload.
 */
function useReadAfterNextStep(ns: string, flagKey: string, schedules: Schedule[] | undefined): void {
  const client = useQueryClient();
  const next = Math.min(...(schedules ?? []).filter((s) => s.status === 'ACTIVE' && s.nextAt).map((s) => Date.parse(s.nextAt!)));
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    const wait = next - Date.now();
    const timer = setTimeout(
      () => void client.invalidateQueries({ queryKey: keys.flag(ns, flagKey) }),
      wait < 0 ? WHILE_DUE : Math.min(wait + AFTER_STEP, MAX_TIMER),
    );
    return () => clearTimeout(timer);
  }, [client, ns, flagKey, next, schedules]);
}

export function SchedulesSection({ ns, flag }: { ns: string; flag: Flag }) {
  const schedules = useSchedules(ns, flag.key);
  const targets = useTargets(ns, flag);
  const zone = useTimeZone();
  const locks = useLocks();
  const [adding, setAdding] = useState(false);
  const notify = useNotify();
  const lock = locks('flag', 'update', ns);
  useReadAfterNextStep(ns, flag.key, schedules.data);

  const list = schedules.data ?? [];
  // Open schedules and recent failures are what needs attention; the others are the record.
  const current = list.filter((s) => isOpen(s) || isRecentFailure(s));
  const finished = list.filter((s) => !current.includes(s));
  const [editing, setEditing] = useState<Schedule>();
  const item = (s: Schedule) => (
    <ScheduleItem
      key={s.id}
      ns={ns}
      schedule={s}
      targets={targets ?? { rollouts: [], rules: [] }}
      onEdit={!lock && targets ? () => setEditing(s) : undefined}
    />
  );

  return (
    <section className="card schedules" aria-labelledby="schedules-heading" id="schedules">
      <div className="section-header">
        <div>
          <h2 id="schedules-heading">Scheduled changes</h2>
          <p className="hint">
            Changes Flagpole makes to this flag at set times, as if saved here then. Times are {zoneHeading(zone)} (Times, in the navigation).
          </p>
        </div>
        <button type="button" onClick={() => setAdding(true)} disabled={!targets} {...lock?.locked}>
          Schedule a change
        </button>
      </div>
      <ErrorMessage error={schedules.error} />
      {!schedules.data && schedules.loading && <Loading what="Loading scheduled changes" />}
      {schedules.data && list.length === 0 && <p className="empty">Nothing scheduled.</p>}
      {current.length > 0 && <ol className="schedule-list">{current.map(item)}</ol>}
      {finished.length > 0 && (
        <details className="schedules-finished">
          <summary>Finished ({finished.length})</summary>
          <ol className="schedule-list">{finished.map(item)}</ol>
        </details>
      )}
      {editing && targets && (
        <ScheduleForm
          ns={ns}
          flag={flag}
          targets={targets}
          schedule={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => notify('Schedule saved')}
        />
      )}
      {adding && targets && (
        <ScheduleForm ns={ns} flag={flag} targets={targets} onClose={() => setAdding(false)} onSaved={() => notify('Change scheduled')} />
      )}
    </section>
  );
}

/** The author as the audit trail names people: name, else email, else the sign-in method. */
function authorOf(s: Schedule): string | undefined {
  const c = s.createdBy;
  return c?.name || c?.email || c?.authentication || undefined;
}

/** One schedule; `onEdit` when the caller may change it (which also brings Pause, Resume and Cancel). */
function ScheduleItem({ ns, schedule: s, targets, onEdit }: { ns: string; schedule: Schedule; targets: Targets; onEdit?(): void }) {
  const [cancelling, setCancelling] = useState(false);
  const notify = useNotify();
  const pause = useAction(async () => {
    await pauseSchedule(ns, s.flagKey, s.id);
    notify('Schedule paused');
  });
  const resume = useAction(async () => {
    await resumeSchedule(ns, s.flagKey, s.id);
    notify('Schedule resumed');
  });
  const target = targetOf(s, targets);
  const title = s.description || target;
  const failedAt = s.steps.findIndex((step) => step.status === 'FAILED');
  const author = authorOf(s);
  const status = s.status.toLowerCase();
  const headingId = `schedule-${s.id}`;

  return (
    <li className={`schedule schedule-${status}`} aria-labelledby={headingId}>
      <div className="schedule-head">
        <div className="schedule-title">
          <h3 id={headingId}>
            {title} <span className={`badge status-badge status-${status}`}>{SCHEDULE_STATUS[s.status]}</span>
          </h3>
          <p className="muted">
            {s.description && `${target} · `}
            {s.steps.length === 1 ? '1 step' : `${s.steps.length} steps`}
            {author && ` · by ${author}`} · created {formatDateBare(s.createdAt)}
          </p>
        </div>
        {onEdit && isOpen(s) && (
          <div className="schedule-actions">
            <button type="button" onClick={onEdit} aria-describedby={headingId}>
              Edit
            </button>
            {s.status === 'ACTIVE' ? (
              <button type="button" onClick={() => void pause.run()} disabled={pause.busy} aria-describedby={headingId}>
                Pause
              </button>
            ) : (
              <button type="button" onClick={() => void resume.run()} disabled={resume.busy} aria-describedby={headingId}>
                Resume
              </button>
            )}
            <button type="button" className="danger-text" onClick={() => setCancelling(true)} aria-describedby={headingId}>
              Cancel schedule
            </button>
          </div>
        )}
      </div>
      {failedAt >= 0 && (
        <p className="error-box schedule-failure">
          Step {failedAt + 1} failed and changed nothing: {s.steps[failedAt].message || 'no reason given'}.
          {failedAt < s.steps.length - 1 && ' The steps after it were cancelled.'}
        </p>
      )}
      {s.status === 'PAUSED' && <p className="notice-inline">Paused: no step is applied until it is resumed.</p>}
      <ErrorMessage error={pause.error ?? resume.error} />
      <ol className="timeline">
        {s.steps.map((step, i) => (
          <StepItem key={i} index={i} step={step} words={stepWords(s, step, targets)} />
        ))}
      </ol>
      {cancelling && (
        <ConfirmDialog
          title={`Cancel the schedule “${title}”?`}
          confirmLabel="Cancel schedule"
          cancelLabel="Keep it"
          onClose={() => setCancelling(false)}
          onConfirm={async () => {
            await cancelSchedule(ns, s.flagKey, s.id);
            notify('Schedule cancelled');
          }}
        >
          <p>Its pending steps will not be applied. Steps already applied stay as they are; it stays listed as a record.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function StepItem({ index, step, words }: { index: number; step: Step; words: string }) {
  const status = step.status.toLowerCase();
  return (
    <li className={`step step-${status}`}>
      <span className="step-dot" aria-hidden="true" />
      <div className="step-body">
        <p className="step-when">
          <span className="visually-hidden">Step {index + 1}: </span>
          <time dateTime={step.at}>{formatDateBare(step.at)}</time> <span className="muted">{relativeTime(step.at)}</span>
        </p>
        <p className="step-what">{words}</p>
        <p className="step-status">
          <span className={`badge status-badge status-${status}`}>{STEP_STATUS[step.status]}</span>
          {step.message && <span className="step-message"> {step.message}</span>}
          {step.appliedAt && <span className="muted"> · at {formatDateBare(step.appliedAt)}</span>}
          {step.deadline && step.status === 'PENDING' && <span className="muted"> · skipped if not applied by {formatDateBare(step.deadline)}</span>}
        </p>
      </div>
    </li>
  );
}

/**
 * Above the flag's details: a schedule of it failed in the last week (its rollout was deleted, say). A failed schedule
 * cannot be dismissed — it is a record — so an older failure is left to the section's list, under "Finished".
 */
export function FailedScheduleNotice({ ns, flagKey }: { ns: string; flagKey: string }) {
  const schedules = useSchedules(ns, flagKey);
  const failed = (schedules.data ?? []).filter(isRecentFailure);
  if (failed.length === 0) return null;
  const first = failed[0];
  const step = first.steps.find((x) => x.status === 'FAILED');
  return (
    <div className="error-box schedule-failed-notice">
      <span>
        {failed.length === 1 ? 'A scheduled change of this flag failed' : `${failed.length} scheduled changes of this flag failed`}
        {step?.message && `: ${step.message}`}.
      </span>
      <button type="button" onClick={() => document.getElementById('schedules')?.scrollIntoView({ block: 'start' })}>
        Show scheduled changes
      </button>
    </div>
  );
}
