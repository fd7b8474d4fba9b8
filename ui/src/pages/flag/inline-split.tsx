/**
 * What a rule serves, and its variant split edited where it is shown, without a dialog: "Edit split" turns each
 * share's percentage into a number box with the running total under them. Save is enabled only for a total of
 * exactly 100 % (lib/distributions.ts; otherwise it is disabled and the text says why) and writes only the shares
 * that changed, one `PUT …/distributions/{id}` each; Cancel or Escape puts the split back as saved. Which variants
 * take part is the rule dialog's business (rule-form.tsx).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { updateDistribution } from '../../api/rules';
import type { Distribution, Flag, Rule } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { useNotify } from '../../components/notices';
import { PercentInput } from '../../components/percent-input';
import { useAction } from '../../hooks/use-action';
import { splitProblem, totalPercent, type Share } from '../../lib/distributions';
import { useLeaveGuard } from '../../routing/leave-guards';
import { SplitWarning } from './split-warning';

/** Percentages being edited, by distribution id; none while the split is only shown. */
type Draft = Record<string, number>;

export function RuleSplit({
  ns,
  flag,
  rule,
  position,
  canEdit,
  onSaved,
}: {
  ns: string;
  flag: Flag;
  rule: Rule;
  /** The rule's place in the list, 1 first: names it for screen readers ("Edit split of rule 2"). */
  position: number;
  canEdit: boolean;
  /** The rule as the saved split makes it. */
  onSaved(rule: Rule): void;
}) {
  const [draft, setDraft] = useState<Draft>();
  const editButton = useRef<HTMLButtonElement>(null);
  // Where the focus goes once the view changes: the first box when editing starts, "Edit split" when it ends.
  const focusNext = useRef<'editor' | 'button'>(undefined);
  const editor = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = undefined;
    if (target === 'editor') editor.current?.querySelector('input')?.focus();
    if (target !== 'button') return;
    // A split saved as one share at 100 % has no "Edit split" any more: the rule's own Edit button takes the focus.
    if (editButton.current) editButton.current.focus();
    else document.querySelector<HTMLButtonElement>(`button[aria-label="Edit rule ${position}"]`)?.focus();
  }, [draft]);

  const ds = rule.distributions;
  const variantKey = (id: string) => flag.variants.find((v) => v.id === id)?.key ?? 'deleted variant';
  const stop = () => {
    focusNext.current = 'button';
    setDraft(undefined);
  };

  if (draft) {
    return <SplitEditor {...{ ns, flag, rule, position, draft, variantKey, onSaved }} formRef={editor} onChange={setDraft} onDone={stop} />;
  }
  // A single share at 100 % has nothing to split; a single share left below 100 % (a variant was deleted) has.
  const editable = canEdit && ds.length > 0 && (ds.length > 1 || ds[0].rollout !== 100);
  return (
    <>
      <p>
        <span className="muted">then serve</span>{' '}
        {ds.length === 0 ? (
          <em>no variant (the match is reported without one)</em>
        ) : (
          ds.map((d) => (
            <span key={d.id} className="share">
              <span className="key">{variantKey(d.variantId)}</span> {d.rollout}%
            </span>
          ))
        )}
        {editable && (
          <button
            ref={editButton}
            type="button"
            className="edit-split"
            aria-label={`Edit split of rule ${position}`}
            onClick={() => {
              focusNext.current = 'editor';
              setDraft(Object.fromEntries(ds.map((d) => [d.id, d.rollout])));
            }}
          >
            Edit split
          </button>
        )}
      </p>
      <SplitWarning rule={rule} editable={editable} />
    </>
  );
}

function SplitEditor({
  ns,
  flag,
  rule,
  position,
  draft,
  variantKey,
  formRef,
  onChange,
  onDone,
  onSaved,
}: {
  ns: string;
  flag: Flag;
  rule: Rule;
  position: number;
  draft: Draft;
  variantKey(variantId: string): string;
  formRef: Ref<HTMLFormElement>;
  onChange(draft: Draft): void;
  onDone(): void;
  onSaved(rule: Rule): void;
}) {
  const id = useId();
  const notify = useNotify();
  const ds = rule.distributions;
  // A share that appeared while editing (the rule was changed elsewhere) starts at its saved percentage.
  const percentOf = (d: Distribution) => draft[d.id] ?? d.rollout;
  const shares: Share[] = ds.map((d) => ({ variantId: d.variantId, percent: percentOf(d) }));
  const total = totalPercent(shares);
  const problem = splitProblem(shares);
  // A changed share is lost by leaving the page: leaving asks first (an opened split put back as it was does not).
  useLeaveGuard(ds.some((d) => !Object.is(percentOf(d), d.rollout)));

  const save = useAction(async () => {
    // Lowered shares first: between two writes the split then leaves entities without a variant rather than over 100 %.
    const changed = ds.filter((d) => percentOf(d) !== d.rollout).sort((a, b) => percentOf(a) - a.rollout - (percentOf(b) - b.rollout));
    const written = new Map<string, Distribution>();
    for (const d of changed) written.set(d.id, await updateDistribution(ns, flag.key, rule.id, d.id, d.variantId, percentOf(d)));
    onSaved({ ...rule, distributions: ds.map((d) => written.get(d.id) ?? d) });
    notify(`Split of rule ${position} saved`);
    onDone();
  });
  const cancel = () => {
    save.clearError();
    onDone();
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || save.busy) return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };

  return (
    <form
      ref={formRef}
      className="inline-split"
      aria-label={`Split of rule ${position}`}
      onKeyDown={escape}
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem && !save.busy) void save.run();
      }}
    >
      <span className="muted">then serve</span>
      <span className="share-inputs">
        {ds.map((d) => (
          <span key={d.id} className="share share-input">
            <label htmlFor={`${id}-${d.id}`} className="key">
              {variantKey(d.variantId)}
            </label>
            <PercentInput id={`${id}-${d.id}`} value={percentOf(d)} onChange={(n) => onChange({ ...draft, [d.id]: n })} />
          </span>
        ))}
      </span>
      <p className={`total ${problem ? 'bad' : 'good'}`} role="status">
        Total: {total}%{problem ? '' : ' ✓'}
      </p>
      {problem && (
        <p className="split-problem" id={`${id}-problem`}>
          {problem}
        </p>
      )}
      <span className="inline-split-actions">
        <button type="submit" className="primary" disabled={Boolean(problem) || save.busy} aria-describedby={problem ? `${id}-problem` : undefined}>
          {save.busy ? 'Saving…' : 'Save split'}
        </button>
        <button type="button" onClick={cancel} disabled={save.busy}>
          Cancel
        </button>
      </span>
      <ErrorMessage error={save.error} />
    </form>
  );
}
