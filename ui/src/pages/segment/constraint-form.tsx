/**
 * Adds or edits a constraint. The operators follow the type, and the value input follows the operator: a number
 * box, a date (and time) picker, one value per line for "is one of", or nothing for "is present" and the like.
 * ENTITY_ID constraints always test the entity id, so their property is fixed.
 */
import { useState } from 'react';
import { createConstraint, updateConstraint, type ConstraintInput } from '../../api/segments';
import type { ComparisonType, Constraint } from '../../api/types';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { useAction } from '../../hooks/use-action';
import {
  COMPARISON_TYPES, listToValue, localToStored, OPERATORS, storedToLocal, valueKind, valueToList,
} from '../../lib/constraints';
import { instantOfInput, localZoneName, zoneLabel } from '../../lib/format';
import { useTimeZone } from '../../session/time-zone';

const ENTITY_ID = 'ENTITY_ID_COMPARISON_TYPE';

export function ConstraintForm({
  ns,
  segmentKey,
  constraint,
  onClose,
  onSaved,
}: {
  ns: string;
  segmentKey: string;
  constraint?: Constraint;
  onClose(): void;
  onSaved(): void;
}) {
  const [type, setType] = useState<ComparisonType>(constraint?.type ?? 'STRING_COMPARISON_TYPE');
  const [property, setProperty] = useState(constraint?.property ?? '');
  const [operator, setOperator] = useState(constraint?.operator ?? 'eq');
  const [description, setDescription] = useState(constraint?.description ?? '');
  // Each kind of value input keeps its own text, so switching operators back and forth loses nothing.
  const kind0 = constraint ? valueKind(constraint.type, constraint.operator) : 'text';
  const [text, setText] = useState(constraint && kind0 !== 'list' && kind0 !== 'datetime' ? constraint.value : '');
  const [list, setList] = useState(constraint && kind0 === 'list' ? valueToList(constraint.value) : '');
  // Date-times are edited in the zone Times chose (as the list shows them); the label names it.
  const zone = useTimeZone();
  const initialDate = storedToLocal(constraint && kind0 === 'datetime' ? constraint.value : '', zone);
  const [date, setDate] = useState(initialDate.local);
  const [dateOnly, setDateOnly] = useState(initialDate.dateOnly);
  const [problem, setProblem] = useState<string>();

  const kind = valueKind(type, operator);
  const changeType = (next: ComparisonType) => {
    setType(next);
    if (!OPERATORS[next].some((o) => o.op === operator)) setOperator(OPERATORS[next][0].op);
    if (next === ENTITY_ID) setProperty('entityId');
    else if (type === ENTITY_ID && property === 'entityId') setProperty('');
  };

  /** The value to send, or why there is none. */
  const value = (): { value?: string; problem?: string } => {
    switch (kind) {
      case 'none':
        return { value: '' };
      case 'list':
        return listToValue(type, list);
      case 'datetime':
        return date ? { value: localToStored(date, dateOnly, zone) } : { problem: 'Choose a date.' };
      case 'number':
        return text.trim() !== '' && Number.isFinite(Number(text)) ? { value: text.trim() } : { problem: 'Enter a number.' };
      default:
        return text !== '' ? { value: text } : { problem: 'Enter a value.' };
    }
  };

  const save = useAction(async (input: ConstraintInput) => {
    if (constraint) await updateConstraint(ns, segmentKey, constraint.id, input);
    else await createConstraint(ns, segmentKey, input);
    onSaved();
  });

  const submit = () => {
    const v = value();
    if (!property.trim()) return setProblem('Enter the property (the context key) to test.');
    if (v.problem !== undefined) return setProblem(v.problem);
    setProblem(undefined);
    void save.run({ type, property: property.trim(), operator, value: v.value ?? '', description });
  };

  return (
    <ModalForm
      title={constraint ? `Edit constraint on ${constraint.property}` : 'New constraint'}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={constraint ? 'Save constraint' : 'Add constraint'}
      busy={save.busy}
      error={problem ?? save.error}
      wide
    >
      <div className="field-row">
        <Field label="Type">
          {(p) => (
            <select {...p} value={type} onChange={(e) => changeType(e.target.value as ComparisonType)} autoFocus>
              {COMPARISON_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Property" hint={type === ENTITY_ID ? 'Entity ID constraints test the entity id of the evaluation.' : 'A key of the evaluation context.'}>
          {(p) => <input {...p} className="code" value={property} readOnly={type === ENTITY_ID} onChange={(e) => setProperty(e.target.value)} />}
        </Field>
        <Field label="Operator">
          {(p) => (
            <select {...p} value={operator} onChange={(e) => setOperator(e.target.value)}>
              {OPERATORS[type].map((o) => (
                <option key={o.op} value={o.op}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {kind === 'text' && <Field label="Value">{(p) => <input {...p} value={text} onChange={(e) => setText(e.target.value)} />}</Field>}
      {kind === 'number' && (
        <Field label="Value">{(p) => <input {...p} type="number" step="any" inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} />}</Field>
      )}
      {kind === 'list' && (
        <Field label="Values" hint={`One per line, at most 100${type === 'NUMBER_COMPARISON_TYPE' ? ' numbers' : ''}.`}>
          {(p) => <textarea {...p} rows={5} className="code" value={list} onChange={(e) => setList(e.target.value)} />}
        </Field>
      )}
      {kind === 'datetime' && (
        <div className="field-row">
          <Field
            label={dateOnly ? 'Value' : `Value (${zoneLabel(zone, instantOfInput(date, zone) ?? new Date())})`}
            hint={dateOnly ? 'A calendar date (midnight UTC).' : `In ${zone === 'utc' ? 'UTC' : `local time (${localZoneName()})`}, as Times in the navigation says; stored in UTC.`}
          >
            {(p) => <input {...p} type={dateOnly ? 'date' : 'datetime-local'} value={date} onChange={(e) => setDate(e.target.value)} />}
          </Field>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={dateOnly}
              onChange={(e) => {
                setDateOnly(e.target.checked);
                setDate((d) => (e.target.checked ? d.slice(0, 10) : d ? `${d.slice(0, 10)}T00:00` : ''));
              }}
            />{' '}
            Date only
          </label>
        </div>
      )}
      {kind === 'none' && <p className="hint">This operator takes no value.</p>}
      <Field label="Description">{(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
    </ModalForm>
  );
}
