/**
 * A dialog holding a form: the fields, the error in words, and Cancel / the submit button at the bottom. Once a field
 * has been changed, leaving the page asks first (routing/leave-guards.ts), and so does closing the dialog (Escape, ×
 * or Cancel), until it closes.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLeaveGuard } from '../routing/leave-guards';
import { DiscardPrompt } from './discard-prompt';
import { ErrorMessage } from './error-message';
import { Modal } from './modal';

export function ModalForm({
  title,
  onClose,
  onSubmit,
  submitLabel,
  busy,
  blocked,
  error,
  wide,
  children,
}: {
  title: ReactNode;
  onClose(): void;
  onSubmit(): void;
  submitLabel: string;
  busy: boolean;
  /** The form cannot be sent as it is (and says why next to the field). */
  blocked?: boolean;
  error?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  const [edited, setEdited] = useState(false);
  const [asking, setAsking] = useState(false);
  useLeaveGuard(edited);
  const close = () => (edited ? setAsking(true) : onClose());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Modal title={title} onClose={close} wide={wide}>
      {/* Every field's change (typing, a choice, a box ticked) is an `input` event that bubbles up to the form. */}
      <form onSubmit={submit} onInput={() => setEdited(true)}>
        <div className="modal-body form">
          {children}
          <ErrorMessage error={error} />
        </div>
        <DialogButtons onCancel={close} busy={busy} blocked={blocked} label={submitLabel} />
      </form>
      {asking && <DiscardPrompt onDiscard={onClose} onKeep={() => setAsking(false)} />}
    </Modal>
  );
}

/** Cancel, and the dialog's action: a submit button, or `onConfirm` for a dialog without a form. */
export function DialogButtons({ onCancel, cancelLabel = 'Cancel', busy, blocked, label, danger, onConfirm }: {
  onCancel(): void;
  cancelLabel?: string;
  busy: boolean;
  blocked?: boolean;
  label: string;
  danger?: boolean;
  onConfirm?(): void;
}) {
  return (
    <div className="modal-footer">
      <button type="button" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type={onConfirm ? 'button' : 'submit'} className={danger ? 'danger' : 'primary'} disabled={busy || blocked} onClick={onConfirm}>
        {busy ? 'Working…' : label}
      </button>
    </div>
  );
}
