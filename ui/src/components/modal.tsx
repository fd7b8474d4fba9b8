/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert and keeps Tab inside,
 * Escape asks to close it (`onClose`, which may ask first), and focus goes back to whatever opened it.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Modal({ title, onClose, children, wide }: { title: ReactNode; onClose(): void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal() focuses the first focusable element, the close button; the first field is where typing starts.
    dialog?.querySelector<HTMLElement>('input:not([readonly]):not([type=hidden]), select, textarea')?.focus();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal ${wide ? 'wide' : ''}`}
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        // Escape is handled here rather than left to the browser's close request: a field that uses Escape itself
        // (the segment picker's open list) prevents it first, and a dialog opened on top of this one (a question
        // before discarding) takes its own Escape without this one closing as well.
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
      onCancel={(e) => {
        // Any other close request (a platform's back gesture): React passes this event on to an enclosing dialog.
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}
