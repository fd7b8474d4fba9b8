/**
 * "Schedule a change": what to change (the flag's on/off switch; a threshold rollout's percentage or a segment
 * rollout's value; a rule's split), then one step or more — a time, entered in the zone chosen under Times and named
 * beside the field, the value to set then, and an optional deadline after which a step not yet applied is skipped.
 * Several steps make a progressive rollout (10 % now, 50 % tomorrow, 100 % on Monday). The form checks what it can
 * (times given and in order, percentages, a split of 100 %); the server checks the rest and its refusal is shown here.
 */
import { useState } from 'react';
import { createSchedule, updateSchedule, type Schedule, type ScheduleType, type Step, type StepInput } from '../../api/schedules';
import type { Flag } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { PercentInput } from '../../components/percent-input';
import { useAction } from '../../hooks/use-action';
import { splitProblem, totalPercent } from '../../lib/distributions';
import { formatDateTime, inputOfInstant, instantOfInput, zoneLabel } from '../../lib/format';
import { percent, rolloutLabel, ruleWithSegments, splitWords, targetOf, type Targets } from '../../lib/schedule-words';
import { useTimeZone, type TimeZone } from '../../session/time-zone';

/** One choice of the "Change" list: what a schedule of that type targets, and its value as it is now. */
interface Target {
  id: string;
  label: string;
  type: ScheduleType;
  rolloutId?: string;
  ruleId?: string;
  /** The value now, which a new step starts from. */
  now: Value;
}

/** A step's value as edited: every kind is kept, the target's type says which one is sent. */
interface Value {
  enabled: boolean;
  percentage: number;
  value: boolean;
  /** By variant key, in the rule's order. */
  shares: Array<{ variantKey: string; rollout: number }>;
}

