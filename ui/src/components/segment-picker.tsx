/**
 * Chooses one or more segments of the namespace: the chosen ones as removable chips, and a combobox (downshift's
 * useCombobox, which does the ARIA and keyboard work) that lists the segments whose key or name contains what is
 * typed. Pick with the mouse, or with ↑/↓ and Enter. A complete key typed and left there counts as chosen when the
 * box loses focus, so "Add rule" takes it without Enter or "Add segment" first; `onTyped` also reports such a key as it
 * is typed, so that a form can take it on submit whatever the order of blur, hover and click events (a list item under
 * a resting mouse pointer is highlighted, and a blur with a highlighted item chooses nothing). Escape closes the list,
 * then the dialog.
 */
import { useCombobox } from 'downshift';
import { useId, useMemo, useState } from 'react';
import type { Segment } from '../api/types';

/** Options listed at once: typing narrows the rest down. */
const SHOWN = 50;

/** The segments not yet chosen that match `text` by key or name: keys that start with it first, then the rest. */
export function matchingSegments(segments: Segment[], chosen: string[], text: string): Segment[] {
  const term = text.trim().toLowerCase();
  const open = segments.filter((s) => !chosen.includes(s.key));
  if (!term) return open;
  const starts = open.filter((s) => s.key.toLowerCase().startsWith(term));
  const contains = open.filter((s) => !s.key.toLowerCase().startsWith(term) && `${s.key}\n${s.name}`.toLowerCase().includes(term));
  return [...starts, ...contains];
}

/** The chosen keys with a complete key left typed in the box (SegmentPicker's onTyped), if it is not among them. */
export function withTyped(chosen: string[], typed: string | undefined): string[] {
  return typed === undefined || chosen.includes(typed) ? chosen : [...chosen, typed];
}

export function SegmentPicker({
  segments,
  value,
  onChange,
  onTyped,
  label = 'Segments',
}: {
  segments: Segment[];
  value: string[];
  onChange(keys: string[]): void;
  /** The complete key of a segment that is in the box now (undefined: none); see withTyped. */
  onTyped?(key: string | undefined): void;
  label?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const matches = useMemo(() => matchingSegments(segments, value, text), [segments, value, text]);
  const shown = matches.slice(0, SHOWN);
  const known = (key: string) => segments.some((s) => s.key === key);

  const add = (key: string) => {
    if (!value.includes(key)) onChange([...value, key]);
    setText('');
    onTyped?.(undefined);
    setProblem(undefined);
  };
  /** The typed text, when nothing is highlighted: a complete key is chosen; anything else is explained. */
  const addTyped = (quiet: boolean) => {
    const key = text.trim();
    if (!key) return;
    if (known(key)) return add(key);
    if (!quiet) setProblem(`There is no segment "${key}" in this namespace.${matches.length ? ' Pick one of the suggestions.' : ''}`);
  };

  const { isOpen, getLabelProps, getInputProps, getMenuProps, getItemProps, highlightedIndex } = useCombobox<Segment>({
    items: shown,
    inputValue: text,
    selectedItem: null,
    itemToString: (s) => s?.key ?? '',
    stateReducer: (_state, { type, changes }) => {
      // After a pick the list stays open for the next one, from an empty box.
      if (type === useCombobox.stateChangeTypes.InputKeyDownEnter || type === useCombobox.stateChangeTypes.ItemClick) {
        return { ...changes, isOpen: true, inputValue: '' };
      }
      return changes;
    },
    onStateChange: ({ type, selectedItem }) => {
      switch (type) {
        case useCombobox.stateChangeTypes.InputKeyDownEnter:
        case useCombobox.stateChangeTypes.ItemClick:
        case useCombobox.stateChangeTypes.InputBlur:
          if (selectedItem) add(selectedItem.key);
          break;
      }
    },
  });

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
      <div className="inline-form combobox">
        <label {...getLabelProps()} className="visually-hidden">
          Add a segment
        </label>
        <input
          {...getInputProps({
            placeholder: segments.length ? 'Search segments by key or name' : 'No segments yet: create one first',
            'aria-describedby': problem ? `${id}-problem` : undefined,
            // The text is taken here, in the change event itself: downshift reports InputChange from an effect after
            // the render, and until then the controlled box showed the old text, so a key typed in between was lost.
            onChange: (e) => {
              setText(e.currentTarget.value);
              setProblem(undefined);
              const typed = e.currentTarget.value.trim();
              onTyped?.(known(typed) ? typed : undefined);
            },
            onKeyDown: (e) => {
              // Escape closes the open list (downshift); with the list closed it is the dialog's (modal.tsx), which
              // downshift would otherwise swallow while there is text in the box.
              if (e.key === 'Escape' && !(isOpen && shown.length > 0)) {
                (e.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
                return;
              }
              // Enter on the typed text (nothing highlighted) chooses it if it is a key, and never submits the form.
              if (e.key === 'Enter' && highlightedIndex < 0) {
                e.preventDefault();
                addTyped(false);
              }
            },
            onBlur: () => {
              if (highlightedIndex < 0) addTyped(true);
            },
          })}
        />
        <button type="button" onClick={() => addTyped(false)}>
          Add segment
        </button>
        <ul {...getMenuProps({ 'aria-labelledby': undefined, 'aria-label': 'Matching segments' })} className={isOpen && shown.length > 0 ? 'combobox-options' : 'combobox-options closed'}>
          {isOpen &&
            shown.map((s, index) => (
              <li key={s.key} {...getItemProps({ item: s, index })} className={index === highlightedIndex ? 'highlighted' : undefined}>
                <span className="key">{s.key}</span>
                {s.name && s.name !== s.key && <span className="muted"> {s.name}</span>}
              </li>
            ))}
          {isOpen && matches.length > SHOWN && <li className="muted" aria-hidden="true">{matches.length - SHOWN} more: keep typing</li>}
        </ul>
      </div>
      {problem && (
        <p className="field-error" id={`${id}-problem`}>
          {problem}
        </p>
      )}
    </fieldset>
  );
}
