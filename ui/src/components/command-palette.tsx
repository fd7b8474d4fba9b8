/**
 * The command palette (issue 21): Ctrl-K or ⌘-K anywhere in the signed-in UI — from a text field too, as in most
 * apps — or the top bar's "Search…" button opens a dialog that jumps to any page, flag, segment or namespace
 * (palette/). It stays shut while another dialog is open: that dialog's form is what the user is in the middle of.
 * The shell renders it, so the login page has none.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useRoute } from '../routing/hash-router';
import { PaletteDialog } from './palette/palette-dialog';

const MAC = /Mac|iPhone|iPad/.test(navigator.platform);

export function CommandPalette() {
  const [open, setOpen] = useState(false);
  // Another page (Back, Forward, a link elsewhere) closes it: what it was opened over is gone. Only the path counts:
  // the page's own state in the address (a list's search as it is typed) changes under an open palette.
  const page = useRoute().segments.join('/');
  useEffect(() => setOpen(false), [page]);

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'k' || e.isComposing) return;
      if (open) {
        e.preventDefault(); // the palette's own input starts a new search (palette-dialog.tsx)
        return;
      }
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <>
      <button type="button" className="palette-button" aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K" onClick={() => setOpen(true)}>
        Search…
        <kbd aria-hidden="true">{MAC ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {/* In the body rather than the top bar: a dialog is no part of the banner. */}
      {open && createPortal(<PaletteDialog onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