interface Draft extends Value {
  /** `<input type="datetime-local">` values, in the chosen zone. */
  at: string;
  deadline: string;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const BLANK: Value = { enabled: true, percentage: 0, value: true, shares: [] };

/** What the flag offers to schedule, in the order of its page. */
function targetsOf(flag: Flag, t: Targets): Target[] {
  const list: Target[] = [
    { id: 'enabled', label: `The flag’s on/off switch (now ${flag.enabled ? 'on' : 'off'})`, type: 'FLAG_ENABLED', now: { ...BLANK, enabled: !flag.enabled } },
  ];
  for (const r of t.rollouts) {
    const name = rolloutLabel(t.rollouts, r.id);
    if (r.threshold) {
      list.push({
        id: `rollout:${r.id}`,
        label: `${name}: percentage (threshold, now ${percent(r.threshold.percentage)})`,
        type: 'ROLLOUT_THRESHOLD',
        rolloutId: r.id,
        now: { ...BLANK, percentage: r.threshold.percentage },
      });
    } else if (r.segment) {
      list.push({
        id: `rollout:${r.id}`,
        label: `${name}: value (segment, now ${String(r.segment.value)})`,
        type: 'ROLLOUT_SEGMENT',
        rolloutId: r.id,
        now: { ...BLANK, value: r.segment.value },
      });
    }
  }
  const variantKeys = new Map(flag.variants.map((v) => [v.id, v.key]));
  for (const rule of t.rules) {
    // A split names variants by key; a rule serving none has no split to schedule.
    const shares = rule.distributions.map((d) => ({ variantKey: variantKeys.get(d.variantId) ?? d.variantId, rollout: d.rollout }));
    if (shares.length === 0) continue;
    list.push({
      id: `rule:${rule.id}`,
      label: `${ruleWithSegments(t.rules, rule)}: split (now ${splitWords(shares)})`,
      type: 'RULE_DISTRIBUTIONS',
      ruleId: rule.id,
      now: { ...BLANK, shares },
    });
  }
  return list;
}

/** What an existing schedule changes, as a choice (the only one: its target cannot change), even if it is gone. */
function targetOfSchedule(schedule: Schedule, choices: Target[], t: Targets): Target {
  const id = schedule.rolloutId ? `rollout:${schedule.rolloutId}` : schedule.ruleId ? `rule:${schedule.ruleId}` : 'enabled';
  const found = choices.find((c) => c.id === id);
  if (found) return found;
  return { id, label: targetOf(schedule, t), type: schedule.type, rolloutId: schedule.rolloutId, ruleId: schedule.ruleId, now: BLANK };
}

/** A step of the API as the form edits it, in `zone` (to the minute, as the time boxes are). */
function draftOf(step: Step, base: Value, zone: TimeZone): Draft {
  return {
    enabled: step.enabled ?? base.enabled,
    percentage: step.percentage ?? base.percentage,
    value: step.value ?? base.value,
    shares: step.distributions?.map((d) => ({ variantKey: d.variantKey, rollout: d.rollout })) ?? base.shares,
    at: inputOfInstant(new Date(step.at), zone),
    deadline: step.deadline ? inputOfInstant(new Date(step.deadline), zone) : '',
  };
}

/** The next full hour: a first step's time to start from. */
function nextHour(): Date {
  return new Date(Math.ceil((Date.now() + 1) / HOUR) * HOUR);
}

/** Why the steps cannot be sent as they are, or the steps to send; `first` steps are done already (an edit). */
function checkSteps(steps: Draft[], type: ScheduleType, zone: TimeZone, first = 0): { problem: string } | { steps: StepInput[] } {
  const out: StepInput[] = [];
  let previous: Date | undefined;
  for (const [i, d] of steps.entries()) {
    const n = steps.length > 1 || first > 0 ? `Step ${first + i + 1}: ` : '';
    const at = instantOfInput(d.at, zone);
    if (!at) return { problem: `${n}enter the date and time.` };
    if (previous && at <= previous) return { problem: `${n}its time must be after the step before.` };
    previous = at;
    const deadline = d.deadline ? instantOfInput(d.deadline, zone) : undefined;
    if (d.deadline && !deadline) return { problem: `${n}the deadline is not a complete date and time.` };
    if (deadline && deadline < at) return { problem: `${n}the deadline cannot be before the step’s time.` };
    const step: StepInput = { at: at.toISOString(), ...(deadline ? { deadline: deadline.toISOString() } : {}) };
    if (type === 'FLAG_ENABLED') step.enabled = d.enabled;
    if (type === 'ROLLOUT_SEGMENT') step.value = d.value;
    if (type === 'ROLLOUT_THRESHOLD') {
      if (!(d.percentage >= 0 && d.percentage <= 100)) return { problem: `${n}the percentage must be from 0 to 100.` };
      step.percentage = d.percentage;
    }
    if (type === 'RULE_DISTRIBUTIONS') {
      const problem = splitProblem(d.shares.map((s) => ({ variantId: s.variantKey, percent: s.rollout })));
      if (problem) return { problem: `${n}${problem}` };
      step.distributions = d.shares.map((s) => ({ ...s }));
    }
    out.push(step);
  }
  return { steps: out };
}

/**
 * A new schedule, or (`schedule`) an open one edited: its target stays, its steps not yet applied are replaced, and
 * those already done are listed above them as they were.
 */
export function ScheduleForm({
  ns,
  flag,
  targets,
  schedule,
  onClose,
  onSaved,
}: {
  ns: string;
  flag: Flag;
  targets: Targets;
  schedule?: Schedule;
  onClose(): void;
  onSaved(): void;
}) {
  const zone = useTimeZone();
  const all = targetsOf(flag, targets);
  const choices = schedule ? [targetOfSchedule(schedule, all, targets)] : all;
  const [targetId, setTargetId] = useState(choices[0].id);
  const target = choices.find((c) => c.id === targetId) ?? choices[0];
  const [description, setDescription] = useState(schedule?.description ?? '');
  const done = schedule?.steps.filter((x) => x.status !== 'PENDING') ?? [];
  const [steps, setSteps] = useState<Draft[]>(() => {
    const pending = schedule?.steps.filter((x) => x.status === 'PENDING') ?? [];
    if (pending.length > 0) return pending.map((x) => draftOf(x, target.now, zone));
    return [{ ...target.now, at: inputOfInstant(nextHour(), zone), deadline: '' }];
  });
  const [problem, setProblem] = useState<string>();

  const save = useAction(async (input: StepInput[]) => {
    if (schedule) await updateSchedule(ns, flag.key, schedule.id, { description: description.trim(), steps: input });
    else {
      await createSchedule(ns, flag.key, {
        description: description.trim() || undefined,
        type: target.type,
        rolloutId: target.rolloutId,
        ruleId: target.ruleId,
        steps: input,
      });
    }
    onSaved();
    onClose();
  });

  const choose = (id: string) => {
    const next = choices.find((c) => c.id === id) ?? choices[0];
    setTargetId(next.id);
    // The values of another target mean nothing here: every step starts again from the new one's value now.
    setSteps((list) => list.map((d) => ({ ...d, ...next.now, shares: next.now.shares.map((s) => ({ ...s })) })));
  };
  const change = (i: number, patch: Partial<Draft>) => setSteps((list) => list.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const addStep = () =>
    setSteps((list) => {
      const last = list[list.length - 1];
      const at = instantOfInput(last.at, zone);
      // A progressive rollout goes up a day at a time, by default; the time is only a start.
      return [...list, { ...last, shares: last.shares.map((s) => ({ ...s })), at: at ? inputOfInstant(new Date(at.getTime() + DAY), zone) : '', deadline: '' }];
    });

  const submit = () => {
    const checked = checkSteps(steps, target.type, zone, done.length);
    if ('problem' in checked) return setProblem(checked.problem);
    setProblem(undefined);
    void save.run(checked.steps);
  };

  return (
    <ModalForm
      title={schedule ? 'Edit schedule' : 'Schedule a change'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={schedule ? 'Save schedule' : 'Schedule'}
      busy={save.busy}
      error={problem ?? save.error}
      wide
    >
      <Field
        label="Change"
        hint={schedule ? 'What a schedule changes stays; for something else, schedule another change.' : 'One schedule changes one thing; schedule another change for something else.'}
      >
        {(p) => (
          <select {...p} value={target.id} onChange={(e) => choose(e.target.value)} disabled={Boolean(schedule)}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {done.length > 0 && (
        <div>
          <p className="hint">Done, and kept as they are:</p>
          <ol className="schedule-done">
            {done.map((x, i) => (
              <li key={i}>
                Step {i + 1}, {formatDateTime(new Date(x.at), zone)}: {x.status.toLowerCase()}
              </li>
            ))}
          </ol>
        </div>
      )}
      <ol className="schedule-steps">
        {steps.map((d, i) => (
          <li key={i}>
            <StepFields
              index={done.length + i}
              draft={d}
              type={target.type}
              zone={zone}
              onChange={(patch) => change(i, patch)}
              onRemove={steps.length > 1 ? () => setSteps((list) => list.filter((_, j) => j !== i)) : undefined}
            />
          </li>
        ))}
      </ol>
      <div>
        <button type="button" onClick={addStep}>
          Add step
        </button>
        <p className="hint">
          Several steps make a progressive rollout: each applies at its time, in order. A deadline is optional: a step not applied by
          then (Flagpole was down, or the schedule paused) is skipped.
        </p>
      </div>
      <Field label="Description" hint="Optional: what the schedule is for (“launch campaign”).">
        {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
    </ModalForm>
  );
}

function StepFields({
  index,
  draft: d,
  type,
  zone,
  onChange,
  onRemove,
}: {
  index: number;
  draft: Draft;
  type: ScheduleType;
  zone: TimeZone;
  onChange(patch: Partial<Draft>): void;
  onRemove?(): void;
}) {
  const at = instantOfInput(d.at, zone);
  const deadline = instantOfInput(d.deadline, zone);
  const other: TimeZone = zone === 'utc' ? 'local' : 'utc';
  return (
    <fieldset className="schedule-step">
      <legend>Step {index + 1}</legend>
      <div className="schedule-step-fields">
        <Field label={`At (${zoneLabel(zone, at ?? new Date())})`} hint={at ? `That is ${formatDateTime(at, other)}.` : undefined}>
          {(p) => <input {...p} type="datetime-local" required value={d.at} onChange={(e) => onChange({ at: e.target.value })} />}
        </Field>
        <StepValueField draft={d} type={type} onChange={onChange} />
        <Field
          label={`Deadline (${zoneLabel(zone, deadline ?? at ?? new Date())})`}
          hint={deadline ? `Skipped if not applied by ${formatDateTime(deadline, zone)}.` : undefined}
        >
          {(p) => <input {...p} type="datetime-local" value={d.deadline} onChange={(e) => onChange({ deadline: e.target.value })} />}
        </Field>
      </div>
      {onRemove && (
        <button type="button" className="danger-text" onClick={onRemove}>
          Remove step {index + 1}
        </button>
      )}
    </fieldset>
  );
}

function StepValueField({ draft: d, type, onChange }: { draft: Draft; type: ScheduleType; onChange(patch: Partial<Draft>): void }) {
  switch (type) {
    case 'FLAG_ENABLED':
      return (
        <Field label="Then">
          {(p) => (
            <select {...p} value={String(d.enabled)} onChange={(e) => onChange({ enabled: e.target.value === 'true' })}>
              <option value="true">Enable the flag</option>
              <option value="false">Disable the flag</option>
            </select>
          )}
        </Field>
      );
    case 'ROLLOUT_THRESHOLD':
      return <Field label="Percentage">{(p) => <PercentInput {...p} value={d.percentage} onChange={(percentage) => onChange({ percentage })} />}</Field>;
    case 'ROLLOUT_SEGMENT':
      return (
        <Field label="Value served">
          {(p) => (
            <select {...p} value={String(d.value)} onChange={(e) => onChange({ value: e.target.value === 'true' })}>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          )}
        </Field>
      );
    case 'RULE_DISTRIBUTIONS': {
      const total = totalPercent(d.shares.map((s) => ({ variantId: s.variantKey, percent: s.rollout })));
      return (
        <fieldset className="schedule-split">
          <legend>Split</legend>
          <div className="share-inputs">
            {d.shares.map((s, i) => (
              <Field key={s.variantKey} label={s.variantKey} className="share-field">
                {(p) => (
                  <PercentInput
                    {...p}
                    value={s.rollout}
                    onChange={(rollout) => onChange({ shares: d.shares.map((x, j) => (j === i ? { ...x, rollout } : x)) })}
                  />
                )}
              </Field>
            ))}
          </div>
          <p className={total === 100 ? 'hint' : 'hint field-error'}>Total {percent(total)} (must be 100 %)</p>
        </fieldset>
      );
    }
  }
}
