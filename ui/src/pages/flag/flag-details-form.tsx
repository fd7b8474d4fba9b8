/**
 * A flag's name, description, default variant and on/off switch. The switch saves at once; the rest on "Save", and
 * leaving with unsaved edits asks first. When read-only, or the caller may not change flags here, the same fields
 * show the values without letting them change, there is nothing to save, and a line says why (the read-only notice
 * does that above the page).
 */
import type { FormEvent } from 'react';
import { flagChanges, getFlag, setFlagEnabled, updateFlag, type FlagChanges } from '../../api/flags';
import type { Flag } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { useNotify } from '../../components/notices';
import { StaleSaveDialog } from '../../components/stale-save-dialog';
import { Switch } from '../../components/switch';
import { VariantSelect } from '../../components/variant-select';
import { useAction } from '../../hooks/use-action';
import { useDraft } from '../../hooks/use-draft';
import { useStaleCheck } from '../../hooks/use-stale-check';
import { nameProblem } from '../../lib/keys';
import { useLeaveGuard } from '../../routing/leave-guards';
import { useLockNote, useWriteLock } from '../../session/permissions';

export function FlagDetailsForm({ ns, flag, onSaved }: { ns: string; flag: Flag; onSaved(flag: Flag): void }) {
  const { draft, setDraft, dirty } = useDraft(detailsOf(flag));
  const notify = useNotify();
  const isBoolean = flag.type === 'BOOLEAN_FLAG_TYPE';
  const lock = useWriteLock('flag', 'update', ns);
  const { describedBy: locked, note } = useLockNote(lock);

  const stale = useStaleCheck(flag, () => getFlag(ns, flag.key));
  const save = useAction(async (changes: FlagChanges, message: string, checked = false) => {
    if (checked && !(await stale.isCurrent())) return;
    onSaved(await updateFlag(ns, flag.key, changes));
    notify(message);
  });
  // The switch changes only itself, on the flag as it is now: what another tab saved since this page loaded stays
  // (and shows here once saved). No question: there is nothing of this page's to lose.
  const flip = useAction(async (enabled: boolean) => {
    onSaved(await setFlagEnabled(ns, flag.key, enabled));
    notify(`${flag.key} is ${enabled ? 'enabled' : 'disabled'}`);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The switch has saved itself already: the flag's current state goes with the draft.
    void save.run({ ...flagChanges(flag), ...draft }, `Flag ${flag.key} saved`, true);
  };
  const toggle = (enabled: boolean) => void flip.run(enabled);
  useLeaveGuard(dirty && !locked);
  const nameError = nameProblem(draft.name);

  return (
    <section className="card" aria-labelledby="details-heading">
      <div className="section-header">
        <h2 id="details-heading">Details</h2>
        <Switch
          checked={flag.enabled}
          onChange={toggle}
          disabled={Boolean(locked)}
          busy={save.busy || flip.busy}
          describedBy={locked}
          title={lock?.reason}
          showLabel
          label={isBoolean ? `Enabled (the value when no rollout matches)` : 'Enabled'}
        />
      </div>
      {note}
      <form className="form" onSubmit={submit}>
        <div className="field-row">
          <Field label="Name" describedBy={locked} error={locked ? undefined : nameError}>
            {(p) => <input {...p} required readOnly={Boolean(locked)} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />}
          </Field>
          {!isBoolean && (
            <VariantSelect
              label="Default variant"
              hint="Served when the flag is disabled or no rule matches."
              none="None"
              variants={flag.variants}
              value={draft.defaultVariantId}
              onChange={(defaultVariantId) => setDraft({ ...draft, defaultVariantId })}
              locked={locked}
            />
          )}
        </div>
        <Field label="Description" describedBy={locked}>
          {(p) => (
            <textarea {...p} rows={2} readOnly={Boolean(locked)} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
          )}
        </Field>
        <ErrorMessage error={save.error ?? flip.error} />
        {!locked && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={save.busy || !dirty || Boolean(nameError)}>
              Save details
            </button>
          </div>
        )}
      </form>
      {stale.newer && (
        <StaleSaveDialog
          what="flag"
          changedAt={stale.newer.updatedAt}
          busy={save.busy}
          onClose={stale.settle}
          onReload={() => {
            const newer = stale.newer as Flag;
            stale.settle();
            onSaved(newer);
            setDraft(detailsOf(newer));
          }}
          onOverwrite={() => {
            // Only this form's fields: the newer version's switch and metadata stay as they were saved.
            const newer = stale.newer as Flag;
            void save.run({ ...flagChanges(newer), ...draft }, `Flag ${flag.key} saved`).then(stale.settle);
          }}
        />
      )}
    </section>
  );
}

/** What this form edits (the switch saves by itself). */
function detailsOf(flag: Flag): Pick<FlagChanges, 'name' | 'description' | 'defaultVariantId'> {
  const { name, description, defaultVariantId } = flagChanges(flag);
  return { name, description, defaultVariantId };
}
