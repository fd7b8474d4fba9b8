/**
 * Choosing several tokens of the page on screen to delete them at once: a checkbox per row, one for the whole page,
 * and a bar saying how many are chosen with the button that acts on them. The choice belongs to the page: another
 * page, or another page size, starts with none.
 */
import { useId, useState } from 'react';
import type { Authentication } from '../../api/types';

export interface Selection {
  /** The chosen tokens, in the list's order. */
  chosen: Authentication[];
  items: Authentication[];
  has(item: Authentication): boolean;
  set(item: Authentication, on: boolean): void;
  setAll(on: boolean): void;
  clear(): void;
}

/** The choice among `items`; `page` names the page they are, so that another one starts afresh. */
export function useSelection(items: Authentication[], page: string): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [of, setOf] = useState(page);
  if (of !== page) {
    setOf(page);
    setIds(new Set());
  }
  const toggled = (id: string, on: boolean) => {
    const next = new Set(ids);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };
  return {
    chosen: items.filter((a) => ids.has(a.id)),
    items,
    has: (a) => ids.has(a.id),
    set: (a, on) => setIds(toggled(a.id, on)),
    setAll: (on) => setIds(new Set(on ? items.map((a) => a.id) : [])),
    clear: () => setIds(new Set()),
  };
}

export function SelectOne({ selection, item, label }: { selection: Selection; item: Authentication; label: string }) {
  return <input type="checkbox" aria-label={label} checked={selection.has(item)} onChange={(e) => selection.set(item, e.target.checked)} />;
}

/** Checked when every token of the page is chosen, half-checked when some are. */
export function SelectAll({ selection }: { selection: Selection }) {
  const n = selection.chosen.length;
  const all = n > 0 && n === selection.items.length;
  return (
    <input
      type="checkbox"
      aria-label="Select every token on this page"
      checked={all}
      ref={(e) => {
        if (e) e.indeterminate = n > 0 && !all;
      }}
      onChange={(e) => selection.setAll(e.target.checked)}
    />
  );
}

export function SelectionBar({ selection, onDelete }: { selection: Selection; onDelete(tokens: Authentication[]): void }) {
  const statusId = useId();
  const n = selection.chosen.length;
  return (
    <div className="selection-bar">
      <span id={statusId} role="status">
        {n === 0 ? 'Select tokens to delete several at once.' : `${n} token${n === 1 ? '' : 's'} selected`}
      </span>
      <button type="button" className="danger" disabled={n === 0} aria-describedby={statusId} onClick={() => onDelete(selection.chosen)}>
        Delete selected
      </button>
      {n > 0 && (
        <button type="button" onClick={selection.clear}>
          Clear selection
        </button>
      )}
    </div>
  );
}
