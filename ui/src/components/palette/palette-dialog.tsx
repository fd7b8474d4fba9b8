/**
 * The command palette itself: a modal <dialog> with a combobox that filters what can be opened (palette-search.ts)
 * and the listbox of results. ↑/↓ move through the results, Enter or a click opens one; Escape or a click outside
 * closes, and focus goes back to where it was.
 *
 * Not the shared Modal (components/modal.tsx): a palette has no title bar or close button, stands near the top so
 * that the input stays put while the list grows and shrinks under it, and closes on a click outside.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { navigate } from '../../routing/hash-router';
import { optionId, PaletteResults } from './palette-results';
import { searchPalette, type PaletteItem } from './palette-search';
import { usePaletteItems } from './use-palette-items';

export function PaletteDialog({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const listId = useId();
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const { items, loading, errors } = usePaletteItems();
  const results = useMemo(() => searchPalette(items, typed), [items, typed]);
  const shown = results.groups.flatMap((g) => g.items);
  const current = Math.max(0, Math.min(active, shown.length - 1));
  const term = typed.trim();

  // Layout effects, so that closing before a navigation has given focus back before the new page takes it.
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    input.current?.focus();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function choose(item: PaletteItem | undefined) {
    if (!item) return;
    flushSync(onClose);
    navigate(item.to);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const move = (by: number) => {
      e.preventDefault();
      if (shown.length > 0) setActive((current + by + shown.length) % shown.length);
    };
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Enter') {
      e.preventDefault();
      choose(shown[current]);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
      // The shortcut again: start a new search rather than open another palette.
      e.currentTarget.select();
    }
  }

  return (
    <dialog
      ref={ref}
      className="palette"
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // Only the backdrop is the dialog itself: its content covers the rest.
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      <h2 id={titleId} className="visually-hidden">
        Go to
      </h2>
      <div className="palette-search">
        <svg className="palette-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M13 13l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Search pages, actions, flags, segments and namespaces"
          aria-autocomplete="list"
          aria-expanded={shown.length > 0}
          aria-controls={listId}
          aria-activedescendant={shown.length > 0 ? optionId(listId, current) : undefined}
          placeholder="Go to a page, flag, segment or namespace, or do an action…"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="go"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <PaletteResults id={listId} groups={results.groups} term={term} active={current} onActivate={setActive} onChoose={choose} />
      <div className="palette-status" role="status">
        {shown.length === 0 && <p>{loading ? 'Loading…' : `No match for “${term}”`}</p>}
        {results.matched > results.shown && shown.length > 0 && (
          <p>{`Showing ${results.shown} of ${results.matched} — type to narrow`}</p>
        )}
        {errors.map((error) => (
          <p key={error} className="palette-error">
            {error}
          </p>
        ))}
      </div>
      <p className="palette-keys" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move <kbd>Enter</kbd> to open <kbd>Esc</kbd> to close
      </p>
    </dialog>
  );
}
