import { useId, useState } from 'react';
import type { Segment } from '../api/types';

/**
 * Chooses one or more segments of the namespace: the chosen ones as removable chips, and a text box that suggests
 * segment keys as you type (a native datalist, which copes with hundreds of segments).
 */
export function SegmentPicker({
  segments,
  value,
  onChange,
  label = 'Segments',
}: {
  segments: Segment[];
  value: string[];
  onChange(keys: string[]): void;
  label?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const known = new Set(segments.map((s) => s.key));
  const add = () => {
    const key = text.trim();
    if (!key) return;
    if (!known.has(key)) return setProblem(`There is no segment "${key}" in this namespace.`);
    if (!value.includes(key)) onChange([...value, key]);
    setText('');
    setProblem(undefined);
  };
  return (
    <fieldset className="segment-picker">
      <legend>{label}</legend>
      {value.length > 0 ? (
        <ul className="chips" aria-label="Chosen segments">
          {value.map((key) => (
            <li key={key} className="chip">
              <span>{key}</span>
              <button type="button" className="icon" aria-label={`Remove segment ${key}`} onClick={() => onChange(value.filter((k) => k !== key))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">No segment chosen yet.</p>
      )}
      <div className="inline-form">
        <label htmlFor={`${id}-add`} className="visually-hidden">
          Add a segment
        </label>
        <input
          id={`${id}-add`}
          list={`${id}-list`}
          value={text}
          placeholder={segments.length ? 'Segment key' : 'No segments yet: create one first'}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <datalist id={`${id}-list`}>
          {segments
            .filter((s) => !value.includes(s.key))
            .map((s) => (
              <option key={s.key} value={s.key}>
                {s.name}
              </option>
            ))}
        </datalist>
        <button type="button" onClick={add}>
          Add segment
        </button>
      </div>
      {problem && (
        <p className="field-error" id={`${id}-problem`}>
          {problem}
        </p>
      )}
    </fieldset>
  );
}
