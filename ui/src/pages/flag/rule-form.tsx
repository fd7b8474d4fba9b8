/**
 * Adds or edits a rule: its segments (OR/AND), and what it serves — one variant, or a percentage split over the
 * variants that must add up to 100 (checked as it is typed). Saving writes the rule, then brings its distributions
 * in line (create, update, delete), as the API keeps them as separate resources.
 */
import { useState } from 'react';
import {
  createDistribution, createRule, deleteDistribution, updateDistribution, updateRule,
} from '../../api/rules';
import { segmentKeysOf, type Flag, type Rule, type Segment, type SegmentOperator } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { PercentInput } from '../../components/percent-input';
import { SegmentPicker, withTyped } from '../../components/segment-picker';
import { VariantSelect } from '../../components/variant-select';
import { useAction } from '../../hooks/use-action';
import { evenSplit, splitProblem, totalPercent, type Share } from '../../lib/distributions';
import { SegmentOperatorField } from './segment-operator-field';

type Mode = 'single' | 'split';

function initialServe(flag: Flag, rule?: Rule): { mode: Mode; single: string; percents: Record<string, number> } {
  const ds = rule?.distributions ?? [];
  const percents: Record<string, number> = {};
  for (const d of ds) percents[d.variantId] = d.rollout;
  if (ds.length === 1 && ds[0].rollout === 100) return { mode: 'single', single: ds[0].variantId, percents };
  if (ds.length > 0) return { mode: 'split', single: '', percents };
  // A new rule starts by serving the first variant; an existing rule without distributions serves none.
  return { mode: 'single', single: rule ? '' : flag.variants[0]?.id ?? '', percents };
}

export function RuleForm({
  ns,
  flag,
  segments,
  rule,
  nextRank,
  onClose,
  onSaved,
}: {
  ns: string;
  flag: Flag;
  segments: Segment[];
  rule?: Rule;
  nextRank: number;
  onClose(): void;
  onSaved(): void;
}) {
  const [chosenKeys, setChosenKeys] = useState<string[]>(rule ? segmentKeysOf(rule) : []);
  // A complete key left typed in the picker counts as chosen (segment-picker.tsx).
  const [typedKey, setTypedKey] = useState<string>();
  const segmentKeys = withTyped(chosenKeys, typedKey);
  const [operator, setOperator] = useState<SegmentOperator>(rule?.segmentOperator ?? 'OR_SEGMENT_OPERATOR');
  const initial = initialServe(flag, rule);
  const [mode, setMode] = useState<Mode>(initial.mode);
  const [single, setSingle] = useState(initial.single);
  const [percents, setPercents] = useState<Record<string, number>>(initial.percents);
  // Problems show once a save was tried, then follow the inputs as they change.
  const [tried, setTried] = useState(false);

  const shares: Share[] =
    mode === 'single' ? (single ? [{ variantId: single, percent: 100 }] : []) : flag.variants.map((v) => ({ variantId: v.id, percent: percents[v.id] ?? 0 }));
  // A split that is not 100 % is refused as it is typed, as the inline split does (inline-split.tsx): the submit
  // waits and the text under the total says why. A missing segment is said once a save was tried.
  const split = mode === 'split' ? splitProblem(shares) : undefined;
  const noSegment = segmentKeys.length === 0 ? 'Choose at least one segment.' : undefined;
  const problem = noSegment ?? split;

  const save = useAction(async () => {
    const input = { segmentKeys, segmentOperator: segmentKeys.length > 1 ? operator : 'OR_SEGMENT_OPERATOR' as SegmentOperator };
    const saved = rule ? await updateRule(ns, flag.key, rule.id, input) : await createRule(ns, flag.key, input, nextRank);
    const existing = rule?.distributions ?? [];
    const wanted = shares.filter((s) => s.percent > 0);
    for (const d of existing) {
      if (!wanted.some((w) => w.variantId === d.variantId)) await deleteDistribution(ns, flag.key, saved.id, d.id, d.variantId);
    }
    for (const w of wanted) {
      const d = existing.find((x) => x.variantId === w.variantId);
      if (!d) await createDistribution(ns, flag.key, saved.id, w.variantId, w.percent);
      else if (d.rollout !== w.percent) await updateDistribution(ns, flag.key, saved.id, d.id, w.variantId, w.percent);
    }
    onSaved();
    onClose();
  });

  const submit = () => {
    setTried(true);
    if (!problem) void save.run();
  };

  return (
    <ModalForm
      title={rule ? 'Edit rule' : 'New rule'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={rule ? 'Save rule' : 'Add rule'}
      busy={save.busy}
      blocked={Boolean(split)}
      error={(tried ? noSegment : undefined) ?? save.error}
      wide
    >
      <SegmentPicker segments={segments} value={chosenKeys} onChange={setChosenKeys} onTyped={setTypedKey} label="Segments this rule targets" />
      <SegmentOperatorField value={operator} onChange={setOperator} count={chosenKeys.length} />
      <fieldset className="serve">
        <legend>Serve</legend>
        {flag.variants.length === 0 ? (
          <p className="hint">This flag has no variants yet: the rule will match without serving one. Add variants to split traffic.</p>
        ) : (
          <>
            <div className="inline-radios">
              <label>
                <input type="radio" checked={mode === 'single'} onChange={() => setMode('single')} /> one variant
              </label>
              <label>
                <input
                  type="radio"
                  checked={mode === 'split'}
                  onChange={() => {
                    setMode('split');
                    if (totalPercent(shares) !== 100 || shares.length < 2) {
                      const even = evenSplit(flag.variants.length);
                      setPercents(Object.fromEntries(flag.variants.map((v, i) => [v.id, even[i]])));
                    }
                  }}
                />{' '}
                a percentage split
              </label>
            </div>
            {mode === 'single' ? (
              <VariantSelect label="Variant" none="No variant (match only)" variants={flag.variants} value={single} onChange={setSingle} />
            ) : (
              <div className="split">
                {flag.variants.map((v) => (
                  <Field key={v.id} label={<span className="key">{v.key}</span>} className="percent-field">
                    {(p) => <PercentInput {...p} value={percents[v.id] ?? 0} onChange={(n) => setPercents({ ...percents, [v.id]: n })} />}
                  </Field>
                ))}
                <p className={`total ${split ? 'bad' : 'good'}`} aria-live="polite">
                  Total: {totalPercent(shares)}% {split ? '— must be 100%' : '✓'}
                </p>
                {split && <p className="field-error">{split}</p>}
              </div>
            )}
          </>
        )}
      </fieldset>
    </ModalForm>
  );
}
