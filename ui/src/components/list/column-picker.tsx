/**
 * Which of a list's optional columns are shown: a "Columns" button that opens a checkbox for each, remembered in this
 * browser (localStorage, per list). Escape or a click elsewhere closes it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ListColumn } from './list-columns';

const PREFIX = 'flagpole.columns.';

function remembered(list: string): Record<string, boolean> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(PREFIX + list) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/** The columns shown now, and a way to show or hide one of the optional ones. */
export function useShownColumns<T>(list: string | undefined, columns: ReadonlyArray<ListColumn<T>>) {
  const [choices, setChoices] = useState(() => (list ? remembered(list) : {}));
  const isShown = (c: ListColumn<T>) => !c.optional || (choices[c.id] ?? c.optional === 'shown');
  const show = (id: string, shown: boolean) => {
    const next = { ...choices, [id]: shown };
    setChoices(next);
    try {
      if (list) localStorage.setItem(PREFIX + list, JSON.stringify(next));
    } catch {
      // storage disabled: the choice lasts until the page is left
    }
  };
  return { shown: columns.filter(isShown), isShown, show };
}

export function ColumnPicker<T>({
  columns,
  isShown,
  show,
}: {
  columns: ReadonlyArray<ListColumn<T>>;
  isShown(c: ListColumn<T>): boolean;
  show(id: string, shown: boolean): void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const optional = columns.filter((c) => c.optional);
  if (optional.length === 0) return null;
  return (
    <div
      className="column-picker"
      ref={root}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button type="button" ref={button} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        Columns
      </button>
      {open && (
        <fieldset id={id} className="column-menu">
          <legend>Show columns</legend>
          {optional.map((c) => (
            <label key={c.id} className="check">
              <input type="checkbox" checked={isShown(c)} onChange={(e) => show(c.id, e.target.checked)} />
              {c.header}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
