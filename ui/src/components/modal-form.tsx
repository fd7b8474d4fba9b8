import type { FormEvent, ReactNode } from 'react';
import { ErrorMessage } from './error-message';
import { Modal } from './modal';

/** A dialog holding a form: the fields, the error in words, and Cancel / the submit button at the bottom. */
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Modal title={title} onClose={onClose} wide={wide}>
      <form onSubmit={submit}>
        <div className="modal-body form">
          {children}
          <ErrorMessage error={error} />
        </div>
        <DialogButtons onCancel={onClose} busy={busy} blocked={blocked} label={submitLabel} />
      </form>
    </Modal>
  );
}

/** Cancel, and the dialog's action: a submit button, or `onConfirm` for a dialog without a form. */
export function DialogButtons({ onCancel, busy, blocked, label, danger, onConfirm }: {
  onCancel(): void;
  busy: boolean;
  blocked?: boolean;
  label: string;
  danger?: boolean;
  onConfirm?(): void;
}) {
  return (
    <div className="modal-footer">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type={onConfirm ? 'button' : 'submit'} className={danger ? 'danger' : 'primary'} disabled={busy || blocked} onClick={onConfirm}>
        {busy ? 'Working…' : label}
      </button>
    </div>
  );
}
