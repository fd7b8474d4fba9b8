/** Adds or edits a rollout. Its type (threshold or segment) is chosen once: the API refuses to change it. */
import { useState } from 'react';
import { createRollout, updateRollout, type RolloutInput } from '../../api/rollouts';
import { segmentKeysOf, type Rollout, type Segment, type SegmentOperator } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { PercentInput } from '../../components/percent-input';
import { SegmentPicker, withTyped } from '../../components/segment-picker';
import { useAction } from '../../hooks/use-action';
import { SegmentOperatorField } from './segment-operator-field';

type Kind = 'threshold' | 'segment';

export function RolloutForm({
  ns,
  flagKey,
  segments,
  rollout,
  nextRank,
  onClose,
  onSaved,
}: {
  ns: string;
  flagKey: string;
  segments: Segment[];
  rollout?: Rollout;
  nextRank: number;
  onClose(): void;
  onSaved(): void;
}) {
  const [kind, setKind] = useState<Kind>(rollout?.segment ? 'segment' : 'threshold');
  const [description, setDescription] = useState(rollout?.description ?? '');
  const [percentage, setPercentage] = useState<number>(rollout?.threshold?.percentage ?? 50);
  const [chosenKeys, setChosenKeys] = useState<string[]>(rollout?.segment ? segmentKeysOf(rollout.segment) : []);
  // A complete key left typed in the picker counts as chosen (segment-picker.tsx).
  const [typedKey, setTypedKey] = useState<string>();
  const segmentKeys = withTyped(chosenKeys, typedKey);
  const [operator, setOperator] = useState<SegmentOperator>(rollout?.segment?.segmentOperator ?? 'OR_SEGMENT_OPERATOR');
  const [value, setValue] = useState<boolean>(rollout?.threshold?.value ?? rollout?.segment?.value ?? true);
  const [problem, setProblem] = useState<string>();

  const save = useAction(async () => {
    const input: RolloutInput =
      kind === 'threshold'
        ? { description, threshold: { percentage, value } }
        : { description, segment: { segmentKeys, segmentOperator: segmentKeys.length > 1 ? operator : 'OR_SEGMENT_OPERATOR', value } };
    if (rollout) await updateRollout(ns, flagKey, rollout.id, input);
    else await createRollout(ns, flagKey, input, nextRank);
    onSaved();
    onClose();
  });

  const submit = () => {
    if (kind === 'threshold' && !(percentage >= 0 && percentage <= 100)) return setProblem('The percentage must be from 0 to 100.');
    if (kind === 'segment' && segmentKeys.length === 0) return setProblem('Choose at least one segment.');
    setProblem(undefined);
    void save.run();
  };

  return (
    <ModalForm
      title={rollout ? 'Edit rollout' : 'New rollout'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={rollout ? 'Save rollout' : 'Add rollout'}
      busy={save.busy}
      error={problem ?? save.error}
      wide
    >
      <fieldset className="inline-radios" disabled={Boolean(rollout)}>
        <legend>Type</legend>
        <label>
          <input type="radio" checked={kind === 'threshold'} onChange={() => setKind('threshold')} /> a percentage of entities (threshold)
        </label>
        <label>
          <input type="radio" checked={kind === 'segment'} onChange={() => setKind('segment')} /> entities in segments
        </label>
        {rollout && <p className="hint">The type of an existing rollout cannot change; add a new rollout instead.</p>}
      </fieldset>
      {kind === 'threshold' ? (
        <Field label="Percentage" hint="Each entity falls on the same side every time (its id is hashed with the flag key).">
          {(p) => <PercentInput {...p} value={percentage} onChange={setPercentage} />}
        </Field>
      ) : (
        <>
          <SegmentPicker segments={segments} value={chosenKeys} onChange={setChosenKeys} onTyped={setTypedKey} />
          <SegmentOperatorField value={operator} onChange={setOperator} count={chosenKeys.length} />
        </>
      )}
      <Field label="Value served">
        {(p) => (
          <select {...p} value={String(value)} onChange={(e) => setValue(e.target.value === 'true')}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        )}
      </Field>
      <Field label="Description">{(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
    </ModalForm>
  );
}
